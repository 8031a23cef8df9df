/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: an
 * anonymous gitlab.Gitlab(url) reading a public project's issues and merge requests, and the small
 * reads around an issue (participants, closed_by, related_merge_requests, user_agent_detail as
 * admin, a project snippet's user_agent_detail). CI installs the package; on a machine without it
 * these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab reads of issues', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'anonymous: a public project’s issues and merge requests listed and read, confidential and private ones 404, notes 401',
    async () => {
      expect(await runCheck('check_issue_reads.py', ['anonymous'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'participants, closed_by, related_merge_requests, user_agent_detail of an issue and a snippet (admin; 403 otherwise)',
    async () => {
      expect(await runCheck('check_issue_reads.py', ['issue_reads'])).toEqual(PASSED);
    },
    120_000,
  );
});
