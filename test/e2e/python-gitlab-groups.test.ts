/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: groups,
 * subgroups and members. CI installs the package; on a machine without it this test is reported
 * as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab groups', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'creates, lists, pages, shows, saves and deletes groups and members',
    async () => {
      // stdout alone decides here (stderr is not required to be empty); stderr explains a failure.
      const { stdout, stderr, exitCode } = await runCheck('check_groups.py', [], 60_000);
      expect({ stdout, exitCode }, stderr).toEqual({ stdout: PASSED.stdout, exitCode: 0 });
    },
  );
});
