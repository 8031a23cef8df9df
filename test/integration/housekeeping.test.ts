/**
 * Housekeeping against the runtime and its s3rver: a project whose stored repository has several
 * packs (two imports) and an orphan (an import killed before its commit point) is repacked by the
 * worker into one pack that git reads back with the same refs and fsck finds clean; statistics
 * follow; the 24-hour lease refuses a second request. Then the repack itself, killed at each step
 * and run again, always leaves a readable repository.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { listBlobs, putBlob } from '../../shared/blob/s3.ts';
import { uploadPrefix } from '../../shared/domain/uploads.ts';
import { importFromRemote } from '../../shared/repository/import.ts';
import { repositoryPrefix, type StoredRefs } from '../../shared/repository/layout.ts';
import { repackRepository } from '../../shared/repository/repack.ts';
import { materializeRepository, readStoredRefs } from '../../shared/repository/storage.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import {
  addCommits,
  commitCount,
  type GitServer,
  git,
  makeRepository,
  startGitServer,
} from '../support/git-server.ts';

// A worker killed at a chosen step: the named blob write or deletion throws instead of happening.
const kill = vi.hoisted(() => ({
  put: undefined as ((key: string) => boolean) | undefined,
  remove: undefined as ((key: string) => boolean) | undefined,
}));
vi.mock('../../shared/blob/s3.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/blob/s3.ts')>();
  return {
    ...actual,
    putBlob: (key: string, body: Buffer, contentType: string) =>
      kill.put?.(key) ? Promise.reject(new Error('worker killed')) : actual.putBlob(key, body, contentType),
    deleteBlob: (key: string) =>
      kill.remove?.(key) ? Promise.reject(new Error('worker killed')) : actual.deleteBlob(key),
  };
});

const LEASE_TAKEN = {
  message: 'Somebody already triggered housekeeping for this project in the past 1440 minutes',
};
const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let root: string;
let server: GitServer;

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'housekeeping-'));
  server = await startGitServer(root);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  kill.put = undefined;
  kill.remove = undefined;
});

/** The keys under the project's repository prefix, relative to it. */
async function storedKeys(projectId: number): Promise<string[]> {
  // Every committed state leaves its own refs document: they are shown as one `refs.json`.
  const relative = (await listBlobs(repositoryPrefix(projectId))).map(({ key }) =>
    key.slice(repositoryPrefix(projectId).length).replace(/^refs\/[^/]+\.json$/, 'refs.json'),
  );
  return [...new Set(relative)];
}

const packFiles = (keys: string[]) => keys.filter((key) => key.startsWith('objects/pack/'));

/** The files one pack is stored as, with the refs document. */
const onePack = (stored: StoredRefs) => [
  `objects/pack/${stored.packs[0]}.idx`,
  `objects/pack/${stored.packs[0]}.pack`,
  'refs.json',
];

/** Rebuilds the repository from the bucket, lets `git fsck --strict` check it; its directory. */
async function rebuilt(projectId: number): Promise<string> {
  const gitdir = await mkdtemp(join(root, 'rebuilt-'));
  await materializeRepository(projectId, gitdir);
  await git(['--git-dir', gitdir, 'fsck', '--strict', '--no-progress', '--no-dangling']);
  return gitdir;
}

/** Every ref git sees in a repository directory, with HEAD's target. */
async function refsSeenByGit(gitdir: string): Promise<{ head: string; refs: Record<string, string> }> {
  const lines = (await git(['--git-dir', gitdir, 'for-each-ref', '--format=%(refname) %(objectname)'])).split(
    '\n',
  );
  const refs = Object.fromEntries(lines.map((line) => line.split(' ') as [string, string]));
  return { head: await git(['--git-dir', gitdir, 'symbolic-ref', 'HEAD']), refs };
}

/**
 * A remote with a main branch (and an annotated tag), a feature branch off it, imported twice with
 * new commits in between (two packs), then a third import killed before its refs document (an
 * orphan pack nothing names).
 */
async function repositoryWithSeveralPacks(projectId: number, name: string) {
  const remote = join(root, `${name}.git`);
  await makeRepository(remote, { commits: 40, tag: 'v1.0' });
  await git(['--git-dir', remote, 'branch', 'feature', 'main~5']);
  await importFromRemote(projectId, server.url(`${name}.git`));
  await addCommits(remote, 3);
  await addCommits(remote, 2, 'feature');
  const second = await importFromRemote(projectId, server.url(`${name}.git`));
  expect(second.stored.packs).toHaveLength(2);

  await addCommits(remote, 4);
  kill.put = (key) => /\/refs\/[^/]+\.json$/.test(key);
  await expect(importFromRemote(projectId, server.url(`${name}.git`))).rejects.toThrow('worker killed');
  kill.put = undefined;
  const keys = await storedKeys(projectId);
  expect(packFiles(keys)).toHaveLength(6);
  expect(await readStoredRefs(projectId)).toEqual(second.stored);
  return { remote, stored: second.stored };
}

