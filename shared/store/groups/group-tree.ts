/**
 * The group tree: a user's group memberships as places in the tree, and whole subtrees read from
 * the tree index (one Query per outermost group).
 */

import { isMembershipActive } from '#domain/members.ts';
import { lists } from '../table/list-keys.ts';
import { readSubtreeUpTo, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { tree } from '../table/tree-keys.ts';

/** A group's place in the tree: its id and its ancestors' ids, root first. */
export interface TreePlace {
  id: number;
  ancestor_ids: readonly number[];
}

/** A user's direct membership of a group, with the group's ancestors (root first). */
export interface GroupMembership {
  groupId: number;
  accessLevel: number;
  ancestorIds: number[];
}

/** The active memberships among a user's group membership items. */
export const activeGroupMemberships = (items: Raw[]): GroupMembership[] =>
  items
    .filter((item) => isMembershipActive(item.expires_at))
    .map((item) => ({
      groupId: Number(item.group_id),
      accessLevel: Number(item.access_level),
      ancestorIds: ((item.group_ancestor_ids as number[] | undefined) ?? []).map(Number),
    }));

/** The groups a user is a direct member of, with the level and the groups' ancestors. */
export async function membershipsOfUser(userId: number): Promise<GroupMembership[]> {
  const { items } = await readWholeList(lists.groupMembershipsOfUser(userId));
  return activeGroupMemberships(items);
}

/** A membership's group as a place in the tree. */
export const placeOf = (membership: GroupMembership): TreePlace => ({
  id: membership.groupId,
  ancestor_ids: membership.ancestorIds,
});

/** The places among `places` not inside another one's subtree (reading those covers the rest). */
function outermost<T extends TreePlace>(places: T[]): T[] {
  const ids = new Set(places.map((place) => place.id));
  const seen = new Set<number>();
  return places.filter((place) => {
    if (place.ancestor_ids.some((ancestor) => ids.has(ancestor)) || seen.has(place.id)) return false;
    seen.add(place.id);
    return true;
  });
}

/** Raw items of the given groups' subtrees in one tree partition (groups or projects), one Query each. */
export async function readSubtrees(
  places: TreePlace[],
  partition: (rootId: number) => string,
): Promise<Raw[]> {
  return (await readSubtreesUpTo(places, partition, Number.POSITIVE_INFINITY)).items;
}

/** The given groups' subtrees in one tree partition when they hold at most `limit` items each. */
export async function readSubtreesUpTo(
  places: TreePlace[],
  partition: (rootId: number) => string,
  limit: number,
): Promise<{ items: Raw[]; complete: boolean }> {
  const parts = await Promise.all(
    outermost(places).map((place) => {
      const traversal = [...place.ancestor_ids, place.id];
      return readSubtreeUpTo(partition(traversal[0] as number), tree.path(traversal), limit);
    }),
  );
  return { items: parts.flatMap((part) => part.items), complete: parts.every((part) => part.complete) };
}

/** Every descendant of the given groups (raw items, the groups themselves left out). */
export async function descendantsOf(places: TreePlace[]): Promise<Raw[]> {
  const own = new Set(places.map((place) => place.id));
  return (await readSubtrees(places, tree.groups)).filter((item) => !own.has(Number(item.id)));
}

/** The group ids of a tree path, root first (`…01/…05/S…09` → [1, 5]). */
export const groupIdsOfPath = (path: unknown) => String(path).split('/').slice(0, -1).map(Number);
