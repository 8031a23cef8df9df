/** Pages of groups: the visibility lists, a group's children, and the groups a user belongs to. */
import type { Visibility } from '#domain/access.ts';
import { canReadGroup } from '#domain/group-policy.ts';
import type { Group } from '#domain/groups.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { Caller } from '#domain/users.ts';
import { directAccessTo } from './access.ts';
import { decodeGroup, getGroupsRaw } from './group-items.ts';
import { membershipsOfUser, readSubtrees } from './group-tree.ts';
import { keys, lists, sortAttributes, tree } from './keys.ts';
import { type ListPage, listMerged, mergeSorted, readWholeList } from './lists.ts';
import type { ListOrder } from './table.ts';

type Raw = Record<string, unknown>;

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
  const offset = offsetOf(page);
  const raw = groups.map((group) => ({ ...keys.group(group.id), ...sortAttributes(group), group }));
  const sorted = mergeSorted([raw], order, sort)
    .map((item) => item.group as Group)
    .filter(filter ?? (() => true));
  return { items: sorted.slice(offset, offset + page.perPage), total: sorted.length };
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

/** A page of the group's direct subgroups that the caller can see. */
export async function visibleSubgroupsPage(
  group: Group,
  access: number,
  caller: Caller | undefined,
  input: { order_by?: ListOrder; sort?: 'asc' | 'desc' },
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  const children = await childrenOf(group.id);
  // A caller with no access to the group may still belong to some of its children.
  const own = caller && access === 0 ? await directAccessTo(caller.id, children) : new Map<number, number>();
  const visible = children.filter((child) =>
    canReadGroup(child, caller, Math.max(access, own.get(child.id) ?? 0)),
  );
  return pageOf(visible, input.order_by ?? 'name', input.sort ?? 'asc', page, filter);
}

/**
 * A page of the group's descendants (its whole subtree, itself left out) that the caller can see:
 * one Query of the subtree on the tree index beside the caller's group memberships, so the cost
 * follows the subtree and the caller's memberships, never the table.
 */
export async function visibleDescendantsPage(
  group: Group,
  access: number,
  caller: Caller | undefined,
  input: { order_by?: ListOrder; sort?: 'asc' | 'desc' },
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  const traversal = [...group.ancestor_ids, group.id];
  // Members of the group (or admins) see the whole subtree; others also through their own memberships.
  const seesAll = Boolean(caller?.admin) || access > 0;
  const [subtree, memberships] = await Promise.all([
    readSubtrees([{ id: group.id, ancestor_ids: group.ancestor_ids }], tree.groups),
    caller && !seesAll ? membershipsOfUser(caller.id) : [],
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
        return canReadGroup(descendant, caller, level);
      });
  return pageOf(visible, input.order_by ?? 'name', input.sort ?? 'asc', page, filter);
}

/**
 * A page of GET /groups. Anonymous: public groups. Admins: all groups. Users: the groups they
 * belong to (with ancestors and descendants), or with `all_available` also every public and
 * internal group. The caller's own groups are read while the visibility lists are. `visibility`
 * narrows the lists read and the caller's own groups, so the total still comes from counters.
 */
export function visibleGroupsPage(
  input: {
    visibility?: Visibility;
    all_available?: boolean;
    owned?: boolean;
    order_by?: 'id' | 'name' | 'path';
    sort?: 'asc' | 'desc';
  },
  caller: Caller | undefined,
  page: PageRequest,
  filter: ((group: Group) => boolean) | undefined,
): Promise<ListPage<Group>> {
  const allAvailable = input.all_available ?? Boolean(caller?.admin);
  let visibilities: Visibility[] = [];
  let extra: Promise<Raw[]> | [] = [];
  if (!caller) visibilities = ['public'];
  else if (input.owned) extra = authorizedGroupsOf(caller.id, 50);
  else if (caller.admin && allAvailable) visibilities = ['public', 'internal', 'private'];
  else {
    extra = authorizedGroupsOf(caller.id);
    if (allAvailable) visibilities = caller.external ? ['public'] : ['public', 'internal'];
  }
  const wanted = input.visibility;
  if (wanted !== undefined) {
    visibilities = visibilities.filter((visibility) => visibility === wanted);
    extra = Promise.resolve(extra).then((items) => items.filter((item) => item.visibility === wanted));
  }
  // Without a filter each list is read only to the end of the page; totals come from counters.
  return listMerged({
    lists: visibilities.map(lists.groupsWithVisibility),
    extra,
    decode: decodeGroup,
    order: input.order_by ?? 'name',
    sort: input.sort ?? 'asc',
    page,
    filter,
  });
}
