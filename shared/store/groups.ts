/**
 * Groups and group members. A group item joins the list of its visibility (`l1`) and the list of
 * its parent's children (`l2`); its full path is a route item written in the same transaction, so
 * path uniqueness is the database's job. Member items live in the group's partition and join the
 * group's member list and the user's membership list.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ACCESS, type Visibility } from '#domain/access.ts';
import { ApiError, badRequest, conflict, notFound, validationFailed } from '#domain/errors.ts';
import { canReadGroup } from '#domain/group-policy.ts';
import { DEFAULT_CREATION_LEVELS, type Group, rubyErrorHash } from '#domain/groups.ts';
import { isMembershipActive } from '#domain/members.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { Caller } from '#domain/users.ts';
import { batchGetItems } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { nextId } from './ids.ts';
import { getItem, namesSameNamespaces, resolveReference } from './items.ts';
import { keys, lists, sortAttributes, stripStorage, tree } from './keys.ts';
import {
  type ListPage,
  listCountChange,
  listMerged,
  mergeSorted,
  readSubtreeUpTo,
  readWholeList,
} from './lists.ts';
import { deleteMember, insertMember, replaceMember } from './memberships.ts';
import { type ListOrder, treeIndex } from './table.ts';
import { ConditionFailed, type TransactItem, transact } from './transact.ts';

export interface GroupMember {
  group_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_at: string;
  created_by_id: number | null;
}

type Raw = Record<string, unknown>;

export function decodeGroup(item: Raw): Group {
  const {
    kind: _kind,
    deleting: _deleting,
    ...group
  } = stripStorage<Group & { kind: string; deleting?: boolean }>(item);
  // Groups stored before the creation levels existed have GitLab's defaults.
  return { ...DEFAULT_CREATION_LEVELS, ...group, custom_attributes: group.custom_attributes ?? {} };
}

const decodeMember = (item: Raw): GroupMember => ({
  group_id: Number(item.group_id),
  user_id: Number(item.user_id),
  access_level: Number(item.access_level),
  expires_at: (item.expires_at as string | null) ?? null,
  created_at: String(item.created_at),
  created_by_id: (item.created_by_id as number | null) ?? null,
});

function groupItem(group: Group): Raw {
  return {
    ...keys.group(group.id),
    ...group,
    kind: 'group',
    l1: lists.groupsWithVisibility(group.visibility),
    l2: lists.groupChildren(group.parent_id),
    ...sortAttributes({ id: group.id, name: group.name, path: group.path, created_at: group.created_at }),
    ...tree.group([...group.ancestor_ids, group.id]),
  };
}

function memberItem(member: GroupMember, ancestorIds: number[]) {
  return {
    ...keys.groupMember(member.group_id, member.user_id),
    ...member,
    kind: 'group_member',
    group_ancestor_ids: ancestorIds,
    l1: lists.groupMembers(member.group_id),
    l2: lists.groupMembershipsOfUser(member.user_id),
    ...sortAttributes({ id: member.user_id, created_at: member.created_at }),
  };
}

const routeItem = (group: Group): Raw => ({
  ...keys.route(group.full_path),
  kind: 'group',
  id: group.id,
  full_path: group.full_path,
});

const put = (Item: Raw, ConditionExpression?: string): TransactItem => ({
  Put: { TableName: tableName(), Item, ...(ConditionExpression ? { ConditionExpression } : {}) },
});
const remove = (
  Key: { pk: string; sk: string },
  ConditionExpression: string,
  ExpressionAttributeValues: Record<string, unknown>,
): TransactItem => ({
  Delete: { TableName: tableName(), Key, ConditionExpression, ExpressionAttributeValues },
});
const NEW_ITEM = 'attribute_not_exists(pk)';
const pathTaken = () =>
  badRequest(`Failed to save group ${rubyErrorHash({ path: ['has already been taken'] })}`);

export type NewGroup = Omit<
  Group,
  'id' | 'created_at' | 'updated_at' | 'full_path' | 'full_name' | 'ancestor_ids'
>;

/** The parent changed its path or name after it was read: the subgroup is placed again. */
class ParentMoved extends Error {}

