/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: imports,
 * forks, the fork relation, housekeeping, pull mirroring, project deletion, repository reads, compare, contributors, a commit's refs and archives, with a real git
 * repository served by `git http-backend` on 127.0.0.1 as the remote. One script, one part per
 * test. CI installs the package; on a machine without it these tests are reported as skipped,
 * never as passed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

let root: string;
let server: GitServer;
let remote: { head: string; count: number };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'py-remote-'));
  // A HEAD other than master, so default_branch following the remote shows.
  remote = await makeRepository(join(root, 'source.git'), { commits: 40, branch: 'trunk', tag: 'v1.0' });
  server = await startGitServer(root);
});

afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

/** Runs one part of check_repositories.py; the script's stderr names the first mismatch. */
function runPart(part: string) {
  return runCheck('check_repositories.py', [server.url('source.git'), String(remote.count), part]);
}

describe('python-gitlab repositories and project jobs', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'projects.create with import_url: scheduled, then finished with the remote commit_count and HEAD branch',
    async () => {
      expect(await runPart('import')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'forks.create into a group by path, finished once idle; forks.list; forks_count; 409 and 404',
    async () => {
      expect(await runPart('forks')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'create_fork_relation and delete_fork_relation, with 409 and 304',
    async () => {
      expect(await runPart('relation')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'housekeeping(): 201, then 409 with the lease message',
    async () => {
      expect(await runPart('housekeeping')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'mirror_pull and mirror_pull_details; 400 for a project that is no mirror',
    async () => {
      expect(await runPart('mirror')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'project.delete(): 202, then 404, and the path free at once',
    async () => {
      expect(await runPart('delete')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'branches.list/get, tags.list, repository_tree, files.get().decode() and files.raw, commits.list/get with stats, diff',
    async () => {
      expect(await runPart('reads')).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'repository_compare, repository_contributors, commit.refs and repository_archive (un-tarred)',
    async () => {
      expect(await runPart('compare')).toEqual(PASSED);
    },
    120_000,
  );
});
