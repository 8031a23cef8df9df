/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: group,
 * project and user avatar round trips (the bytes read back from avatar_url equal those sent),
 * GitLab's 400 for a file that is no image, removal. One script, one part per test. On a machine
 * without the package these tests are reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab, requests'], { encoding: 'utf8' }).status === 0;

/** Runs one part of check_avatars.py; the script's stderr names the first mismatch. */
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_avatars.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken'), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab avatars', () => {
  it.skipIf(!available)(
    'groups.create with an avatar, group.save() with another, a text file refused, removal',
    async () => {
      expect(await runPart('groups')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'projects.create with an avatar, project.save() with another, a text file refused, removal',
    async () => {
      expect(await runPart('projects')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'users.create with an avatar, user.save() with another, served to anyone',
    async () => {
      expect(await runPart('users')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