/** Renames racing one subgroup's creation: more than this many in a row are reported, not chased. */
const MAX_PLACEMENTS = 20;

/**
 * Creates a group with its creator as owner; fails with GitLab's message when the path is taken.
 * A subgroup's transaction checks the parent's path and name as read, so a rename committed in
 * between makes it read the parent again and place the subgroup under the new path.
 */
export async function createGroup(
  fields: NewGroup,
  parent: Group | undefined,
  creatorId: number,
): Promise<Group> {
  const id = await nextId('namespace');
  let current = parent;
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeNewGroup(id, fields, current, creatorId);
    } catch (error) {
      if (!(error instanceof ParentMoved) || !parent || attempt >= MAX_PLACEMENTS) throw error;
      current = await getGroup(parent.id);
      if (!current) throw notFound('Group');
    }
  }
}

async function writeNewGroup(
  id: number,
  fields: NewGroup,
  parent: Group | undefined,
  creatorId: number,
): Promise<Group> {
  const now = new Date().toISOString();
  const group: Group = {
    ...fields,
    id,
    full_path: parent ? `${parent.full_path}/${fields.path}` : fields.path,
    full_name: parent ? `${parent.full_name} / ${fields.name}` : fields.name,
    ancestor_ids: parent ? [...parent.ancestor_ids, parent.id] : [],
    created_at: now,
    updated_at: now,
  };
  const owner: GroupMember = {
    group_id: group.id,
    user_id: creatorId,
    access_level: 50,
    expires_at: null,
    created_at: now,
    created_by_id: creatorId,
  };
  const items: TransactItem[] = [
    put(groupItem(group), NEW_ITEM),
    put(routeItem(group), NEW_ITEM),
    put(memberItem(owner, group.ancestor_ids)),
    listCountChange(lists.groupsWithVisibility(group.visibility), 1),
    listCountChange(lists.groupChildren(group.parent_id), 1),
    listCountChange(lists.groupMembers(group.id), 1),
    listCountChange(lists.groupMembershipsOfUser(creatorId), 1),
  ];
  const parentIndex = parent
    ? items.push({
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.group(parent.id),
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(deleting) AND full_path = :path AND full_name = :name',
          ExpressionAttributeValues: { ':path': parent.full_path, ':name': parent.full_name },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }) - 1
    : -1;
  try {
    await transact(items);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (error.failedAt(1) || error.failedAt(0)) throw pathTaken();
      const stored = error.items[parentIndex];
      if (parentIndex >= 0 && stored && !stored.deleting) throw new ParentMoved();
      throw notFound('Group');
    }
    throw error;
  }
  return group;
}

const getRawGroup = (id: number) => getItem(keys.group(id));

export async function getGroup(id: number): Promise<Group | undefined> {
  const item = await getRawGroup(id);
  return item && !item.deleting ? decodeGroup(item) : undefined;
}

export async function getGroupsRaw(ids: number[]): Promise<Raw[]> {
  const items = await batchGetItems(ids.map((id) => keys.group(id)));
  return items.filter((item) => !item.deleting);
}

/**
 * The caller's access to a group: the highest of their memberships in the group and its ancestors
 * (GitLab's inherited membership). One batch read.
 */
export async function groupAccessOf(userId: number, group: Group): Promise<number> {
  const ids = [group.id, ...group.ancestor_ids];
  const items = await batchGetItems(ids.map((id) => keys.groupMember(id, userId)));
  return items
    .map(decodeMember)
    .filter((member) => isMembershipActive(member.expires_at))
    .reduce((highest, member) => Math.max(highest, member.access_level), 0);
}

export async function getGroupMember(groupId: number, userId: number): Promise<GroupMember | undefined> {
  const item = await getItem(keys.groupMember(groupId, userId));
  return item ? decodeMember(item) : undefined;
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
  const { items } = await readWholeList('l2', lists.groupMembershipsOfUser(userId));
  return activeGroupMemberships(items);
}

