/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: the group
 * tree (descendant_groups, transfer to a parent and to the top level, visibility on the group
 * list, include_subgroups on a group's projects). On a machine without the package the test is
 * reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab group tree', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'descendant_groups.list, transfer(parent) and transfer(), groups.list(visibility), projects.list(include_subgroups)',
    async () => {
      expect(await runCheck('check_group_tree.py')).toEqual(PASSED);
    },
    120_000,
  );
});
