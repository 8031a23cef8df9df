/**
 * Read-ahead: guesses, per warm container, that lets a request read its credential, its main
 * item and the caller's memberships in one batch. A guess only chooses which keys to read; every
 * item is still read fresh in the request, and a wrong or missing guess costs one more read,
 * never a wrong answer (see projectWithAccess).
 */
import type { Key } from '../table/batch.ts';

/** Entries kept per map; the map is emptied when full (a container serves few distinct callers). */
const MAX_ENTRIES = 10_000;

function boundedSet<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_ENTRIES && !map.has(key)) map.clear();
  map.set(key, value);
}

/** Grant key (`pk`) → the user the credential belonged to when last seen. */
const usersByGrant = new Map<string, number>();
/** Project id → the groups whose memberships decide access to it, when last seen. */
const accessGroupsByProject = new Map<number, readonly number[]>();
/** Project id → its namespace's groups, whose items tell the group shares that reach it. */
const shareHoldersByProject = new Map<number, readonly number[]>();

export const readAhead = {
  likelyUser: (grant: Key | undefined) => (grant ? usersByGrant.get(grant.pk) : undefined),
  rememberUser: (grant: Key, userId: number) => boundedSet(usersByGrant, grant.pk, userId),
  likelyAccessGroups: (projectId: number) => accessGroupsByProject.get(projectId),
  rememberAccessGroups: (projectId: number, groupIds: readonly number[]) =>
    boundedSet(accessGroupsByProject, projectId, groupIds),
  likelyShareHolders: (projectId: number) => shareHoldersByProject.get(projectId),
  rememberShareHolders: (projectId: number, groupIds: readonly number[]) =>
    boundedSet(shareHoldersByProject, projectId, groupIds),
};
