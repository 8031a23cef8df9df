/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: files
 * created, read, updated (and refused from a stale last_commit_id) and deleted, a first commit to
 * an empty project, branches, a commit of several actions, the tree and compare reading it back.
 * Without the package the test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab commits', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'files.create/get/update/delete, branches, commits.create with actions, repository_tree, repository_compare',
    async () => {
      expect(await runCheck('check_commits.py')).toEqual(PASSED);
    },
    120_000,
  );
});
