/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: projects —
 * create, get, save, list and search, stars, archive, shares, uploads, members, and get_all over
 * 250 projects. CI installs the package; on a machine without it this test is reported as skipped,
 * never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab projects', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'creates, gets, saves, lists and pages projects; stars, archives, shares, uploads, members',
    async () => {
      // stdout alone decides here (stderr is not required to be empty); stderr explains a failure.
      const { stdout, stderr, exitCode } = await runCheck('check_projects.py', [], 150_000);
      expect({ stdout, exitCode }, stderr).toEqual({ stdout: PASSED.stdout, exitCode: 0 });
    },
    180_000,
  );
});