/** A membership's group as a place in the tree. */
export const placeOf = (membership: GroupMembership): TreePlace => ({
  id: membership.groupId,
  ancestor_ids: membership.ancestorIds,
});

/** A group's place in the tree: its id and its ancestors' ids, root first. */
export interface TreePlace {
  id: number;
  ancestor_ids: readonly number[];
}

/** The places among `places` not inside another one's subtree (reading those covers the rest). */
export function outermost<T extends TreePlace>(places: T[]): T[] {
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

export async function childrenOf(groupId: number): Promise<Group[]> {
  const { items } = await readWholeList('l2', lists.groupChildren(groupId));
  return items.filter((item) => !item.deleting).map(decodeGroup);
}

export interface GroupListQuery {
  /** Visibility lists to read in full order (everyone's view of public/internal, admins' of all). */
  visibilities: Visibility[];
  /** Further groups the caller may see (raw items), merged in. */
  extra: Raw[] | Promise<Raw[]>;
  order: ListOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
  filter?: (group: Group) => boolean;
}

/**
 * One page of groups merged from visibility lists and caller-specific groups. Without a filter
 * each list is read only up to the end of the requested page and totals come from counters.
 */
export async function listGroups(query: GroupListQuery): Promise<ListPage<Group>> {
  return listMerged({
    partitions: query.visibilities.map(lists.groupsWithVisibility),
    extra: query.extra,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeGroup,
    filter: query.filter,
  });
}

/** Sorts and pages groups already in memory (subgroups), with the same tie-breaker as the indexes. */
export function pageOf(
  groups: Group[],
  order: ListOrder,
  sort: 'asc' | 'desc',
  page: PageRequest,
  filter?: (group: Group) => boolean,
): ListPage<Group> {
  const offset = offsetOf(page);
  const raw = groups.map((group) => ({ ...keys.group(group.id), ...sortAttributes(group), group }));
  const sorted = mergeSorted([raw], order, sort)
    .map((item) => item.group as Group)
    .filter(filter ?? (() => true));
  return { items: sorted.slice(offset, offset + page.perPage), total: sorted.length };
}

/** The caller's direct membership level in each of the given groups. */
export async function directAccessTo(userId: number, groups: Group[]): Promise<Map<number, number>> {
  const items = await batchGetItems(groups.map((group) => keys.groupMember(group.id, userId)));
  return new Map(
    items
      .map(decodeMember)
      .filter((member) => isMembershipActive(member.expires_at))
      .map((member) => [member.group_id, member.access_level]),
  );
}

/** Attributes a group takes from its parent, never from the change being saved. */
const PLACEMENT = new Set(['full_path', 'full_name', 'updated_at']);

/** The group's place under its parent (or at the top). */
const placeUnder = (group: Group, parent: Group | undefined) => ({
  full_path: parent ? `${parent.full_path}/${group.path}` : group.path,
  full_name: parent ? `${parent.full_name} / ${group.name}` : group.name,
});

/** The changes from `previous` to `next` applied to the group as it is now, under its parent as it is. */
function rebased(previous: Group, next: Group, current: Group, parent: Group | undefined): Group {
  const merged: Group = { ...current, updated_at: next.updated_at };
  for (const [key, value] of Object.entries(next)) {
    if (!PLACEMENT.has(key) && value !== previous[key as keyof Group])
      Object.assign(merged, { [key]: value });
  }
  return { ...merged, ...placeUnder(merged, parent) };
}

/** Saves lost to a concurrent change before the save is reported as 409. */
const MAX_SAVE_ATTEMPTS = 10;
class GroupChanged extends Error {}

/**
 * Writes a changed group, guarded by its `updated_at`, path and name as read and by its parent's
 * path and name, so neither its own concurrent change nor a rename above it is lost: a lost race
 * applies the same change to a fresh read. A new path or name then settles every descendant.
 */
export async function saveGroup(previous: Group, next: Group, parent?: Group): Promise<Group> {
  let base = previous;
  let wanted = next;
  let above = parent;
  for (let attempt = 1; ; attempt++) {
    try {
      await writeGroup(base, wanted, above);
      break;
    } catch (error) {
      if (!(error instanceof GroupChanged) || attempt >= MAX_SAVE_ATTEMPTS) {
        throw error instanceof GroupChanged ? conflict('409 Conflict: Resource lock') : error;
      }
      const current = await getGroup(previous.id);
      if (!current) throw notFound('Group');
      above = current.parent_id === null ? undefined : await getGroup(current.parent_id);
      wanted = rebased(previous, next, current, above);
      base = current;
    }
  }
  if (wanted.full_path !== base.full_path || wanted.full_name !== base.full_name) {
    await settleDescendantPaths(wanted);
  }
  return wanted;
}

async function writeGroup(previous: Group, next: Group, parent: Group | undefined): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: groupItem(next),
        ConditionExpression:
          'updated_at = :previous AND full_path = :path AND full_name = :name AND attribute_not_exists(deleting)',
        ExpressionAttributeValues: {
          ':previous': previous.updated_at,
          ':path': previous.full_path,
          ':name': previous.full_name,
        },
      },
    },
  ];
  if (parent) {
    items.push({
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.group(parent.id),
        ConditionExpression: 'full_path = :path AND full_name = :name',
        ExpressionAttributeValues: { ':path': parent.full_path, ':name': parent.full_name },
      },
    });
  }
  let routeIndex = -1;
  if (next.full_path !== previous.full_path) {
    if (next.full_path.toLowerCase() !== previous.full_path.toLowerCase()) {
      routeIndex = items.push(put(routeItem(next), NEW_ITEM)) - 1;
      items.push({ Delete: { TableName: tableName(), Key: keys.route(previous.full_path) } });
    } else {
      items.push(put(routeItem(next)));
    }
  }
  if (next.visibility !== previous.visibility) {
    items.push(listCountChange(lists.groupsWithVisibility(previous.visibility), -1));
    items.push(listCountChange(lists.groupsWithVisibility(next.visibility), 1));
  }
  try {
    await transact(items);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (routeIndex >= 0 && error.failedAt(routeIndex)) {
        throw validationFailed({ path: ['has already been taken'] });
      }
      throw new GroupChanged();
    }
    throw error;
  }
}

