/**
 * The repository layer against real git and the runtime's s3rver: a repository served by
 * `git http-backend` is imported into the bucket, rebuilt from it and read back by git itself
 * (clone, rev-list, fsck --strict); a fork copy, a mirror-style second fetch, a worker killed
 * before the commit point (and mid-copy) and retried, removal by prefix, credentials that never
 * show, and the address guard in front of isomorphic-git's HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { listBlobs } from '../../shared/blob/s3.ts';
import { importFromRemote, repositoryStatistics } from '../../shared/repository/import.ts';
import { repositoryPrefix, type StoredRefs } from '../../shared/repository/layout.ts';
import { fetchRemote, RemoteFetchError } from '../../shared/repository/remote.ts';
import {
  copyRepository,
  deleteRepository,
  materializeRepository,
  readStoredRefs,
} from '../../shared/repository/storage.ts';
import {
  addCommits,
  commitCount,
  type GitServer,
  git,
  makeRepository,
  revParse,
  startGitServer,
} from '../support/git-server.ts';

// A worker killed at a chosen step: the named blob write throws instead of happening.
const kill = vi.hoisted(() => ({
  put: undefined as ((key: string) => boolean) | undefined,
  copy: undefined as ((to: string) => boolean) | undefined,
}));
vi.mock('../../shared/blob/s3.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/blob/s3.ts')>();
  return {
    ...actual,
    putBlob: (key: string, body: Buffer, contentType: string) =>
      kill.put?.(key) ? Promise.reject(new Error('worker killed')) : actual.putBlob(key, body, contentType),
    copyBlob: (from: string, to: string) =>
      kill.copy?.(to) ? Promise.reject(new Error('worker killed')) : actual.copyBlob(from, to),
  };
});

const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let root: string;
let server: GitServer;
let source: { head: string; count: number };
// Project ids of this file's own, far from the runtime's counters.
let nextProjectId = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
const newProjectId = () => nextProjectId++;

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  // The local runtime allows local requests; this process reads its own environment.
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'repository-store-'));
  source = await makeRepository(join(root, 'source.git'), { commits: 200, tag: 'v1.0' });
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
  kill.copy = undefined;
});

async function storedKeys(projectId: number): Promise<string[]> {
  // Every committed state leaves its own refs document: they are shown as one `refs.json`.
  const relative = (await listBlobs(repositoryPrefix(projectId))).map(({ key }) =>
    key.slice(repositoryPrefix(projectId).length).replace(/^refs\/[^/]+\.json$/, 'refs.json'),
  );
  return [...new Set(relative)];
}

/** Rebuilds the project's repository from the bucket and lets git check it; answers its directory. */
async function rebuilt(projectId: number): Promise<{ gitdir: string; stored: StoredRefs | undefined }> {
  const gitdir = await mkdtemp(join(root, 'rebuilt-'));
  const stored = await materializeRepository(projectId, gitdir);
  await git(['--git-dir', gitdir, 'fsck', '--strict', '--no-progress']);
  return { gitdir, stored };
}

/** A clone by git over its pack protocol (`--no-local`: no hard links, the objects are read and sent). */
async function cloneHead(gitdir: string): Promise<string> {
  const clone = await mkdtemp(join(root, 'clone-'));
  await git(['clone', '--quiet', '--no-local', gitdir, clone]);
  return revParse(join(clone, '.git'));
}