async function createProject(
  token: string,
  visibility = 'private',
): Promise<{ id: number; path_with_namespace: string }> {
  const created = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', {
    token,
    json: { name: unique('housekeeping'), visibility },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function addMember(projectId: number, user: TestUser, accessLevel: number): Promise<void> {
  const added = await api('POST', `/projects/${projectId}/members`, {
    json: { user_id: user.id, access_level: accessLevel },
  });
  expect(added.status).toBe(201);
}

interface Statistics {
  commit_count: number;
  storage_size: number;
  repository_size: number;
  uploads_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
}

/** The project's statistics once the runtime is idle (the housekeeping worker has run). */
async function statisticsOnceIdle(projectId: number): Promise<Statistics> {
  await idle();
  const response = await api<{ statistics: Statistics }>('GET', `/projects/${projectId}?statistics=true`);
  expect(response.status).toBe(200);
  return response.body.statistics;
}

describe('POST /projects/:id/housekeeping', () => {
  it('repacks several packs and an orphan into one pack that git reads with the same refs, and records statistics', async () => {
    const owner = await createUser();
    const [maintainer, developer, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    const project = await createProject(owner.token);
    await addMember(project.id, maintainer, 40);
    await addMember(project.id, developer, 30);
    const { remote, stored } = await repositoryWithSeveralPacks(project.id, 'several');
    const before = await refsSeenByGit(await rebuilt(project.id));

    expect(
      await api('POST', `/projects/${project.id}/housekeeping`, { token: developer.token }),
    ).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(
      await api('POST', `/projects/${project.id}/housekeeping`, { token: stranger.token }),
    ).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await storedKeys(project.id)).toHaveLength(7);

    const path = encodeURIComponent(project.path_with_namespace);
    const queued = await api('POST', `/projects/${path}/housekeeping`, { token: maintainer.token });
    expect(queued.status).toBe(201);
    expect(queued.body).toEqual(
      expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    );

    // A second request within the lease, whoever sends it and however the project is named.
    for (const [token, name] of [
      [maintainer.token, project.id],
      [owner.token, path],
      [undefined, project.id],
    ] as const) {
      const again = await api('POST', `/projects/${name}/housekeeping`, { token });
      expect({ status: again.status, body: again.body }).toEqual({ status: 409, body: LEASE_TAKEN });
    }

    const statistics = await statisticsOnceIdle(project.id);
    const repacked = await readStoredRefs(project.id);
    expect(repacked).toEqual({ ...stored, packs: [expect.stringMatching(/^pack-[0-9a-f]{40}$/)] });
    const packed = repacked as StoredRefs;
    expect(packed.packs[0]).not.toBeOneOf(stored.packs);
    // One pack, its index and the document: no orphan is left under the prefix.
    expect(await storedKeys(project.id)).toEqual(onePack(packed));

    const gitdir = await rebuilt(project.id);
    expect(await refsSeenByGit(gitdir)).toEqual(before);
    expect(await git(['--git-dir', gitdir, 'count-objects', '-v'])).toMatch(/^packs: 1$/m);
    // The stored HEAD is the one imported before the killed import: 43 commits on main.
    expect(statistics.commit_count).toBe(await commitCount(gitdir));
    expect(statistics.commit_count).toBe(43);
    expect(await commitCount(gitdir, 'refs/heads/feature')).toBe(37);
    expect(await git(['--git-dir', gitdir, 'cat-file', '-t', 'refs/tags/v1.0'])).toBe('tag');
    expect(await commitCount(remote)).toBe(47);

    const bytes = (await listBlobs(repositoryPrefix(project.id))).reduce((sum, { size }) => sum + size, 0);
    expect(statistics).toEqual({
      commit_count: 43,
      storage_size: bytes,
      repository_size: bytes,
      wiki_size: 0,
      lfs_objects_size: 0,
      job_artifacts_size: 0,
      packages_size: 0,
      snippets_size: 0,
      uploads_size: 0,
    });
  });

  it('a project without a repository gets its statistics only: uploads measured again; unknown → 404', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, 'public');
    const upload = new FormData();
    upload.append('file', new Blob([Buffer.alloc(1234, 7)]), 'data.bin');
    expect(
      (await api('POST', `/projects/${project.id}/uploads`, { token: owner.token, body: upload })).status,
    ).toBe(201);
    // Bytes stored under the uploads prefix that no upload counted: only the job's measure sees them.
    await putBlob(
      `${uploadPrefix(project.id)}0123456789abcdef0123456789abcdef/extra.bin`,
      Buffer.alloc(100),
      'application/octet-stream',
    );

    const queued = await api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token });
    expect(queued.status).toBe(201);
    expect(queued.body).toEqual(expect.any(String));
    const statistics = await statisticsOnceIdle(project.id);
    expect(statistics).toMatchObject({
      commit_count: 0,
      repository_size: 0,
      storage_size: 1334,
      uploads_size: 1334,
    });
    expect(await storedKeys(project.id)).toEqual([]);

    expect(await api('POST', '/projects/999999999/housekeeping', { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await api('POST', `/projects/${project.id}/housekeeping`, { token: null })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});

// Project ids of this file's own, far from the runtime's counters.
let nextProjectId = 800_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
const newProjectId = () => nextProjectId++;

describe('the repack, killed and run again', () => {
  it('killed before its refs document: the old state is whole; run again, one pack and no orphan', async () => {
    const projectId = newProjectId();
    const { stored } = await repositoryWithSeveralPacks(projectId, 'killed-before-commit');
    const before = await refsSeenByGit(await rebuilt(projectId));

    kill.put = (key) => /\/refs\/[^/]+\.json$/.test(key);
    await expect(repackRepository(projectId)).rejects.toThrow('worker killed');
    kill.put = undefined;
    // The new pack is stored, nothing names it: the repository is still the two-pack one.
    expect(await readStoredRefs(projectId)).toEqual(stored);
    expect(packFiles(await storedKeys(projectId))).toHaveLength(8);
    expect(await refsSeenByGit(await rebuilt(projectId))).toEqual(before);

    const result = await repackRepository(projectId);
    expect(result).toMatchObject({ repacked: true, commitCount: 43 });
    expect(result?.removed).toHaveLength(6);
    expect(await storedKeys(projectId)).toEqual(onePack(result?.stored as StoredRefs));
    expect(await refsSeenByGit(await rebuilt(projectId))).toEqual(before);
  });

  it('killed while removing old packs: the new state is whole; run again, the rest goes without a repack', async () => {
    const projectId = newProjectId();
    await repositoryWithSeveralPacks(projectId, 'killed-mid-removal');
    const before = await refsSeenByGit(await rebuilt(projectId));

    let removals = 0;
    kill.remove = () => ++removals > 2;
    await expect(repackRepository(projectId)).rejects.toThrow('worker killed');
    kill.remove = undefined;
    const committed = (await readStoredRefs(projectId)) as StoredRefs;
    expect(committed.packs).toHaveLength(1);
    expect(packFiles(await storedKeys(projectId))).toHaveLength(6);
    expect(await refsSeenByGit(await rebuilt(projectId))).toEqual(before);

    const again = await repackRepository(projectId);
    expect(again).toMatchObject({ repacked: false, stored: committed, commitCount: 43 });
    expect(again?.removed).toHaveLength(4);
    expect(await storedKeys(projectId)).toEqual(onePack(committed));

    // Delivered once more: nothing left to do, nothing changes.
    const third = await repackRepository(projectId);
    expect(third).toMatchObject({ repacked: false, removed: [], stored: committed });
    const bytes = (await listBlobs(repositoryPrefix(projectId))).reduce((sum, { size }) => sum + size, 0);
    expect(third?.repositorySize).toBe(bytes);
  });

  it('the same refs give the same pack, and a project without a repository is left alone', async () => {
    const first = newProjectId();
    const second = newProjectId();
    const remote = join(root, 'deterministic.git');
    await makeRepository(remote, { commits: 10 });
    for (const projectId of [first, second]) {
      await importFromRemote(projectId, server.url('deterministic.git'));
    }
    await addCommits(remote, 2);
    for (const projectId of [first, second]) {
      await importFromRemote(projectId, server.url('deterministic.git'));
    }
    const [a, b] = await Promise.all([repackRepository(first), repackRepository(second)]);
    expect(a?.stored.packs).toHaveLength(1);
    expect(a?.stored).toEqual(b?.stored);

    const empty = newProjectId();
    expect(await repackRepository(empty)).toBeUndefined();
    expect(await storedKeys(empty)).toEqual([]);
  });
});