/** Rounds of re-reading a renamed group's subtree before giving up on a tree that keeps changing. */
const MAX_SETTLE_ROUNDS = 20;
/** Descendants moved in one transaction (each: the group's update, its old and new route). */
const SETTLED_PER_TRANSACTION = 30;

/**
 * Makes every descendant of a renamed group follow its parent: reads the subtree, moves each
 * group whose full path or name does not follow its parent's (an update conditioned on its own
 * path and name as read, so a concurrent rename of it is never undone), and reads again until
 * all follow. Subgroups created under a descendant before it moved are caught by the next read.
 */
async function settleDescendantPaths(root: Group): Promise<void> {
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    const fresh = await getGroup(root.id);
    if (!fresh) return;
    const groups = (await descendantsOf([fresh])).map(decodeGroup);
    const byId = new Map<number, Group>([
      [fresh.id, fresh],
      ...groups.map((group) => [group.id, group] as const),
    ]);
    const places = new Map<number, { full_path: string; full_name: string }>([
      [fresh.id, { full_path: fresh.full_path, full_name: fresh.full_name }],
    ]);
    const placeOf = (group: Group): { full_path: string; full_name: string } | undefined => {
      const known = places.get(group.id);
      if (known) return known;
      const parent = group.parent_id === null ? undefined : byId.get(group.parent_id);
      const above = parent && placeOf(parent);
      if (!above) return undefined;
      const place = {
        full_path: `${above.full_path}/${group.path}`,
        full_name: `${above.full_name} / ${group.name}`,
      };
      places.set(group.id, place);
      return place;
    };
    const moves = groups.flatMap((group) => {
      const place = placeOf(group);
      return place && (place.full_path !== group.full_path || place.full_name !== group.full_name)
        ? [{ group, place }]
        : [];
    });
    if (moves.length === 0) return;
    for (let start = 0; start < moves.length; start += SETTLED_PER_TRANSACTION) {
      const items = moves.slice(start, start + SETTLED_PER_TRANSACTION).flatMap(({ group, place }) => [
        {
          Update: {
            TableName: tableName(),
            Key: keys.group(group.id),
            UpdateExpression: 'SET full_path = :newPath, full_name = :newName',
            ConditionExpression:
              'attribute_not_exists(deleting) AND full_path = :path AND full_name = :name AND #path = :segment',
            ExpressionAttributeNames: { '#path': 'path' },
            ExpressionAttributeValues: {
              ':newPath': place.full_path,
              ':newName': place.full_name,
              ':path': group.full_path,
              ':name': group.full_name,
              ':segment': group.path,
            },
          },
        } satisfies TransactItem,
        ...(place.full_path === group.full_path
          ? []
          : [
              remove(keys.route(group.full_path), 'attribute_not_exists(pk) OR id = :id', {
                ':id': group.id,
              }),
              put(routeItem({ ...group, ...place })),
            ]),
      ]);
      // A group that changed since it was read is left to the next round's fresh read.
      await transact(items).catch((error: unknown) => {
        if (!(error instanceof ConditionFailed)) throw error;
      });
    }
  }
}

