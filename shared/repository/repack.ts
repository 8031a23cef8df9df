/**
 * Housekeeping of a stored repository: every object its refs reach written again as one pack,
 * which becomes the only pack its refs document names; then packs nothing names any more (left by
 * earlier runs, or by jobs killed before their commit point) are removed.
 *
 * Every step leaves a readable repository: the new pack is uploaded before the document names it,
 * the document is one PUT, and only packs the committed document does not name are deleted. Run
 * again after a failure, it finishes what is left (packing the same objects gives the same pack).
 * Callers hold the project's repository lease, so no job uploads packs meanwhile; an API write
 * announces its packs as pending on the pointer before uploading them, and those are kept. A
 * write committed meanwhile makes the commit fail: the repack is redone on the new state.
 */
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import { deleteBlob, listBlobs } from '#blob/s3.ts';
import { countCommitsFrom } from './history.ts';
import { headCommit, type PackFile, packKey, packPath, repositoryPrefix, type StoredRefs } from './layout.ts';
import { withScratchDirectory } from './scratch.ts';
import {
  type CommittedState,
  commitStoredRefs,
  materializeCommittedState,
  RepositoryChanged,
  readCommittedState,
  storedRepositorySize,
  uploadPacks,
} from './storage.ts';

const repackTries = 5;

export interface RepackResult {
  stored: StoredRefs;
  /** Whether the packs were written again as one (false: the repository had one pack at most). */
  repacked: boolean;
  /** Keys of the pack files removed because the committed document does not name them. */
  removed: string[];
  /** commit_count: commits reachable from HEAD (0 without a branch). */
  commitCount: number;
  /** repository_size: the bytes under the project's prefix once unnamed packs are gone. */
  repositorySize: number;
  /** The state counted: its HEAD commit and version. */
  countedAt: { head: string | null; version: number };
}

/** Repacks the project's repository; undefined (and nothing changed) when it has none. */
export async function repackRepository(projectId: number): Promise<RepackResult | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await repackOnce(projectId);
    } catch (error) {
      if (!(error instanceof RepositoryChanged) || attempt >= repackTries) throw error;
    }
  }
}

async function repackOnce(projectId: number): Promise<RepackResult | undefined> {
  return withScratchDirectory(async (gitdir) => {
    const cache = {};
    const committed = await materializeCommittedState(projectId, gitdir, cache);
    const previous = committed.stored;
    if (previous === undefined) return undefined;
    // One pack (or none) is what a repack would make: only the unnamed packs are left to remove.
    const stored =
      previous.packs.length > 1 ? await packReachable(projectId, gitdir, committed, cache) : previous;
    const removed = await removeUnnamedPacks(projectId);
    const repacked = stored !== previous;
    const head = headCommit(stored);
    return {
      stored,
      repacked,
      removed,
      commitCount: head === null ? 0 : await countCommitsFrom(gitdir, head, cache),
      repositorySize: await storedRepositorySize(projectId),
      // A repack commits the next version; without one the state read is the one counted.
      countedAt: { head, version: repacked ? committed.version + 1 : committed.version },
    };
  });
}

/** Writes one pack of what the refs reach, uploads it, and commits a document naming only it. */
async function packReachable(
  projectId: number,
  gitdir: string,
  committed: CommittedState,
  cache: object,
): Promise<StoredRefs> {
  const previous = committed.stored as StoredRefs;
  const oids = await reachableObjects(gitdir, Object.values(previous.refs), cache);
  let packs: string[] = [];
  if (oids.length > 0) {
    const { filename } = await git.packObjects({ fs, gitdir, oids, write: true, cache });
    const pack = filename.replace(/\.pack$/, '');
    await git.indexPack({ fs, dir: gitdir, gitdir, filepath: packPath(pack, 'pack'), cache });
    await uploadPacks(projectId, gitdir, [pack]);
    packs = [pack];
  }
  const next: StoredRefs = { ...previous, packs };
  await commitStoredRefs(projectId, next, committed.version);
  return next;
}

/**
 * Every object reachable from `tips`, each once, in an order fixed by the tips (so the same refs
 * give the same pack): commits with their trees and parents, trees with their entries, annotated
 * tags with what they tag. Blobs are listed without being read; a tree's `commit` entries are
 * submodules, whose commits live in another repository.
 */
export async function reachableObjects(
  gitdir: string,
  tips: readonly string[],
  cache: object = {},
): Promise<string[]> {
  const seen = new Set<string>();
  const order: string[] = [];
  const pending = [...new Set(tips)].sort().reverse();
  const include = (oid: string) => {
    if (seen.has(oid)) return false;
    seen.add(oid);
    order.push(oid);
    return true;
  };
  while (pending.length > 0) {
    const oid = pending.pop() as string;
    if (!include(oid)) continue;
    const read = await git.readObject({ fs, gitdir, oid, format: 'parsed', cache });
    if (read.format !== 'parsed') throw new Error(`object ${oid} could not be parsed`);
    if (read.type === 'commit') {
      pending.push(...[...read.object.parent].reverse(), read.object.tree);
    } else if (read.type === 'tag') {
      pending.push(read.object.object);
    } else if (read.type === 'tree') {
      const subtrees: string[] = [];
      for (const entry of read.object) {
        if (entry.type === 'blob') include(entry.oid);
        else if (entry.type === 'tree') subtrees.push(entry.oid);
      }
      pending.push(...subtrees.reverse());
    }
  }
  return order;
}

/**
 * Deletes the pack files under the prefix that neither the committed state nor the pending set
 * names; answers their keys. The listing comes first: a pack listed was announced before its
 * upload, so the pointer read after it still names it (pending, or committed).
 */
async function removeUnnamedPacks(projectId: number): Promise<string[]> {
  const packDirectory = `${repositoryPrefix(projectId)}objects/pack/`;
  const listed = (await listBlobs(packDirectory)).map(({ key }) => key);
  // One read of the pointer: a pack leaves the pending set in the update that commits it.
  const committed = await readCommittedState(projectId);
  const kept = [...(committed.stored?.packs ?? []), ...committed.pendingPacks];
  const named = new Set(
    kept.flatMap((pack) => (['pack', 'idx'] as PackFile[]).map((file) => packKey(projectId, pack, file))),
  );
  const unnamed = listed.filter((key) => !named.has(key));
  for (const key of unnamed) await deleteBlob(key);
  return unnamed;
}
