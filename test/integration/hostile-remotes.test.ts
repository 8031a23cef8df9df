/**
 * Remotes that try to exhaust the worker: a pack of a few hundred kilobytes whose blob inflates
 * to 160 MiB while declaring 16 bytes (a zip bomb), a blob that declares more than an object may
 * have, an answer larger than a fetch may take, a pack of more objects than allowed. Each import
 * or mirror update fails with a clear import_error / last_error, the project stays readable with
 * what it held, and nothing answers 5xx. A remote of 20,000 linear commits imports in bounded
 * time, its commit_count exact and its first page of commits git's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importFromRemote } from '../../shared/repository/import.ts';
import { fetchLimits } from '../../shared/repository/pack-scan.ts';
import { RemoteFetchError } from '../../shared/repository/remote.ts';
import { materializeRepository, readStoredRefs } from '../../shared/repository/storage.ts';
import {
  readCountedCommits,
  recordRepositoryStatistics,
} from '../../shared/store/projects/repository-state.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import {
  type CraftedRemote,
  commitWithBlob,
  entry,
  makeLinearHistory,
  OBJECT_TYPES,
  startCraftedRemote,
  zeros,
} from '../support/crafted-remote.ts';
import { commitCount, type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';

interface ProjectBody {
  id: number;
  default_branch: string | null;
  import_status: string;
  import_error: string | null;
  statistics?: { commit_count: number; repository_size: number };
}

const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let root: string;
let server: GitServer;
let bomb: CraftedRemote;
let declaredHuge: CraftedRemote;
let user: TestUser;

beforeAll(async () => {
  // Some tests fetch in this process, with limits of their own, into the runtime's bucket.
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'hostile-'));
  await makeRepository(join(root, 'small.git'), { commits: 40, tag: 'v1' });
  server = await startGitServer(root);
  // 160 MiB of zeros in one stream, past the 100 MiB an object may have, either way it is declared.
  const stream = await zeros(160 * 1024 * 1024);
  const fakeId = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
  const lying = commitWithBlob(fakeId, entry(OBJECT_TYPES.blob, 16, stream));
  bomb = await startCraftedRemote(lying.head, lying.pack);
  const honest = commitWithBlob(fakeId, entry(OBJECT_TYPES.blob, 160 * 1024 * 1024, stream));
  declaredHuge = await startCraftedRemote(honest.head, honest.pack);
  user = await createUser();
}, 60_000);

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server?.stop();
  await bomb?.stop();
  await declaredHuge?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function settled(id: number): Promise<ProjectBody> {
  await idle();
  const got = await api<ProjectBody>('GET', `/projects/${id}?statistics=true`, { token: user.token });
  expect(got.status).toBe(200);
  return got.body;
}

async function createProject(fields: Record<string, unknown> = {}): Promise<ProjectBody> {
  const created = await api<ProjectBody>('POST', '/projects', {
    token: user.token,
    json: { name: unique('hostile'), ...fields },
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('a hostile remote', () => {
  it('fails an import whose pack inflates past what it declares (a zip bomb), the project still readable', async () => {
    const created = await createProject({ import_url: bomb.url });
    const done = await settled(created.id);
    expect(done.import_status).toBe('failed');
    expect(done.import_error).toBe(
      `Fetching ${bomb.url} failed: The remote's pack holds an object that inflates past the 16 bytes it declares`,
    );
    expect(done.statistics?.commit_count).toBe(0);
    // The pack was fetched (and refused), once: the refusal is final, not retried.
    expect(bomb.requests.filter((request) => request.startsWith('POST')).length).toBe(1);
    expect(await readStoredRefs(created.id)).toBeUndefined();
    const branches = await api('GET', `/projects/${created.id}/repository/branches`, { token: user.token });
    expect(branches.status).toBe(200);
    expect(branches.body).toEqual([]);
    const tree = await api('GET', `/projects/${created.id}/repository/tree`, { token: user.token });
    expect(tree.status).toBe(404);
  });

  it('fails a mirror update whose blob declares more than an object may have; what the mirror held stays', async () => {
    const created = await createProject({ import_url: server.url('small.git'), mirror: true });
    const imported = await settled(created.id);
    expect(imported.import_status).toBe('finished');
    expect(imported.statistics?.commit_count).toBe(40);

    const moved = await api('PUT', `/projects/${created.id}`, {
      token: user.token,
      json: { import_url: declaredHuge.url },
    });
    expect(moved.status).toBe(200);
    const failed = await settled(created.id);
    expect(failed.import_status).toBe('failed');
    const expected = `Fetching ${declaredHuge.url} failed: The remote's pack holds an object of 160 MiB, more than the 100 MiB an object may have`;
    expect(failed.import_error).toBe(expected);
    const mirror = await api<{ last_error: string | null; update_status: string }>(
      'GET',
      `/projects/${created.id}/mirror/pull`,
      { token: user.token },
    );
    expect(mirror.status).toBe(200);
    expect(mirror.body.update_status).toBe('failed');
    expect(mirror.body.last_error).toBe(expected);
    // The state before the update is whole.
    expect(failed.statistics?.commit_count).toBe(40);
    const branch = await api<{ name: string; commit: { id: string } }>(
      'GET',
      `/projects/${created.id}/repository/branches/main`,
      { token: user.token },
    );
    expect(branch.status).toBe(200);
    expect(branch.body.commit.id).toBe(
      await git(['--git-dir', join(root, 'small.git'), 'rev-parse', 'main']),
    );
  });

  it('fails a fetch whose answers are larger than a fetch may take, committing nothing', async () => {
    const created = await createProject();
    const attempt = importFromRemote(created.id, server.url('small.git'), {
      limits: { ...fetchLimits, bytes: 4096 },
    });
    await expect(attempt).rejects.toBeInstanceOf(RemoteFetchError);
    await expect(attempt).rejects.toThrow(
      `Fetching ${server.url('small.git')} failed: The remote sent more than the 4096 bytes a fetch may take`,
    );
    expect(await readStoredRefs(created.id)).toBeUndefined();
  });

  it('fails a fetch of a pack holding more objects than allowed', async () => {
    const created = await createProject();
    const attempt = importFromRemote(created.id, server.url('small.git'), {
      limits: { ...fetchLimits, objects: 50 },
    });
    // 40 commits, their trees and blobs, an annotated tag.
    await expect(attempt).rejects.toThrow(
      /^Fetching http:\/\/127\.0\.0\.1:\d+\/small\.git failed: The remote's pack holds \d+ objects, more than the 50 a fetch may take$/,
    );
    expect(await readStoredRefs(created.id)).toBeUndefined();
    // Within the limits, the same remote imports.
    const imported = await importFromRemote(created.id, server.url('small.git'));
    expect(imported.commitCount).toBe(40);
  });
});

describe('a deep history', () => {
  const dir = () => join(root, 'deep.git');
  let deepProject: number | undefined;

  beforeAll(async () => {
    const started = Date.now();
    await makeLinearHistory(dir(), 20_000);
    console.log(`20,000-commit fixture: ${Date.now() - started} ms`);
  }, 60_000);

  it('imports 20,000 linear commits: commit_count exact, the first pages of commits git’s', async () => {
    const dir = join(root, 'deep.git');
    let started = Date.now();
    const created = await createProject({ import_url: server.url('deep.git') });
    deepProject = created.id;
    const done = await settled(created.id);
    console.log(`import of a 20,000-commit repository: ${Date.now() - started} ms (POST to finished)`);
    expect(done.import_status).toBe('finished');
    expect(done.statistics?.commit_count).toBe(20_000);
    expect(await commitCount(dir)).toBe(20_000);

    started = Date.now();
    const page = await api<{ id: string }[]>(
      'GET',
      `/projects/${created.id}/repository/commits?per_page=20`,
      {
        token: user.token,
      },
    );
    console.log(`first page of commits of 20,000: ${Date.now() - started} ms`);
    expect(page.status).toBe(200);
    const expected = (await git(['--git-dir', dir, 'rev-list', '--max-count=20', 'main'])).split('\n');
    expect(page.body.map((commit) => commit.id)).toEqual(expected);
    const second = await api<{ id: string }[]>(
      'GET',
      `/projects/${created.id}/repository/commits?per_page=20&page=2`,
      { token: user.token },
    );
    expect(second.status).toBe(200);
    const next = (await git(['--git-dir', dir, 'rev-list', '--skip=20', '--max-count=20', 'main'])).split(
      '\n',
    );
    expect(second.body.map((commit) => commit.id)).toEqual(next);
  }, 90_000);

  it('counts commits made through the API on top of the 20,000 as a full count does', async () => {
    expect(deepProject).toBeDefined();
    const created = { id: deepProject as number };
    // Each state's count starts from the one counted before it.
    const started = Date.now();
    for (let index = 0; index < 3; index++) {
      const committed = await api('POST', `/projects/${created.id}/repository/commits`, {
        token: user.token,
        json: {
          branch: 'main',
          commit_message: `API commit ${index}`,
          actions: [{ action: 'create', file_path: `api-${index}.txt`, content: `${index}\n` }],
        },
      });
      expect(committed.status).toBe(201);
    }
    const after = await settled(created.id);
    console.log(`3 API commits on 20,000, statistics recorded: ${Date.now() - started} ms`);
    expect(after.statistics?.commit_count).toBe(20_003);
    expect(after.statistics?.commit_count).toBe(await fullCount(created.id));
  });
});

describe('recorded statistics', () => {
  it('keep the newest state’s when two are recorded out of order; the same state again changes nothing', async () => {
    const created = await createProject();
    const head = (version: number) => `${String(version).repeat(40)}`.slice(0, 40);
    const record = (version: number, commitCount: number) =>
      recordRepositoryStatistics(created.id, {
        commitCount,
        repositorySize: commitCount * 10,
        countedAt: { head: head(version), version },
      });
    expect(await record(5, 50)).toBe(true);
    expect(await record(4, 40)).toBe(false);
    expect(await readCountedCommits(created.id)).toEqual({ count: 50, head: head(5), version: 5 });
    expect(await record(5, 50)).toBe(true);
    expect(await record(6, 60)).toBe(true);
    expect(await readCountedCommits(created.id)).toEqual({ count: 60, head: head(6), version: 6 });
    const shown = await settled(created.id);
    expect(shown.statistics?.commit_count).toBe(60);
    expect(shown.statistics?.repository_size).toBe(600);
  });
});

/** git's own count of the project's stored HEAD, from the repository rebuilt out of the bucket. */
async function fullCount(projectId: number): Promise<number> {
  const gitdir = await mkdtemp(join(root, 'stored-'));
  await materializeRepository(projectId, gitdir);
  return commitCount(gitdir);
}