/** Sets or removes one custom attribute on the group item. */
export async function setGroupCustomAttribute(
  groupId: number,
  key: string,
  value: string | undefined,
): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.group(groupId),
      UpdateExpression:
        value === undefined ? 'REMOVE custom_attributes.#key' : 'SET custom_attributes.#key = :value',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#key': key },
      ...(value === undefined ? {} : { ExpressionAttributeValues: { ':value': value } }),
    }),
  );
}

/**
 * Takes the group out of every list and frees its path at once; the delete worker removes the
 * rest (subgroups, projects, members). Fails with 404 when it is already being deleted.
 */
export async function markGroupDeleted(group: Group): Promise<void> {
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: keys.group(group.id),
          // Out of every list and out of the tree; its subtree stays findable by path until purged.
          UpdateExpression: 'SET deleting = :true REMOVE l1, l2, #tree, #path',
          ExpressionAttributeNames: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          ExpressionAttributeValues: { ':true': true },
        },
      },
      {
        Delete: {
          TableName: tableName(),
          Key: keys.route(group.full_path),
          ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
          ExpressionAttributeValues: { ':id': group.id },
        },
      },
      listCountChange(lists.groupsWithVisibility(group.visibility), -1),
      listCountChange(lists.groupChildren(group.parent_id), -1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw notFound('Group');
    throw error;
  }
}

// Members -----------------------------------------------------------------------------------------

export async function listGroupMembers(groupId: number): Promise<GroupMember[]> {
  const { items } = await readWholeList('l1', lists.groupMembers(groupId));
  return items.map(decodeMember);
}

export async function addGroupMember(group: Group, member: GroupMember): Promise<GroupMember> {
  await insertMember(memberItem(member, group.ancestor_ids), member.user_id);
  return member;
}

export async function updateGroupMember(group: Group, member: GroupMember): Promise<GroupMember> {
  await replaceMember(memberItem(member, group.ancestor_ids));
  return member;
}

export function removeGroupMember(groupId: number, userId: number): Promise<void> {
  return deleteMember(
    keys.groupMember(groupId, userId),
    lists.groupMembers(groupId),
    lists.groupMembershipsOfUser(userId),
  );
}

// Deletion cascade ----------------------------------------------------------------------------------

/**
 * Removes a group marked deleted and everything under it: subgroups (deepest first), members,
 * routes and counters. Every step is conditional, so a redelivered message finishes the job
 * without counting anything twice.
 */
