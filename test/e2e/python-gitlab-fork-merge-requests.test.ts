/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: a merge
 * request from a fork into its upstream (created there, its changes read, merged). Skipped, never
 * passed, without the package.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

let root: string;
let server: GitServer;
let main: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'py-fork-mrs-'));
  ({ head: main } = await makeRepository(join(root, 'source.git'), { commits: 3 }));
  server = await startGitServer(root);
});

afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('python-gitlab merge requests from a fork', () => {
  it.skipIf(!pythonGitlabAvailable)(
    "fork.mergerequests.create(target_project_id=upstream), the upstream's changes() and merge()",
    async () => {
      expect(await runCheck('check_fork_merge_requests.py', [server.url('source.git'), main])).toEqual(
        PASSED,
      );
    },
    120_000,
  );
});
