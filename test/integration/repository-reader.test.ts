/**
 * The repository reader against the runtime's s3rver: packs are downloaded once and reused by the
 * next read (and by a fork naming the same packs), the cache stays within its bound by dropping
 * the oldest packs no read holds, object sizes come from the pack entry (deltas included) and a
 * blob over the limit is refused without being read; a 200-commit history is walked in pages.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BLOB_MAX_BYTES } from '../../shared/domain/repository.ts';
import { importFromRemote } from '../../shared/repository/import.ts';
import { heldPacks, limits } from '../../shared/repository/pack-cache.ts';
import { readBlob, readCommitPage, readFile, withRepository } from '../../shared/repository/reader.ts';
import { copyRepository } from '../../shared/repository/storage.ts';
import { type GitServer, git, makeRepository, revParse, startGitServer } from '../support/git-server.ts';

const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let root: string;
let server: GitServer;
let nextProjectId = 910_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
const newProjectId = () => nextProjectId++;

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'repository-reader-'));
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

/** A repository whose `big.bin` is over the limit and `text.txt` is a delta of a large text (git gc). */
async function bigRepository(name: string): Promise<{ dir: string; head: string }> {
  const dir = join(root, name);
  await git(['init', '--quiet', '--bare', '--initial-branch=main', dir]);
  const data = (content: Buffer | string) =>
    `data ${Buffer.byteLength(content)}\n${Buffer.isBuffer(content) ? content.toString('latin1') : content}\n`;
  const text = Array.from({ length: 20_000 }, (_, index) => `line ${index}\n`).join('');
  const big = randomBytes(BLOB_MAX_BYTES + 1024);
  const stream = [
    'commit refs/heads/main\n',
    'committer A <a@example.com> 1700000000 +0000\n',
    data('one'),
    `M 100644 inline text.txt\n${data(text)}`,
    `M 100644 inline big.bin\n${data(big)}`,
    'commit refs/heads/main\n',
    'committer A <a@example.com> 1700000060 +0000\n',
    data('two'),
    `M 100644 inline text.txt\n${data(`${text}one more\n`)}`,
  ].join('');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet'], {
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    child.stdin.end(Buffer.from(stream, 'latin1'));
  });
  await git(['--git-dir', dir, 'gc', '--quiet', '--aggressive']);
  return { dir, head: await revParse(dir, 'main') };
}

describe('object sizes and the blob limit', () => {
  it('reads sizes of whole and delta objects from the pack, and refuses a blob over the limit unread', async () => {
    const { dir } = await bigRepository('big.git');
    const projectId = newProjectId();
    await importFromRemote(projectId, server.url('big.git'));
    const sizes = (await git(['--git-dir', dir, 'cat-file', '--batch-all-objects', '--batch-check']))
      .split('\n')
      .map((line) => line.split(' ') as [string, string, string]);
    const deltas = (await git(['--git-dir', dir, 'verify-pack', '-v', ...[await packOf(dir)]]))
      .split('\n')
      .filter((line) => /^[0-9a-f]{40} \w+\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(line));
    // The fixture must exercise deltas, or the delta path would go untested.
    expect(deltas.length).toBeGreaterThan(0);
    await withRepository(projectId, async (repository) => {
      for (const [oid, type, size] of sizes) {
        expect(await repository.header(oid)).toEqual({ type, size: Number(size) });
      }
    });
    expect(await readFile(projectId, 'main', 'big.bin')).toEqual({ file: 'too large' });
    const bigId = await revParse(dir, 'main:big.bin');
    expect(await readBlob(projectId, bigId)).toEqual({ blob: 'too large' });
    const text = await readFile(projectId, 'main', 'text.txt');
    expect('found' in text && text.found.content.toString()).toMatch(/one more\n$/);
  });
});

/** The one pack of a gc'ed repository. */
async function packOf(dir: string): Promise<string> {
  const listed = await git(['--git-dir', dir, 'count-objects', '-v']);
  expect(listed).toContain('packs: 1');
  const name = (await readdir(join(dir, 'objects', 'pack'))).find((file) => file.endsWith('.idx'));
  return join(dir, 'objects', 'pack', String(name));
}

describe('the pack cache', () => {
  it('downloads a pack once: a second read and a fork naming it use the held copy; the bound evicts', async () => {
    const source = await makeRepository(join(root, 'history.git'), { commits: 200, tag: 'v1.0' });
    const projectId = newProjectId();
    const result = await importFromRemote(projectId, server.url('history.git'));
    const [pack] = result.stored.packs;

    let started = performance.now();
    const first = await readCommitPage(projectId, {}, { page: 1, perPage: 20 });
    const coldMs = performance.now() - started;
    expect(first.items[0]?.id).toBe(source.head);
    // Past the page the history is not counted: no total, a next page.
    expect(first.total).toBeUndefined();
    expect(heldPacks().packs).toContain(pack);

    started = performance.now();
    const again = await readCommitPage(projectId, {}, { page: 10, perPage: 20 });
    const warmMs = performance.now() - started;
    expect(again.items).toHaveLength(20);
    expect(again.items[19]?.message).toBe('Commit 1\n');
    console.log(
      `200-commit history, page 1 with download: ${coldMs.toFixed(0)} ms; page 10 held: ${warmMs.toFixed(0)} ms`,
    );

    // Hundreds of objects: many share a fan-out bucket of the index, which the lookup must search.
    const listed = (
      await git(['--git-dir', join(root, 'history.git'), 'cat-file', '--batch-all-objects', '--batch-check'])
    )
      .split('\n')
      .map((line) => line.split(' ') as [string, string, string]);
    expect(listed.length).toBeGreaterThan(600);
    await withRepository(projectId, async (repository) => {
      for (const [oid, type, size] of listed)
        expect(await repository.header(oid)).toEqual({ type, size: Number(size) });
    });

    const fork = newProjectId();
    await copyRepository(projectId, fork);
    const before = heldPacks();
    const forked = await readCommitPage(fork, {}, { page: 1, perPage: 1 });
    expect(forked.items[0]?.id).toBe(source.head);
    expect(heldPacks().packs).toEqual(before.packs);

    const saved = { ...limits };
    try {
      limits.bytes = 1;
      const other = newProjectId();
      await makeRepository(join(root, 'other.git'), { commits: 3 });
      const imported = await importFromRemote(other, server.url('other.git'));
      await readCommitPage(other, {}, { page: 1, perPage: 1 });
      // Only the pack just read is left: the older ones went with the sets that linked them.
      expect(heldPacks().packs).toEqual(imported.stored.packs);
      // A read of an evicted pack fetches it again.
      const back = await readCommitPage(projectId, {}, { page: 1, perPage: 1 });
      expect(back.items[0]?.id).toBe(source.head);
    } finally {
      Object.assign(limits, saved);
    }
  });
});
