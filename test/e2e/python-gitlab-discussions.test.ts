/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: discussions
 * on issues (create, list, get; a thread's notes created, read, saved and deleted), merge requests
 * (a thread resolved with resolved=True and save(); a reporter refused) and project snippets. CI
 * installs the package; on a machine without it these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab discussions', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'issue, merge request and snippet discussions round trip; a thread resolved; 403 and 404',
    async () => {
      expect(await runCheck('check_discussions.py')).toEqual(PASSED);
    },
    120_000,
  );
});
