/** Statistics of one committed state of a stored repository, read from its packs. */
import { countCommitsInPacks, type EarlierCount } from './history.ts';
import type { StoredRefs } from './layout.ts';
import { openPackSet } from './pack-cache.ts';
import { storedRepositorySize } from './storage.ts';

/**
 * commit_count (commits reachable from HEAD) and repository_size (the bytes stored under the
 * project's prefix) of `stored`; undefined when its packs are gone (a later state replaced them,
 * and that state's own statistics follow). With an `earlier` count whose HEAD the state's HEAD
 * descends from, only the commits added since are walked.
 */
export async function stateStatistics(
  projectId: number,
  stored: StoredRefs,
  earlier?: EarlierCount,
): Promise<{ commitCount: number; repositorySize: number } | undefined> {
  const head = stored.head === null ? undefined : stored.refs[stored.head];
  let set: Awaited<ReturnType<typeof openPackSet>>;
  try {
    set = await openPackSet(projectId, stored.packs);
  } catch {
    return undefined;
  }
  try {
    const commitCount = head === undefined ? 0 : await countCommitsInPacks(set.packs, head, earlier);
    return { commitCount, repositorySize: await storedRepositorySize(projectId) };
  } finally {
    set.release();
  }
}
