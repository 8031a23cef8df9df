/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: gl.search,
 * group.search and project.search. CI installs the package; on a machine without it this test is
 * reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab search', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'gl.search (projects, users, groups, snippet titles, milestones, pages), group.search (milestones), project.search (notes) and the 400 refusals',
    async () => {
      expect(await runCheck('check_search.py')).toEqual(PASSED);
    },
    120_000,
  );
});
