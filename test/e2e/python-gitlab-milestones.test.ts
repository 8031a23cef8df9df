/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: project and
 * group milestones — create, list with filters, get, save (close, rename), delete and the errors
 * python-gitlab raises. CI installs the package; on a machine without it these tests are reported
 * as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab milestones', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'project.milestones create/list/get/save/delete and their issues and merge requests; group.milestones create/list/issues/merge_requests; 400 and 404',
    async () => {
      expect(await runCheck('check_milestones.py')).toEqual(PASSED);
    },
    120_000,
  );
});
