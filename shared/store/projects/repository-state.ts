/**
 * What the repository jobs record on a project, and the lease that lets one of them at a time
 * write a project's repository.
 *
 * import_status moves scheduled → started → finished, or failed with import_error; a mirror
 * moves through the same states at each update and keeps its update times. These attributes, and
 * the repository's statistics, are recorded on the project's first counter shard, not on the
 * project item (store/table/counters.ts): a job's result does not rewrite the project in every list it is
 * in, and a user's concurrent change of the project neither undoes them nor is undone by them.
 */
import type { ImportStatus, Project } from '#domain/projects.ts';
import { itemCounterChanges, LIVE_SHARD, PARENT_SHARDS, shardKey } from '../table/counters.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import {
  commitUnlessDone,
  LIVE_ITEM,
  put,
  remove,
  type TransactItem,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { getProject } from './project-items.ts';

/** A job found another job writing the project's repository; its message is tried again later. */
export class RepositoryBusy extends Error {
  override readonly name = 'RepositoryBusy';
  constructor(readonly projectId: number) {
    super(`another job is writing the repository of project ${projectId}`);
  }
}

/**
 * Takes the project's repository lease for `holder` (a job's message id: a redelivery of the
 * same message takes it again at once) until `seconds` from now; false while another holds it.
 */
export async function acquireRepositoryLease(
  projectId: number,
  holder: string,
  seconds: number,
): Promise<boolean> {
  const now = Date.now();
  return writeAlone(
    put(
      {
        ...keys.repositoryLease(projectId),
        kind: 'repository_lease',
        holder,
        until: now + seconds * 1000,
        // Removed by TTL if a holder never releases it (the lease has long expired by then).
        expires: Math.ceil(now / 1000) + seconds + 86_400,
      },
      'attribute_not_exists(pk) OR #until < :now OR holder = :holder',
      { ':now': now, ':holder': holder },
      { '#until': 'until' },
    ),
  );
}

export async function releaseRepositoryLease(projectId: number, holder: string): Promise<void> {
  await writeAlone(remove(keys.repositoryLease(projectId), 'holder = :holder', { ':holder': holder }));
}

/**
 * Runs `work` holding the project's repository lease; RepositoryBusy when another job holds it.
 * The lease outlives the job's timeout, so a job killed mid-way blocks others until it expires
 * (or until its message, redelivered, takes it again).
 */
export async function withRepositoryLease<T>(
  projectId: number,
  holder: string,
  seconds: number,
  work: () => Promise<T>,
): Promise<T> {
  if (!(await acquireRepositoryLease(projectId, holder, seconds))) throw new RepositoryBusy(projectId);
  try {
    return await work();
  } finally {
    await releaseRepositoryLease(projectId, holder);
  }
}

/** SET of these fields on one item, with an optional condition. */
const setFields = (
  key: { pk: string; sk: string },
  fields: Record<string, unknown>,
  condition?: string,
  conditionValues: Record<string, unknown> = {},
): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...conditionValues };
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  return update(key, `SET ${sets.join(', ')}`, { condition, names, values });
};

/**
 * Records fields on the project's first counter shard unless the project is marked deleted (its
 * shards say so); false when it is.
 */
const recordState = (projectId: number, fields: Record<string, unknown>): Promise<boolean> =>
  writeAlone(setFields(shardKey(keys.project(projectId).pk, 0), fields, LIVE_SHARD));

/** import_status `scheduled` (a mirror update asked for); false when the project is gone. */
export const scheduleImport = (projectId: number): Promise<boolean> =>
  recordState(projectId, { import_status: 'scheduled' satisfies ImportStatus, import_error: null });

/** The job began: import_status `started`; the project as it is now, or undefined when it is gone. */
export async function markImportStarted(projectId: number): Promise<Project | undefined> {
  const started = await recordState(projectId, {
    import_status: 'started' satisfies ImportStatus,
    last_update_started_at: new Date().toISOString(),
  });
  return started ? getProject(projectId) : undefined;
}

export interface RepositoryStatistics {
  commitCount: number;
  repositorySize: number;
  /**
   * The state counted: its HEAD commit (null without one) and the pointer's version. Statistics
   * with it are recorded only over those of an older state (or of none), so two states recorded
   * out of order leave the newer's; a later count may start from that HEAD.
   */
  countedAt?: { head: string | null; version: number };
}

