/**
 * Statistics after an API write of the repository (a branch, a tag, a commit, a merge): the write
 * itself is one conditional move of the repository pointer, so commit_count and repository_size
 * are recorded from the pointer's change on the table's stream. Job states (import, mirror, fork,
 * housekeeping: no pusher) record their own statistics with their outcome.
 */
import { readRefsDocument } from '#repository/push-events.ts';
import { stateStatistics } from '#repository/statistics.ts';
import { pointerRefsKey } from '#store/projects/repository-pointer.ts';
import { recordRepositoryStatistics } from '#store/projects/repository-state.ts';
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
  const stored = await readRefsDocument(projectId, key);
  if (stored === undefined) return;
  const statistics = await stateStatistics(projectId, stored);
  if (statistics) await recordRepositoryStatistics(projectId, statistics);
}
