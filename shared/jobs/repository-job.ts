/**
 * The frame of the jobs that write a project's repository and show their progress in its
 * import_status (import, mirror update, fork): one job at a time per project (the repository
 * lease), `started` while it runs, then `finished` with statistics, or `failed` with an error that
 * is safe to show; the first repository a project gets has its default branch protected. A
 * remote that refuses or fails is final at once; any other failure is retried
 * by the queue and, on the message's last receive, recorded as failed before it goes to the DLQ,
 * so a project never stays `started`.
 */
import type { SQSRecord } from 'aws-lambda';
import type { Project } from '#domain/projects.ts';
import { RemoteFetchError } from '#repository/remote.ts';
import { getProject } from '#store/projects/project-items.ts';
import { protectDefaultBranch } from '#store/projects/protected-branches.ts';
import {
  markImportStarted,
  type RepositoryStatistics,
  recordImportFailed,
  recordImportFinished,
  withRepositoryLease,
} from '#store/projects/repository-state.ts';

export interface RepositoryJob {
  projectId: number;
  /** The message being handled: its id holds the lease, its receive count tells the last attempt. */
  record: SQSRecord;
  /** The queue's maxReceiveCount (functions/workers.ts). */
  maxReceiveCount: number;
  /** Seconds the lease is held for: more than the worker's timeout. */
  leaseSeconds: number;
}

export type RepositoryOutcome = RepositoryStatistics & { defaultBranch: string | null };

/** Whether this delivery of the message is the queue's last before the DLQ. */
export const isLastAttempt = (record: SQSRecord, maxReceiveCount: number) =>
  Number(record.attributes?.ApproximateReceiveCount ?? 1) >= maxReceiveCount;

/** What a failure shows as import_error: the remote's own words, or a plain sentence. */
const shownError = (error: unknown) =>
  error instanceof RemoteFetchError ? error.message : 'The repository could not be written; please retry.';

/**
 * Runs `work` for the project under the lease with import_status following it. `work` is not
 * run when the project is gone (deleted meanwhile) or `skip` says the job was done already (a
 * redelivered message).
 */
export async function runRepositoryJob(
  job: RepositoryJob,
  work: (project: Project) => Promise<RepositoryOutcome>,
  skip: (project: Project) => boolean = () => false,
): Promise<void> {
  await withRepositoryLease(job.projectId, job.record.messageId, job.leaseSeconds, async () => {
    const current = await getProject(job.projectId);
    if (!current || skip(current)) return;
    const project = await markImportStarted(job.projectId);
    if (!project) return;
    try {
      const outcome = await work(project);
      // The first repository a project gets (import or fork; not a mirror's later update) brings
      // its default branch into being: protected as a first push's is, before `finished` shows.
      if (outcome.defaultBranch !== null && !project.last_successful_update_at)
        await protectDefaultBranch(project.id, outcome.defaultBranch);
      await recordImportFinished(project, outcome);
    } catch (error) {
      if (error instanceof RemoteFetchError || isLastAttempt(job.record, job.maxReceiveCount)) {
        await recordImportFailed(job.projectId, shownError(error));
      }
      // A remote's refusal is final: the message is done. Anything else is tried again.
      if (!(error instanceof RemoteFetchError)) throw error;
    }
  });
}
