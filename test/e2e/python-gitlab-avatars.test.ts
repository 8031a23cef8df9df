/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: group,
 * project and user avatar round trips (the bytes read back from avatar_url equal those sent),
 * GitLab's 400 for a file that is no image, removal. One script, one part per test. On a machine
 * without the package these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab avatars', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'groups.create with an avatar, group.save() with another, a text file refused, removal',
    async () => {
      expect(await runCheck('check_avatars.py', ['groups'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'projects.create with an avatar, project.save() with another, a text file refused, removal',
    async () => {
      expect(await runCheck('check_avatars.py', ['projects'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'users.create with an avatar, user.save() with another, served to anyone',
    async () => {
      expect(await runCheck('check_avatars.py', ['users'])).toEqual(PASSED);
    },
    120_000,
  );
});
