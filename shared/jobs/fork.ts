/**
 * A fork's repository job: the source's stored repository copied to the fork's prefix (packs a
 * retry finds there are skipped, the refs document last), then the fork's statistics and default
 * branch from what was copied. A source without a repository leaves the fork finished and empty.
 */
import { repositoryStatistics } from '#repository/import.ts';
import { defaultBranchOf } from '#repository/layout.ts';
import { copyRepository } from '#repository/storage.ts';
import { indexProjectForSearch } from '#store/search/search-index.ts';
import { type RepositoryJob, type RepositoryOutcome, runRepositoryJob } from './repository-job.ts';

export interface ForkJob extends RepositoryJob {
  sourceId: number;
}

const EMPTY: RepositoryOutcome = { commitCount: 0, repositorySize: 0, defaultBranch: null };

/**
 * Indexes the new fork for search (the fork's request sends no message of its own: one send per
 * request), then copies the source's repository into the fork's; a redelivered message of a
 * finished fork copies nothing. Both steps are safe to run twice.
 */
export async function copyForkRepository(job: ForkJob): Promise<void> {
  await indexProjectForSearch(job.projectId);
  await runRepositoryJob(
    job,
    async () => {
      const copied = await copyRepository(job.sourceId, job.projectId);
      if (copied === undefined) return EMPTY;
      return { ...(await repositoryStatistics(job.projectId)), defaultBranch: defaultBranchOf(copied) };
    },
    (fork) => fork.import_status === 'finished',
  );
}
