/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime:
 * group.share()/unshare() with access flowing to the invited group's members at once,
 * group.members_all and project.members_all, project.groups.list(). On a machine without the
 * package the test is reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

/** Runs check_sharing.py; the script's stderr names the first mismatch. */
async function runCheck() {
  const script = join(import.meta.dirname, 'python', 'check_sharing.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken')], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab group sharing and members with inherited levels', () => {
  it.skipIf(!available)(
    'group.share/unshare, members_all.list/get of a group and a project, project.groups.list',
    async () => {
      expect(await runCheck()).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
