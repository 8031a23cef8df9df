/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: imports,
 * forks, the fork relation, housekeeping, pull mirroring and project deletion, with a real git
 * repository served by `git http-backend` on 127.0.0.1 as the remote. One script, one part per
 * test. CI installs the package; on a machine without it these tests are reported as skipped,
 * never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

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
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_repositories.py');
  const args = [script, inject('baseUrl'), inject('rootToken'), server.url('source.git')];
  const result = await promisify(execFile)(PYTHON, [...args, String(remote.count), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab repositories and project jobs', () => {
  it.skipIf(!available)(
    'projects.create with import_url: scheduled, then finished with the remote commit_count and HEAD branch',
    async () => {
      expect(await runPart('import')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'forks.create into a group by path, polled to finished; forks.list; forks_count; 409 and 404',
    async () => {
      expect(await runPart('forks')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'create_fork_relation and delete_fork_relation, with 409 and 304',
    async () => {
      expect(await runPart('relation')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'housekeeping(): 201, then 409 with the lease message',
    async () => {
      expect(await runPart('housekeeping')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'mirror_pull and mirror_pull_details; 400 for a project that is no mirror',
    async () => {
      expect(await runPart('mirror')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'project.delete(): 202, then 404, and the path free at once',
    async () => {
      expect(await runPart('delete')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
