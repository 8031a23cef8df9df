/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime:
 * group.share()/unshare() with access flowing to the invited group's members at once,
 * group.members_all and project.members_all, project.groups.list(). On a machine without the
 * package the test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab group sharing and members with inherited levels', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'group.share/unshare, members_all.list/get of a group and a project, project.groups.list',
    async () => {
      expect(await runCheck('check_sharing.py')).toEqual(PASSED);
    },
    120_000,
  );
});