/** The commit_count recorded last and the HEAD commit and version it was counted at. */
export interface CountedCommits {
  count: number;
  head: string;
  version: number;
}

/** What the project's statistics were counted at; undefined when unknown (never counted, or counted before HEADs were recorded). */
export async function readCountedCommits(projectId: number): Promise<CountedCommits | undefined> {
  const shard = await getItem(shardKey(keys.project(projectId).pk, 0));
  const { commit_count: count, commit_count_head: head, statistics_version: version } = shard ?? {};
  if (typeof count !== 'number' || typeof head !== 'string' || typeof version !== 'number') return undefined;
  return { count, head, version };
}

const statisticsFields = (statistics: RepositoryStatistics): Record<string, unknown> => ({
  commit_count: statistics.commitCount,
  repository_size: statistics.repositorySize,
  ...(statistics.countedAt === undefined
    ? {}
    : { commit_count_head: statistics.countedAt.head, statistics_version: statistics.countedAt.version }),
});

/**
 * Statistics of the stored repository (after housekeeping, an import, a fork, a mirror update or
 * an API write); false when the project is gone or newer statistics are recorded. Recording the
 * same state again writes the same values.
 */
export const recordRepositoryStatistics = (projectId: number, statistics: RepositoryStatistics) =>
  statistics.countedAt === undefined
    ? recordState(projectId, statisticsFields(statistics))
    : writeAlone(
        setFields(
          shardKey(keys.project(projectId).pk, 0),
          statisticsFields(statistics),
          `${LIVE_SHARD} AND (attribute_not_exists(statistics_version) OR statistics_version <= :version)`,
          { ':version': statistics.countedAt.version },
        ),
      );

/**
 * The job ended well: import_status `finished`, statistics, and the default branch the
 * repository's HEAD names, when the project's is still `previousDefaultBranch` (a branch the user
 * chose meanwhile is kept).
 */
export async function recordImportFinished(
  project: Project,
  outcome: RepositoryStatistics & { defaultBranch: string | null },
): Promise<void> {
  // The branch first: a client that sees `finished` sees the branch with it.
  if (outcome.defaultBranch !== null && outcome.defaultBranch !== project.default_branch) {
    await writeAlone(
      setFields(
        keys.project(project.id),
        { default_branch: outcome.defaultBranch },
        `${LIVE_ITEM} AND default_branch = :previous`,
        { ':previous': project.default_branch },
      ),
    );
  }
  // Statistics before `finished`, so a client that sees it sees them; newer ones recorded
  // meanwhile (an API write after the job's state) stay.
  await recordRepositoryStatistics(project.id, outcome);
  const now = new Date().toISOString();
  await recordState(project.id, {
    import_status: 'finished' satisfies ImportStatus,
    import_error: null,
    last_update_at: now,
    last_successful_update_at: now,
  });
}

/** The job failed for good: import_status `failed` with a message that is safe to show. */
export const recordImportFailed = (projectId: number, error: string) =>
  recordState(projectId, {
    import_status: 'failed' satisfies ImportStatus,
    import_error: error.slice(0, 1000),
    last_update_at: new Date().toISOString(),
  });

/** An upload's bytes join the project's storage statistics (a counter: uploads land at once). */
export const addUploadedBytes = (projectId: number, bytes: number) =>
  writeAlone(itemCounterChanges(keys.project(projectId), { uploads_size: bytes }));

/** uploads_size as housekeeping measured it (the uploads under the project's prefix): the shards say so together. */
export const recordUploadsSize = (projectId: number, bytes: number) => {
  const pk = keys.project(projectId).pk;
  return commitUnlessDone(
    Array.from({ length: PARENT_SHARDS }, (_, shard) =>
      setFields(shardKey(pk, shard), { uploads_size: shard === 0 ? bytes : 0 }, LIVE_SHARD),
    ),
  );
};

/** The first branch of an empty repository becomes the project's default branch, as its HEAD does. */
export const adoptDefaultBranch = (projectId: number, branch: string) =>
  writeAlone(
    setFields(
      keys.project(projectId),
      { default_branch: branch },
      `${LIVE_ITEM} AND default_branch <> :branch`,
      {
        ':branch': branch,
      },
    ),
  );
