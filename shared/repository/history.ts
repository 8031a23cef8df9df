/** Counting history in a repository directory or a set of packs (commit_count). */
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import { type CommitNode, countAdded, countReachable, type ReadCommit } from '#domain/commit-counts.ts';
import { openCommitReader, type PackFilePaths, packFilesOf } from './pack-commits.ts';

/** A count made before: `count` commits reachable from `head`. */
export interface EarlierCount {
  head: string;
  count: number;
}

/**
 * Runs `walk` with commits read from the packs (a commit no pack holds, a loose one, is read by
 * isomorphic-git from `gitdir` with `cache`).
 */
async function withCommits<T>(
  files: readonly PackFilePaths[],
  fallback: { gitdir: string; cache: object } | undefined,
  walk: (read: ReadCommit) => Promise<T>,
): Promise<T> {
  const reader = await openCommitReader(files);
  const read: ReadCommit = async (oid) => {
    try {
      return await reader.read(oid);
    } catch (error) {
      if (fallback === undefined) throw error;
      const { commit } = await git.readCommit({ fs, gitdir: fallback.gitdir, oid, cache: fallback.cache });
      return { parents: commit.parent, time: commit.committer.timestamp } satisfies CommitNode;
    }
  };
  try {
    return await walk(read);
  } finally {
    await reader.close();
  }
}

/**
 * commit_count of `head`: what `earlier` counted plus the commits `head` adds to its HEAD when
 * `head` descends from it (a walk of those commits only), else a full count.
 */
async function countFrom(read: ReadCommit, head: string, earlier: EarlierCount | undefined): Promise<number> {
  if (earlier !== undefined) {
    // A HEAD counted before that is no longer stored (history rewritten, then repacked) counts in full.
    const added = await countAdded(read, head, earlier.head).catch(() => undefined);
    if (added !== undefined) return earlier.count + added;
  }
  return countReachable(read, head);
}

/**
 * commit_count as GitLab reports it: `git rev-list --count <start>`, every commit reachable from
 * the commit through all parents (merges included), each once (bounded: COMMIT_COUNT_MAX), or
 * `earlier`'s count and what `start` adds to its HEAD. Pass the same `cache` as the fetch or
 * materialization before it for objects outside packs.
 */
export async function countCommitsFrom(
  gitdir: string,
  start: string,
  cache: object = {},
  earlier?: EarlierCount,
): Promise<number> {
  return withCommits(await packFilesOf(gitdir), { gitdir, cache }, (read) => countFrom(read, start, earlier));
}

/** countCommitsFrom over a set of packs only (a committed state's). */
export function countCommitsInPacks(
  files: readonly PackFilePaths[],
  start: string,
  earlier?: EarlierCount,
): Promise<number> {
  return withCommits(files, undefined, (read) => countFrom(read, start, earlier));
}
