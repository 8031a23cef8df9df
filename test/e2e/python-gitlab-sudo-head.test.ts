/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: sudo as a
 * keyword argument and as a session header, HEAD through `http_head` with X-Total, and a token
 * revoking itself. One script, one part per test. CI installs the package; on a machine without it
 * these tests are reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

/** Runs one part of check_sudo_head.py; the script's stderr names the first mismatch. */
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_sudo_head.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken'), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab sudo, HEAD and self-revocation', () => {
  it.skipIf(!available)(
    'projects.create(..., sudo=uid) creates as that user; users.create under sudo; the Sudo header; 403 and 404',
    async () => {
      expect(await runPart('sudo')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'http_head on a list gives X-Total, X-Total-Pages and Link; on one project its content type; 404 raises',
    async () => {
      expect(await runPart('head')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'http_delete("/personal_access_tokens/self") revokes the token in use; it then fails authentication',
    async () => {
      expect(await runPart('revoke')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