export async function purgeGroupTree(groupId: number, removeProjectsOf: (groupId: number) => Promise<void>) {
  const root = await getRawGroup(groupId);
  if (!root) return;
  // Deepest first: a traversal path sorts after its ancestors' paths.
  const descendants = await descendantsOf([decodeGroup(root)]);
  descendants.sort((a, b) => String(a.tpath).localeCompare(String(b.tpath)));
  const ordered = [root, ...descendants].reverse();
  for (const item of ordered) {
    const group = decodeGroup(item);
    await removeProjectsOf(group.id);
    const members = await readWholeList('l1', lists.groupMembers(group.id));
    for (const member of members.items) {
      await removeGroupMember(group.id, Number(member.user_id)).catch((error: unknown) => {
        // Removed by an earlier delivery of the same job.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
    }
    const listed = item.l1 !== undefined;
    await deleteRouteOf(group);
    try {
      await transact([
        {
          Delete: {
            TableName: tableName(),
            Key: keys.group(group.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        ...(listed
          ? [
              listCountChange(lists.groupsWithVisibility(group.visibility), -1),
              listCountChange(lists.groupChildren(group.parent_id), -1),
            ]
          : []),
      ]);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
}

/** Deletes the group's route item unless the path now belongs to someone else. */
async function deleteRouteOf(group: Group): Promise<void> {
  try {
    await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.route(group.full_path),
          ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
          ExpressionAttributeValues: { ':id': group.id },
        },
      },
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

// Access for callers ---------------------------------------------------------------------------------

/**
 * The group a caller asked for, with their inherited access; 404 `Group Not Found` when it does
 * not exist or the caller may not see it (GitLab never says 403 for what one cannot see).
 */
export async function readableGroup(
  reference: string | number | Promise<Raw | undefined>,
  caller: Caller | undefined,
): Promise<{ group: Group; access: number }> {
  const item = await (typeof reference === 'object' ? reference : lookupGroup(reference));
  if (!item) throw notFound('Group');
  const group = decodeGroup(item);
  // Admins act with owner access everywhere (no membership read); others' is the highest of their
  // memberships in the group and its ancestors.
  let access = caller?.admin ? ACCESS.owner : 0;
  if (caller && !caller.admin) {
    const memberships = await batchGetItems(
      [...group.ancestor_ids, group.id].map((id) => keys.groupMember(id, caller.id)),
    );
    access = memberships
      .map(decodeMember)
      .filter((member) => isMembershipActive(member.expires_at))
      .reduce((highest, member) => Math.max(highest, member.access_level), 0);
  }
  if (!canReadGroup(group, caller, access)) throw notFound('Group');
  return { group, access };
}

/** A group item by id or full path (a route read first for paths); undefined when absent or being deleted. */
export async function lookupGroup(idOrPath: string | number): Promise<Raw | undefined> {
  const reference = await resolveReference(idOrPath, 'group');
  const item = reference && (await getRawGroup(reference.id));
  if (!item || item.deleting) return undefined;
  // A path whose parent groups are no longer the group's (deleted or renamed) names nothing.
  const ancestors = ((item.ancestor_ids as number[] | undefined) ?? []).map((id) => ({ kind: 'group', id }));
  return reference && namesSameNamespaces(reference.above, ancestors) ? item : undefined;
}

/**
 * Groups a signed-in user is entitled to see through membership: member groups, their ancestors
 * and their descendants. Two round trips: the memberships, then one batch read of the ancestors
 * beside one tree Query per outermost member group.
 */
export async function authorizedGroupsOf(userId: number, minimumAccess = 0): Promise<Raw[]> {
  const memberships = (await membershipsOfUser(userId)).filter((m) => m.accessLevel >= minimumAccess);
  if (memberships.length === 0) return [];
  const memberIds = new Set(memberships.map((m) => m.groupId));
  if (minimumAccess > 0) return getGroupsRaw([...memberIds]);
  const ancestorIds = new Set(memberships.flatMap((m) => m.ancestorIds).filter((id) => !memberIds.has(id)));
  const [ancestors, subtrees] = await Promise.all([
    getGroupsRaw([...ancestorIds]),
    readSubtrees(
      memberships.map((m) => ({ id: m.groupId, ancestor_ids: m.ancestorIds })),
      tree.groups,
    ),
  ]);
  return [...ancestors, ...subtrees];
}

/** How many direct owners the group has (the last one may not leave). */
export async function countGroupOwners(groupId: number): Promise<number> {
  return (await listGroupMembers(groupId)).filter((member) => member.access_level === 50).length;
}
