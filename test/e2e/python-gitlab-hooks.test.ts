/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: project
 * hooks (create, list, get, save, update, delete) and push rules (create, get, save, delete), with
 * the errors python-gitlab raises for bad values and for callers who may not. One script, one
 * part per test. CI installs the package; on a machine without it these tests are reported as
 * skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

/** Runs one part of check_hooks.py; the script's stderr names the first mismatch. */
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_hooks.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken'), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab project hooks and push rules', () => {
  it.skipIf(!available)(
    'hooks: create, list, get, save (wiki_events), update, delete; no token shown; 422/404/403/401',
    async () => {
      expect(await runPart('hooks')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'push rules: create, get, save, delete; 422 for a second, 400 for a bad regex, null when none',
    async () => {
      expect(await runPart('push_rules')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
