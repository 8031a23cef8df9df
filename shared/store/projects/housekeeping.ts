/**
 * Housekeeping's own state: the 24-hour lease a request takes (GitLab's ExclusiveLease). The
 * uploads it measures are read from the bucket by the job (#jobs/housekeeping.ts) and recorded
 * with `recordUploadsSize` (./repository-state.ts).
 */
import { conflict } from '#domain/errors.ts';
import { keys } from '../table/keys.ts';
import { put, remove, writeAlone } from '../table/transaction.ts';

/** GitLab's lease: one housekeeping per project per 24 hours. */
export const HOUSEKEEPING_LEASE_SECONDS = 24 * 60 * 60;

const leaseTaken = () =>
  conflict(
    `Somebody already triggered housekeeping for this project in the past ${HOUSEKEEPING_LEASE_SECONDS / 60} minutes`,
  );

/**
 * Takes the project's housekeeping lease in one conditional write: 409 while an earlier one has not
 * expired. Answers the lease's end, which names it for `releaseHousekeepingLease`.
 */
export async function takeHousekeepingLease(projectId: number): Promise<number> {
  const now = Date.now();
  const until = now + HOUSEKEEPING_LEASE_SECONDS * 1000;
  const taken = await writeAlone(
    put(
      {
        ...keys.housekeepingLease(projectId),
        kind: 'housekeeping_lease',
        until,
        // TTL removes the item some time after it has expired; until then `until` decides.
        expires: Math.ceil(until / 1000),
      },
      'attribute_not_exists(pk) OR #until < :now',
      { ':now': now },
      { '#until': 'until' },
    ),
  );
  if (!taken) throw leaseTaken();
  return until;
}

/** Gives back a lease whose job could not be queued, unless a later request holds it by now. */
export async function releaseHousekeepingLease(projectId: number, until: number): Promise<void> {
  await writeAlone(
    remove(keys.housekeepingLease(projectId), '#until = :until', { ':until': until }, { '#until': 'until' }),
  );
}
