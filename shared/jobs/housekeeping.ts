/**
 * Housekeeping: a request takes the project's 24-hour lease and queues the job; the job repacks the
 * stored repository into one pack (shared/repository/repack.ts) and records the project's
 * statistics again: commit_count and repository_size from the repository, uploads_size from the
 * uploads stored under the project's prefix.
 */
import { randomUUID } from 'node:crypto';
import { listBlobs } from '#blob/s3.ts';
import { uploadPrefix } from '#domain/uploads.ts';
import { publish } from '#queue/publish.ts';
import { repackRepository } from '#repository/repack.ts';
import { releaseHousekeepingLease, takeHousekeepingLease } from '#store/projects/housekeeping.ts';
import { getProject } from '#store/projects/project-items.ts';
import {
  recordRepositoryStatistics,
  recordUploadsSize,
  withRepositoryLease,
} from '#store/projects/repository-state.ts';

/**
 * Takes the lease (409 while an earlier request's holds) and queues the job. Answers the job's id,
 * which GitLab returns as the body (Sidekiq's job id). A job that could not be queued gives the
 * lease back, so the next request is not refused for a day for nothing.
 */
export async function requestHousekeeping(projectId: number): Promise<string> {
  const until = await takeHousekeepingLease(projectId);
  try {
    await publish('housekeeping', { projectId });
  } catch (error) {
    await releaseHousekeepingLease(projectId, until);
    throw error;
  }
  return randomUUID();
}

export interface HousekeepingJob {
  projectId: number;
  /** The message's id: it holds the repository lease, so a redelivery takes it again at once. */
  holder: string;
  /** Seconds the repository lease is held for: more than the worker's timeout. */
  leaseSeconds: number;
}

/**
 * Repacks the repository under the repository lease (no import, mirror update or fork writes it
 * meanwhile) and records the statistics. A project gone meanwhile is left to its removal.
 * Redelivered, it does again what is left: a repository already in one pack is not rewritten.
 */
export async function runHousekeeping(job: HousekeepingJob): Promise<void> {
  await withRepositoryLease(job.projectId, job.holder, job.leaseSeconds, async () => {
    if (!(await getProject(job.projectId))) return;
    const repacked = await repackRepository(job.projectId);
    if (repacked) await recordRepositoryStatistics(job.projectId, repacked);
    await measureUploadsSize(job.projectId);
  });
}

/** uploads_size measured again: the bytes stored under the project's uploads prefix (the store reads no bucket). */
async function measureUploadsSize(projectId: number): Promise<void> {
  const uploads = await listBlobs(uploadPrefix(projectId));
  const bytes = uploads.reduce((total, { size }) => total + size, 0);
  await recordUploadsSize(projectId, bytes);
}
