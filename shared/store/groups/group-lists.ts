/** Pages of groups: the visibility lists, a group's children, and the groups a user belongs to. */

import type { Visibility } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import {
  everyVisibility,
  openlySeen,
  type ReadScope,
  readsGroup,
  seesAllOfGroup,
} from '#domain/read-scope.ts';
import { searchKeysForTerm } from '#domain/search.ts';
import { type CredentialBatch, directAccessTo } from '../access/access.ts';
import { groupSearchCandidateIds } from '../search/search-index.ts';
import { keys } from '../table/keys.ts';
import { type ListName, type ListRef, lists, listsOfItem, sortAttributes } from '../table/list-keys.ts';
import { type ListPage, listMerged, mergeSorted, pageOfSorted, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import type { ListOrder } from '../table/table.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup, getGroupsRaw } from './group-items.ts';
import { type GroupMembership, membershipsOfUser, readSubtrees } from './group-tree.ts';

export async function childrenOf(groupId: number): Promise<Group[]> {
  const { items } = await readWholeList(lists.groupChildren(groupId));
  return items.filter((item) => !item.deleting).map(decodeGroup);
}

/** Sorts and pages groups already in memory (subgroups), with the same tie-breaker as the indexes. */
function pageOf(
  groups: Group[],
  order: ListOrder,
  sort: 'asc' | 'desc',
  page: PageRequest,
  filter?: (group: Group) => boolean,
): ListPage<Group> {
  const raw = groups.map((group) => ({ ...keys.group(group.id), ...sortAttributes(group), group }));
  const sorted = mergeSorted([raw], order, sort).filter((item) => !filter || filter(item.group as Group));
  const { items, total } = pageOfSorted(sorted, order, sort, page);
  return { items: items.map((item) => item.group as Group), total };
}

/**
 * Groups a signed-in user is entitled to see through membership: member groups, their ancestors
 * and their descendants. Two round trips: the memberships (unless read ahead), then one batch
 * read of the ancestors beside one tree Query per outermost member group.
 */
export async function authorizedGroupsOf(
  userId: number,
  minimumAccess = 0,
  readAheadMemberships?: Promise<GroupMembership[]>,
): Promise<Raw[]> {
  const memberships = (await (readAheadMemberships ?? membershipsOfUser(userId))).filter(
    (m) => m.accessLevel >= minimumAccess,
  );
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

/**
 * Whether a group is among those authorizedGroupsOf answers, decided from the memberships alone
 * (a member group, an ancestor of one, or, unless only member groups count, a descendant).
 */
function authorizedBy(memberships: GroupMembership[], minimumAccess: number, item: Raw): boolean {
  const id = Number(item.id);
  const ancestorIds = (item.ancestor_ids as number[] | undefined) ?? [];
  return memberships.some(
    (m) =>
      m.accessLevel >= minimumAccess &&
      (m.groupId === id ||
        (minimumAccess === 0 && (m.ancestorIds.includes(id) || ancestorIds.includes(m.groupId)))),
  );
}

/** A page of the group's direct subgroups that the reader can see. */
export async function visibleSubgroupsPage(
  group: Group,
  access: number,
  scope: ReadScope,
  input: { order_by?: ListOrder; sort?: 'asc' | 'desc' },
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  const children = await childrenOf(group.id);
  // A reader with no access to the group may still belong to some of its children.
  const own =
    scope.memberId !== undefined && access === 0
      ? await directAccessTo(scope.memberId, children)
      : new Map<number, number>();
  const visible = children.filter((child) =>
    readsGroup(scope, child, Math.max(access, own.get(child.id) ?? 0)),
  );
  return pageOf(visible, input.order_by ?? 'name', input.sort ?? 'asc', page, filter);
}

/**
 * A page of the group's descendants (its whole subtree, itself left out) that the reader can see:
 * one Query of the subtree on the tree index beside the reader's group memberships, so the cost
 * follows the subtree and the reader's memberships, never the table.
 */
export async function visibleDescendantsPage(
  group: Group,
  access: number,
  scope: ReadScope,
  input: { order_by?: ListOrder; sort?: 'asc' | 'desc' },
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  const traversal = [...group.ancestor_ids, group.id];
  // Members of the group (or admins) see the whole subtree; others also through their own memberships.
  const seesAll = seesAllOfGroup(scope, access);
  const [subtree, memberships] = await Promise.all([
    readSubtrees([{ id: group.id, ancestor_ids: group.ancestor_ids }], tree.groups),
    scope.memberId !== undefined && !seesAll ? membershipsOfUser(scope.memberId) : [],
  ]);
  const levels = new Map(memberships.map((membership) => [membership.groupId, membership.accessLevel]));
  const descendants = subtree
    .map(decodeGroup)
    .filter((descendant) => descendant.id !== group.id && descendant.ancestor_ids.length >= traversal.length);
  const visible = seesAll
    ? descendants
    : descendants.filter((descendant) => {
        const level = [...descendant.ancestor_ids, descendant.id].reduce(
          (highest, id) => Math.max(highest, levels.get(id) ?? 0),
          access,
        );
        return readsGroup(scope, descendant, level);
      });
  return pageOf(visible, input.order_by ?? 'name', input.sort ?? 'asc', page, filter);
}

/**
 * A page of GET /groups. Anonymous: public groups. Who sees all: all groups. Users: the groups
 * they belong to (with ancestors and descendants), or with `all_available` also every group they
 * see openly. The reader's own groups are read while the visibility lists are. `visibility`
 * narrows the lists read and the reader's own groups, so the total still comes from counters.
 * A search the index narrows (`started`, from startGroupSearch) reads its candidates in place of
 * the lists, deciding which the reader reaches through membership from their memberships alone.
 */
export function visibleGroupsPage(
  input: {
    visibility?: Visibility;
    all_available?: boolean;
    owned?: boolean;
    order_by?: 'id' | 'name' | 'path';
    sort?: 'asc' | 'desc';
  },
  scope: ReadScope,
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
  /** A search begun by startGroupSearch; only with a filter that holds the search. */
  started?: Promise<StartedGroupSearch | undefined>,
): Promise<ListPage<Group>> {
  const allAvailable = input.all_available ?? scope.seesAll;
  const memberId = scope.memberId;
  let visibilities: Visibility[] = [];
  // The reader's memberships that reach groups beyond the lists read, and at which level.
  let reach: { userId: number; minimumAccess: number } | undefined;
  if (memberId === undefined) visibilities = openlySeen(scope);
  else if (input.owned) reach = { userId: memberId, minimumAccess: 50 };
  else if (scope.seesAll && allAvailable) visibilities = everyVisibility();
  else {
    reach = { userId: memberId, minimumAccess: 0 };
    if (allAvailable) visibilities = openlySeen(scope);
  }
  const wanted = input.visibility;
  if (wanted !== undefined) visibilities = visibilities.filter((visibility) => visibility === wanted);
  const readLists = visibilities.map(lists.groupsWithVisibility);
  const ownGroups = (memberships?: Promise<GroupMembership[]>): Promise<Raw[]> | [] => {
    if (!reach) return [];
    const own = authorizedGroupsOf(reach.userId, reach.minimumAccess, memberships);
    return wanted === undefined
      ? own
      : own.then((items) => items.filter((item) => item.visibility === wanted));
  };
  if (!started || !filter) return mergedListsPage(readLists, ownGroups(), input, page, filter);
  // A search: the memberships (read ahead when this container knew the reader) beside the index's
  // answer, then either its candidates alone or, for a term it cannot narrow, the lists.
  return started.then(async (search) => {
    const readAhead = search?.memberships;
    const memberships = !reach
      ? Promise.resolve([])
      : readAhead && readAhead.userId === reach.userId
        ? readAhead.read
        : membershipsOfUser(reach.userId);
    memberships.catch(() => undefined);
    const candidates = await search?.candidates;
    if (!candidates) return mergedListsPage(readLists, ownGroups(memberships), input, page, filter);
    const held = await memberships;
    const own = (item: Raw) =>
      reach !== undefined &&
      authorizedBy(held, reach.minimumAccess, item) &&
      (wanted === undefined || item.visibility === wanted);
    return candidatesPage(candidates, readLists, own, input, page, filter);
  });
}

type GroupOrderInput = { order_by?: 'id' | 'name' | 'path'; sort?: 'asc' | 'desc' };

function mergedListsPage(
  readLists: ListRef<'id' | 'name' | 'path' | 'created_at'>[],
  extra: Promise<Raw[]> | [],
  input: GroupOrderInput,
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  // Without a filter each list is read only to the end of the page; totals come from counters.
  return listMerged({
    lists: readLists,
    extra,
    decode: decodeGroup,
    order: input.order_by ?? 'name',
    sort: input.sort ?? 'asc',
    page,
    filter,
  });
}

/**
 * The page a search narrowed by the index gives: the candidates that sit in one of the lists the
 * reader would have read or that the reader reaches through membership, through the same filter
 * and order as the lists' read (the search itself is in the filter, so every candidate is checked).
 */
function candidatesPage(
  candidates: Raw[],
  readLists: ListName[],
  own: (item: Raw) => boolean,
  input: GroupOrderInput,
  page: PageRequest,
  filter: (group: Group) => boolean,
): ListPage<Group> {
  const listed = new Set(readLists.map((ref) => `${ref.attribute}|${ref.partition}`));
  const inReadList = (item: Raw) =>
    listsOfItem(item).some((ref) => listed.has(`${ref.attribute}|${ref.partition}`));
  const merged = mergeSorted(
    [candidates.filter((item) => inReadList(item) || own(item))],
    input.order_by ?? 'name',
    input.sort ?? 'asc',
  )
    .map(decodeGroup)
    .filter(filter);
  const offset = offsetOf(page);
  return { items: merged.slice(offset, offset + page.perPage), total: merged.length };
}

/** A group search's reads begun beside authentication (see startGroupSearch). */
export interface StartedGroupSearch {
  /** The index's candidates' items; undefined when the index cannot narrow the term. */
  candidates: Promise<Raw[] | undefined>;
  /** The likely caller's group memberships, when this container knew whose credential it is. */
  memberships?: { userId: number; read: Promise<GroupMembership[]> };
}

/**
 * Begins a group search's reads beside authentication: the index's candidate ids, then their
 * items at once, and the likely caller's group memberships. The candidates are undefined when
 * the index cannot narrow the term (too short for a key, or too common): the lists are read.
 */
export function startGroupSearch(
  term: string,
  ahead?: Pick<CredentialBatch, 'likelyUserId'>,
): StartedGroupSearch {
  const searchKeys = searchKeysForTerm(term);
  const candidates = (
    searchKeys.length ? groupSearchCandidateIds(searchKeys) : Promise.resolve(undefined)
  ).then((ids) => (ids === undefined ? undefined : getGroupsRaw(ids)));
  candidates.catch(() => undefined);
  const userId = ahead?.likelyUserId;
  if (userId === undefined) return { candidates };
  const read = membershipsOfUser(userId);
  read.catch(() => undefined);
  return { candidates, memberships: { userId, read } };
}
