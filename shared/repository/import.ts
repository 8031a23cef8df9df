/**
 * Import and pull mirroring: one operation, "make the project's repository what the remote has".
 * The stored state is rebuilt in scratch space first, so the fetch only asks for what is new and
 * adds one pack; the new packs are uploaded, then the refs document commits the new state.
 * Repeating it after a failure at any point is safe: the committed state is always whole.
 */
import type { AddressPolicy } from '#egress/address-guard.ts';
import { countCommitsFrom, type EarlierCount } from './history.ts';
import { defaultBranchOf, headCommit, mergeRequestRefsOf, type StoredRefs } from './layout.ts';
import type { FetchLimits } from './pack-scan.ts';
import { checkRemoteUrl, fetchRemote } from './remote.ts';
import { withScratchDirectory } from './scratch.ts';
import {
  materializeCommittedState,
  RepositoryChanged,
  storedRepositorySize,
  storeRepository,
} from './storage.ts';

// A branch or tag written through the API meanwhile moves the commit point: the fetch is redone
// on the new state a few times before the job's message is left to be tried again.
const importTries = 5;

export interface ImportResult {
  stored: StoredRefs;
  /** The remote's HEAD as a branch name (`main`); null for an empty remote. */
  defaultBranch: string | null;
  /** commit_count: commits reachable from the default branch (0 without one). */
  commitCount: number;
  /** repository_size: bytes under the project's prefix after the import. */
  repositorySize: number;
  /** The state counted: its HEAD commit and version. */
  countedAt: { head: string | null; version: number };
  /** Packs this run uploaded (none when the remote had nothing new). */
  uploaded: string[];
}

export interface ImportOptions {
  policy?: AddressPolicy;
  /** What the remote may send (default: the fetch limits of pack-scan.ts). */
  limits?: FetchLimits;
  /** The last count recorded: a new HEAD descending from its HEAD is counted from it. */
  earlier?: EarlierCount;
}

/** Imports `url` into the project's repository, or brings an imported one (a mirror) up to date. */
export async function importFromRemote(
  projectId: number,
  url: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  // Refused before any work: a blocked remote costs no download of the stored packs.
  await checkRemoteUrl(url, options.policy);
  for (let attempt = 1; ; attempt++) {
    try {
      return await importOnce(projectId, url, options);
    } catch (error) {
      if (!(error instanceof RepositoryChanged) || attempt >= importTries) throw error;
    }
  }
}

async function importOnce(projectId: number, url: string, options: ImportOptions): Promise<ImportResult> {
  return withScratchDirectory(async (gitdir) => {
    const cache = {};
    const previous = await materializeCommittedState(projectId, gitdir, cache);
    const fetched = await fetchRemote({ url, gitdir, cache, ...options });
    // Merge request refs are kept here, not fetched: an update keeps them (their objects are in
    // the stored packs the directory holds), and the remote's never replace them.
    const next: StoredRefs = {
      ...fetched,
      refs: { ...fetched.refs, ...mergeRequestRefsOf(previous.stored) },
    };
    const { uploaded } = await storeRepository(projectId, gitdir, next, previous);
    const head = headCommit(next);
    return {
      stored: next,
      defaultBranch: defaultBranchOf(next),
      commitCount: head === null ? 0 : await countCommitsFrom(gitdir, head, cache, options.earlier),
      repositorySize: await storedRepositorySize(projectId),
      // storeRepository moved the pointer from the version read to the next.
      countedAt: { head, version: previous.version + 1 },
      uploaded,
    };
  });
}

/** Statistics of a stored repository (housekeeping, a fork): commit_count of HEAD and repository_size. */
export async function repositoryStatistics(projectId: number): Promise<{
  commitCount: number;
  repositorySize: number;
  countedAt: { head: string | null; version: number };
}> {
  return withScratchDirectory(async (gitdir) => {
    const cache = {};
    const { stored, version } = await materializeCommittedState(projectId, gitdir, cache);
    const head = stored === undefined ? null : headCommit(stored);
    const commitCount = head === null ? 0 : await countCommitsFrom(gitdir, head, cache);
    return {
      commitCount,
      repositorySize: await storedRepositorySize(projectId),
      countedAt: { head, version },
    };
  });
}
