/**
 * Statistics after an API write of the repository (a branch, a tag, a commit, a merge): the write
 * itself is one conditional move of the repository pointer, so commit_count and repository_size
 * are recorded from the pointer's change on the table's stream. Job states (import, mirror, fork,
 * housekeeping: no pusher) record their own statistics with their outcome. Each record names the
 * state's version and HEAD: an older state's never replaces a newer one's, and a HEAD descending
 * from the one counted last is counted by walking only the commits it adds.
 */
import { headCommit } from '#repository/layout.ts';
import { readRefsDocument } from '#repository/push-events.ts';
import { stateStatistics } from '#repository/statistics.ts';
import { pointerRefsKey } from '#store/projects/repository-pointer.ts';
import { readCountedCommits, recordRepositoryStatistics } from '#store/projects/repository-state.ts';
import type { Raw } from '#store/table/raw.ts';

/** Records the statistics of the state a pointer change committed, when an API write committed it. */
export async function recordWrittenStatistics(
  projectId: number,
  newImage: Raw | undefined,
  oldImage: Raw | undefined,
): Promise<void> {
  const key = pointerRefsKey(newImage);
  if (key === undefined || key === pointerRefsKey(oldImage)) return;
  if (typeof newImage?.pushed_by !== 'number') return;
  const version = typeof newImage.version === 'number' ? newImage.version : 0;
  const counted = await readCountedCommits(projectId);
  // This state's statistics, or a newer state's, are recorded already (a redelivered record).
  if (counted !== undefined && counted.version >= version) return;
  const stored = await readRefsDocument(projectId, key);
  if (stored === undefined) return;
  const statistics = await stateStatistics(projectId, stored, counted);
  if (statistics) {
    await recordRepositoryStatistics(projectId, {
      ...statistics,
      countedAt: { head: headCommit(stored), version },
    });
  }
}
