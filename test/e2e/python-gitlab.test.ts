/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime. CI installs
 * the package; on a machine without it this test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab', () => {
  it.skipIf(!pythonGitlabAvailable)('authenticates, creates and pages users, creates tokens', async () => {
    // stdout alone decides here (stderr is not required to be empty); stderr explains a failure.
    const { stdout, stderr, exitCode } = await runCheck('check_users.py', [], 60_000);
    expect({ stdout, exitCode }, stderr).toEqual({ stdout: PASSED.stdout, exitCode: 0 });
  });
});
