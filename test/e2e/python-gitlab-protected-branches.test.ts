/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: protected
 * branches of an imported repository. On a machine without the package the test is reported as
 * skipped, never as passed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

let root: string;
let server: GitServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'py-protected-'));
  await makeRepository(join(root, 'source.git'), { commits: 3, branch: 'trunk' });
  server = await startGitServer(root);
});

afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('python-gitlab protected branches', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'protectedbranches create, list, get, delete; 409, 404, 403; the branch shows its protection',
    async () => {
      expect(await runCheck('check_protected_branches.py', [server.url('source.git')])).toEqual(PASSED);
    },
    120_000,
  );
});
