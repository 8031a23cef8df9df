/**
 * The container's copy of the packs that reads need, under the scratch area. Packs are named by
 * their checksum and never change, so one downloaded for a request serves every later request
 * (and every project whose refs document names it: a fork names its source's packs). A state of a
 * repository is read through a "set": a directory whose objects/pack holds hard links to exactly
 * the packs its refs document names, with isomorphic-git's cache of their parsed indexes kept
 * beside it for the next request naming the same packs.
 *
 * Bounded: the packs held add up to at most `limits.bytes` (the oldest used that no request is
 * reading go first, with every set that links them), and at most `limits.sets` sets are kept.
 * A pack larger than the bound is still fetched for the request that needs it.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { getBlobFile } from '#blob/s3.ts';
import { type PackFile, packKey, packPath } from './layout.ts';

/** What the cache may hold; tests lower them. Lambda's /tmp is 512 MB unless configured larger. */
export const limits = { bytes: 256 * 1024 * 1024, sets: 4 };

// Per process: the local runtime and test workers share one /tmp.
const root = join(tmpdir(), `repository-packs-${process.pid}`);
const storeDirectory = join(root, 'store');

interface HeldPack {
  bytes: number;
  lastUsed: number;
}

interface PackSetState {
  gitdir: string;
  packs: readonly string[];
  /** isomorphic-git's cache: parsed pack indexes (and packs once read), reused across requests. */
  cache: object;
  readers: number;
  lastUsed: number;
}

const held = new Map<string, HeldPack>();
const fetching = new Map<string, Promise<void>>();
const sets = new Map<string, PackSetState>();
let clock = 0;

/** A state of a repository as a directory isomorphic-git reads; release it once read. */
export interface PackSet {
  gitdir: string;
  cache: object;
  /** The pack files, for reads that look at object headers themselves. */
  packs: readonly { idx: string; pack: string }[];
  release(): void;
}

const storePath = (pack: string, file: PackFile) => join(storeDirectory, `${pack}.${file}`);

/** The packs of `projectId` named `packs`, fetched unless held, linked into one directory. */
export async function openPackSet(projectId: number, packs: readonly string[]): Promise<PackSet> {
  const key = createHash('sha1')
    .update([...packs].sort().join(','))
    .digest('hex');
  let state = sets.get(key);
  if (state === undefined) {
    const gitdir = join(root, 'sets', key);
    state = { gitdir, packs: [...packs], cache: {}, readers: 0, lastUsed: 0 };
    sets.set(key, state);
  }
  state.readers += 1;
  state.lastUsed = ++clock;
  const opened = state;
  try {
    await Promise.all(packs.map((pack) => holdPack(projectId, pack)));
    await linkSet(opened);
  } catch (error) {
    opened.readers -= 1;
    throw error;
  }
  await evict();
  let released = false;
  return {
    gitdir: opened.gitdir,
    cache: opened.cache,
    packs: packs.map((pack) => ({
      idx: join(opened.gitdir, packPath(pack, 'idx')),
      pack: join(opened.gitdir, packPath(pack, 'pack')),
    })),
    release: () => {
      if (released) return;
      released = true;
      opened.readers -= 1;
    },
  };
}

/** Makes the pack (and its index) held; concurrent requests for one pack share one download. */
async function holdPack(projectId: number, pack: string): Promise<void> {
  const known = held.get(pack);
  if (known) {
    known.lastUsed = ++clock;
    return;
  }
  let running = fetching.get(pack);
  if (!running) {
    running = fetchPack(projectId, pack).finally(() => fetching.delete(pack));
    fetching.set(pack, running);
  }
  await running;
}

/**
 * Downloads into a directory of its own, indexes the pack if the bucket holds no index, then
 * renames both into the store: a half-downloaded pack is never seen under its name.
 */
async function fetchPack(projectId: number, pack: string): Promise<void> {
  const incoming = join(root, 'incoming', randomBytes(8).toString('hex'));
  await mkdir(join(incoming, 'objects', 'pack'), { recursive: true });
  await mkdir(storeDirectory, { recursive: true });
  try {
    const packFile = join(incoming, packPath(pack, 'pack'));
    if (!(await getBlobFile(packKey(projectId, pack, 'pack'), packFile))) {
      throw new Error(`Repository of project ${projectId} names ${pack}, which is not stored`);
    }
    const idxFile = join(incoming, packPath(pack, 'idx'));
    if (!(await getBlobFile(packKey(projectId, pack, 'idx'), idxFile))) {
      await git.indexPack({ fs, dir: incoming, gitdir: incoming, filepath: packPath(pack, 'pack') });
    }
    await rename(idxFile, storePath(pack, 'idx'));
    await rename(packFile, storePath(pack, 'pack'));
    const bytes = (await stat(storePath(pack, 'pack'))).size + (await stat(storePath(pack, 'idx'))).size;
    held.set(pack, { bytes, lastUsed: ++clock });
  } finally {
    await rm(incoming, { recursive: true, force: true });
  }
}

/** Links every pack of the set into its directory (once: links already there stay). */
async function linkSet(state: PackSetState): Promise<void> {
  await mkdir(join(state.gitdir, 'objects', 'pack'), { recursive: true });
  for (const pack of state.packs) {
    for (const file of ['pack', 'idx'] as const) {
      try {
        await link(storePath(pack, file), join(state.gitdir, packPath(pack, file)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}

/**
 * Drops what is over the bounds, oldest used first, never what a request is reading. A set's
 * links keep its packs' bytes on disk, so a pack leaves only with every set that links it.
 */
async function evict(): Promise<void> {
  const reading = new Set([...sets.values()].filter((set) => set.readers > 0).flatMap((set) => set.packs));
  const idleSets = () =>
    [...sets.entries()].filter(([, set]) => set.readers === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  const dropSet = async (key: string, set: PackSetState) => {
    sets.delete(key);
    await rm(set.gitdir, { recursive: true, force: true });
  };
  for (const [key, set] of idleSets()) {
    if (sets.size <= limits.sets) break;
    await dropSet(key, set);
  }
  let total = [...held.values()].reduce((sum, pack) => sum + pack.bytes, 0);
  const candidates = [...held.entries()]
    .filter(([pack]) => !reading.has(pack))
    .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [pack, { bytes }] of candidates) {
    if (total <= limits.bytes) break;
    for (const [key, set] of idleSets()) if (set.packs.includes(pack)) await dropSet(key, set);
    held.delete(pack);
    await rm(storePath(pack, 'pack'), { force: true });
    await rm(storePath(pack, 'idx'), { force: true });
    total -= bytes;
  }
}

/** What the cache holds now (tests, and the bound's own check). */
export function heldPacks(): { packs: string[]; bytes: number; sets: number } {
  return {
    packs: [...held.keys()].sort(),
    bytes: [...held.values()].reduce((sum, pack) => sum + pack.bytes, 0),
    sets: sets.size,
  };
}