describe('import from a remote into the bucket', () => {
  it('stores a 200-commit repository that git reads back with the same history, HEAD and tags', async () => {
    const projectId = newProjectId();
    const started = performance.now();
    const result = await importFromRemote(projectId, server.url('source.git'));
    const importMs = performance.now() - started;
    console.info(
      `import of a ${source.count}-commit repository (first in the process): ${importMs.toFixed(0)} ms`,
    );

    expect(result.commitCount).toBe(await commitCount(join(root, 'source.git'), 'main'));
    expect(result.commitCount).toBe(200);
    expect(result.defaultBranch).toBe('main');
    expect(result.stored.head).toBe('refs/heads/main');
    expect(result.stored.refs).toEqual({
      'refs/heads/main': source.head,
      'refs/tags/v1.0': await revParse(join(root, 'source.git'), 'refs/tags/v1.0'),
    });
    expect(result.uploaded).toHaveLength(1);
    const pack = result.uploaded[0];
    expect(await storedKeys(projectId)).toEqual([
      `objects/pack/${pack}.idx`,
      `objects/pack/${pack}.pack`,
      'refs.json',
    ]);
    const sizes = await listBlobs(repositoryPrefix(projectId));
    expect(result.repositorySize).toBe(sizes.reduce((sum, { size }) => sum + size, 0));
    expect(await readStoredRefs(projectId)).toEqual(result.stored);
    expect(await repositoryStatistics(projectId)).toEqual({
      commitCount: 200,
      repositorySize: result.repositorySize,
      countedAt: { head: source.head, version: result.countedAt.version },
    });

    const { gitdir } = await rebuilt(projectId);
    expect(await commitCount(gitdir)).toBe(200);
    expect(await git(['--git-dir', gitdir, 'symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
    expect(await cloneHead(gitdir)).toBe(source.head);
    expect(await git(['--git-dir', gitdir, 'cat-file', '-t', 'refs/tags/v1.0'])).toBe('tag');
  });

  it('copies a repository to a fork prefix with the same HEAD, refs last', async () => {
    const from = newProjectId();
    const to = newProjectId();
    const imported = performance.now();
    await importFromRemote(from, server.url('source.git'));
    console.info(`import again, warm: ${(performance.now() - imported).toFixed(0)} ms`);
    const started = performance.now();
    const copied = await copyRepository(from, to);
    console.info(
      `fork copy of a ${source.count}-commit repository: ${(performance.now() - started).toFixed(0)} ms`,
    );

    expect(copied).toEqual(await readStoredRefs(from));
    expect(await readStoredRefs(to)).toEqual(copied);
    expect(await storedKeys(to)).toEqual(await storedKeys(from));
    const { gitdir } = await rebuilt(to);
    expect(await cloneHead(gitdir)).toBe(source.head);
    expect(await commitCount(gitdir)).toBe(200);
  });

  it('a second fetch after two new commits adds one pack and moves the refs; a third adds nothing', async () => {
    const remote = join(root, 'mirrored.git');
    await makeRepository(remote, { commits: 20 });
    const projectId = newProjectId();
    const first = await importFromRemote(projectId, server.url('mirrored.git'));
    const requestsBefore = server.requests.length;

    const moved = await addCommits(remote, 2);
    const second = await importFromRemote(projectId, server.url('mirrored.git'));
    expect(second.uploaded).toHaveLength(1);
    expect(second.stored.packs).toEqual([...first.stored.packs, ...second.uploaded].sort());
    expect(second.stored.refs['refs/heads/main']).toBe(moved.head);
    expect(second.commitCount).toBe(22);
    // Only what was new travelled: the ref advertisement and one upload-pack exchange.
    expect(server.requests.slice(requestsBefore).map(({ method }) => method)).toEqual(['GET', 'POST']);

    const third = await importFromRemote(projectId, server.url('mirrored.git'));
    expect(third.uploaded).toEqual([]);
    expect(third.stored).toEqual(second.stored);

    const { gitdir } = await rebuilt(projectId);
    expect(await commitCount(gitdir)).toBe(22);
    expect(await cloneHead(gitdir)).toBe(moved.head);
  });
});

describe('an empty remote', () => {
  it('imports as a repository without branches, and its first commits arrive with the next fetch', async () => {
    const remote = join(root, 'empty.git');
    await git(['init', '--quiet', '--bare', '--initial-branch=main', remote]);
    const projectId = newProjectId();
    const empty = await importFromRemote(projectId, server.url('empty.git'));
    expect(empty).toMatchObject({ defaultBranch: null, commitCount: 0, uploaded: [] });
    expect(empty.stored).toEqual({ version: 1, head: null, refs: {}, packs: [] });
    expect(await storedKeys(projectId)).toEqual(['refs.json']);

    const pushed = await addCommits(remote, 3);
    const filled = await importFromRemote(projectId, server.url('empty.git'));
    expect(filled).toMatchObject({ defaultBranch: 'main', commitCount: 3 });
    const { gitdir } = await rebuilt(projectId);
    expect(await cloneHead(gitdir)).toBe(pushed.head);
  });
});

describe('a remote that went away', () => {
  it('fails with a clear error and leaves the stored state as it was', async () => {
    const remote = join(root, 'vanishing.git');
    await makeRepository(remote, { commits: 5 });
    const projectId = newProjectId();
    const before = (await importFromRemote(projectId, server.url('vanishing.git'))).stored;
    await rm(remote, { recursive: true, force: true });
    await expect(importFromRemote(projectId, server.url('vanishing.git'))).rejects.toThrow(
      /^Fetching http:\/\/127\.0\.0\.1:\d+\/vanishing\.git failed: HTTP Error: 404 Not Found$/,
    );
    // Nothing listens on a port the server had and gave up.
    const gone = await startGitServer(root);
    const goneUrl = gone.url('source.git');
    await gone.stop();
    await expect(importFromRemote(projectId, goneUrl)).rejects.toThrow(/failed: .*ECONNREFUSED/);
    expect(await readStoredRefs(projectId)).toEqual(before);
  });
});

describe('a worker killed before the commit point', () => {
  it('an import killed after uploading its pack leaves the previous state, and a retry completes', async () => {
    const remote = join(root, 'interrupted.git');
    const original = await makeRepository(remote, { commits: 30 });
    const projectId = newProjectId();
    const before = (await importFromRemote(projectId, server.url('interrupted.git'))).stored;
    const moved = await addCommits(remote, 2);

    kill.put = (key) => /\/refs\/[^/]+\.json$/.test(key);
    await expect(importFromRemote(projectId, server.url('interrupted.git'))).rejects.toThrow('worker killed');
    kill.put = undefined;

    // The new pack is in the bucket, but nothing names it: the repository is still the old one.
    expect((await storedKeys(projectId)).filter((key) => key.endsWith('.pack'))).toHaveLength(2);
    expect(await readStoredRefs(projectId)).toEqual(before);
    const old = await rebuilt(projectId);
    expect(await revParse(old.gitdir)).toBe(original.head);
    expect(await commitCount(old.gitdir)).toBe(30);

    const retried = await importFromRemote(projectId, server.url('interrupted.git'));
    expect(retried.stored.refs['refs/heads/main']).toBe(moved.head);
    expect(retried.commitCount).toBe(32);
    const { gitdir } = await rebuilt(projectId);
    expect(await cloneHead(gitdir)).toBe(moved.head);
  });

  it('a fork copy killed mid-copy leaves no repository at the fork, and a retry finishes the copy', async () => {
    const from = newProjectId();
    const to = newProjectId();
    await importFromRemote(from, server.url('source.git'));
    let copies = 0;
    kill.copy = () => ++copies > 1; // the pack is copied, its index is not

    await expect(copyRepository(from, to)).rejects.toThrow('worker killed');
    kill.copy = undefined;
    expect(await readStoredRefs(to)).toBeUndefined();
    expect(await storedKeys(to)).toHaveLength(1);

    await copyRepository(from, to);
    expect(await storedKeys(to)).toEqual(await storedKeys(from));
    const { gitdir } = await rebuilt(to);
    expect(await cloneHead(gitdir)).toBe(source.head);
  });
});

describe('removal', () => {
  it('deleting a repository leaves no object under its prefix and no state', async () => {
    const projectId = newProjectId();
    const neighbour = projectId * 10; // `repositories/<id>/` must not reach `repositories/<id>0/`
    await importFromRemote(projectId, server.url('source.git'));
    await importFromRemote(neighbour, server.url('source.git'));

    await deleteRepository(projectId);
    expect(await listBlobs(repositoryPrefix(projectId))).toEqual([]);
    expect(await readStoredRefs(projectId)).toBeUndefined();
    expect(await storedKeys(neighbour)).toHaveLength(3);
    // A project without a repository rebuilds as an empty one.
    const { stored } = await rebuilt(projectId);
    expect(stored).toBeUndefined();
    await deleteRepository(neighbour);
  });
});

describe('credentials and the address guard', () => {
  it('sends credentials in the URL as Basic authorization and never shows them in an error', async () => {
    const projectId = newProjectId();
    const withCredentials = server.url('source.git').replace('http://', 'http://importer:s3cret%2Fpass@');
    const requestsBefore = server.requests.length;
    const result = await importFromRemote(projectId, withCredentials);
    expect(result.commitCount).toBe(200);
    const sent = server.requests.slice(requestsBefore);
    expect(sent.map(({ headers }) => headers.authorization)).toEqual([
      `Basic ${Buffer.from('importer:s3cret/pass').toString('base64')}`,
      `Basic ${Buffer.from('importer:s3cret/pass').toString('base64')}`,
    ]);
    expect(sent.every(({ path }) => !path.includes('s3cret'))).toBe(true);

    const missing = withCredentials.replace('source.git', 'missing.git');
    const failure = await importFromRemote(newProjectId(), missing).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RemoteFetchError);
    const message = (failure as Error).message;
    expect(message).toMatch(/^Fetching http:\/\/127\.0\.0\.1:\d+\/missing\.git failed: .*404/);
    expect(message).not.toMatch(/s3cret|importer|aW1wb3J0ZXI/);
  });

  it('refuses a loopback remote when local requests are not allowed, contacting nothing', async () => {
    const projectId = newProjectId();
    const requestsBefore = server.requests.length;
    process.env.ALLOW_LOCAL_REQUESTS = 'false';
    try {
      const refused = importFromRemote(projectId, server.url('source.git'));
      await expect(refused).rejects.toBeInstanceOf(RemoteFetchError);
      await expect(refused).rejects.toThrow(
        /^Import URL http:\/\/127\.0\.0\.1:\d+\/source\.git is not allowed: Requests to localhost \(127\.0\.0\.1\) are not allowed$/,
      );
      // Past the early check, the HTTP plugin itself refuses: isomorphic-git cannot reach it either.
      const gitdir = await mkdtemp(join(root, 'guarded-'));
      await git(['init', '--quiet', '--bare', gitdir]);
      const plugin = fetchRemote({ url: server.url('source.git').replace('127.0.0.1', 'localhost'), gitdir });
      await expect(plugin).rejects.toMatchObject({ name: 'RemoteFetchError', refused: true });
      await expect(plugin).rejects.toThrow(/is not allowed: localhost resolves to a blocked address/);
    } finally {
      process.env.ALLOW_LOCAL_REQUESTS = 'true';
    }
    expect(server.requests.length).toBe(requestsBefore);
    expect(await storedKeys(projectId)).toEqual([]);
  });
});
