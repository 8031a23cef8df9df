/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: what admins
 * do to users (states, identities, custom attributes, memberships, avatars). One script, one part
 * per test. CI installs the package; on a machine without it these tests are reported as skipped,
 * never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

/** Runs one part of check_users_admin.py; the script's stderr names the first mismatch. */
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_users_admin.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken'), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab: users as admins manage them', () => {
  it.skipIf(!available)(
    'block() twice (True, then None), unblock, ban/unban, deactivate/activate, tokens refused meanwhile',
    async () => {
      expect(await runPart('states')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'users.create with provider and extern_uid, users.list by identity, identityproviders.delete',
    async () => {
      expect(await runPart('identities')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'customattributes.set/get/list/delete',
    async () => {
      expect(await runPart('attributes')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'memberships.list, with type=Namespace and type=Project; 400 for another type',
    async () => {
      expect(await runPart('memberships')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'an avatar on create and on save(): the bytes read back from avatar_url are the bytes sent',
    async () => {
      expect(await runPart('avatar')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
