/**
 * What a signed-in user reaches through membership: every project with their level (for `owned`,
 * `membership` and `min_access_level`), and the page of GET /projects that merges the lists
 * everyone sees with the hidden projects of the user's groups, read only to the end of the page.
 */

import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { isMembershipActive } from '#domain/members.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { openlySeen } from '#domain/read-scope.ts';
import {
  activeGroupMemberships,
  type GroupMembership,
  groupIdsOfPath,
  membershipsOfUser,
  placeOf,
  readSubtrees,
  readSubtreesUpTo,
  type TreePlace,
} from '../groups/group-tree.ts';
import { decodeProject, getProjectsRaw } from '../projects/project-items.ts';
import type { ProjectOrder } from '../projects/project-lists.ts';
import { type ListRef, lists } from '../table/list-keys.ts';
import { type ListPage, listMerged, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { treeIndex } from '../table/table.ts';
import { tree } from '../table/tree-keys.ts';
import {
  type KnownLevels,
  levelsFrom,
  type MembershipLevels,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from './access.ts';

/** The highest level among the given groups. */
const highestIn = (levels: ReadonlyMap<number, number>, groupIds: readonly number[]) =>
  groupIds.reduce((highest, id) => Math.max(highest, levels.get(id) ?? 0), 0);

/**
 * The level a user reaches in each group shared with a group they belong to (or with a group
 * below one), from the share links read in their groups' subtrees: shared group id → the highest
 * of the lower of the share's level and the user's level in the invited group or its ancestors.
 */
function levelsThroughGroupShares(
  links: Raw[],
  memberLevel: ReadonlyMap<number, number>,
): Map<number, number> {
  const levels = new Map<number, number>();
  for (const item of links) {
    if (item.kind !== 'group_share' || !isMembershipActive(item.expires_at)) continue;
    const level = Math.min(
      Number(item.group_access),
      highestIn(memberLevel, groupIdsOfPath(item[treeIndex.sortKey])),
    );
    const sharedId = Number(item.shared_group_id);
    if (level > 0) levels.set(sharedId, Math.max(levels.get(sharedId) ?? 0, level));
  }
  return levels;
}

/** The places of the groups reached through shares (each link keeps its shared group's place). */
function sharedGroupPlaces(links: Raw[], reached: ReadonlyMap<number, number>): TreePlace[] {
  const places = new Map<number, TreePlace>();
  for (const item of links) {
    const id = Number(item.shared_group_id);
    if (item.kind !== 'group_share' || !reached.has(id)) continue;
    places.set(id, { id, ancestor_ids: (item.shared_group_ids as number[]).slice(0, -1) });
  }
  return [...places.values()];
}

/**
 * Every project a user reaches through membership, with their level: direct memberships,
 * projects of the groups they belong to and those groups' subgroups, and projects shared with any
 * of those groups. Personal projects come with their owner's direct membership. Round trips: the
 * membership lists; then the subtrees (one Query per outermost member group) beside one batch
 * read of direct memberships; a last batch read only for shared projects found in no other way.
 */
export async function memberProjectsOf(
  userId: number,
  /** Only projects of these visibilities are read from the groups' subtrees. */
  visibilities: readonly Visibility[] = VISIBILITIES,
): Promise<{ raw: Raw[]; levels: Map<number, number>; memberships: MembershipLevels }> {
  const [direct, groupMemberships] = await Promise.all([
    readWholeList(lists.projectMembershipsOfUser(userId)),
    membershipsOfUser(userId),
  ]);
  const memberLevel = new Map(groupMemberships.map((m) => [m.groupId, m.accessLevel]));
  const inheritedLevel = (groupIds: number[]) =>
    groupIds.reduce((highest, id) => Math.max(highest, memberLevel.get(id) ?? 0), 0);
  const levels = new Map<number, number>();
  const raise = (projectId: number, level: number) =>
    levels.set(projectId, Math.max(levels.get(projectId) ?? 0, level));
  const activeDirect = direct.items.filter((item) => isMembershipActive(item.expires_at));
  for (const item of activeDirect) raise(Number(item.project_id), Number(item.access_level));
  const places = groupMemberships.map(placeOf);
  const [subtrees, directProjects] = await Promise.all([
    Promise.all(
      [...visibilities.map(tree.projects), tree.shares].map((partition) => readSubtrees(places, partition)),
    ).then((parts) => parts.flat()),
    getProjectsRaw(activeDirect.map((item) => Number(item.project_id))),
  ]);
  const found = new Map<number, Raw>(directProjects.map((item) => [Number(item.id), item]));
  for (const item of subtrees) {
    if (item.kind === 'project') {
      found.set(Number(item.id), item);
      raise(Number(item.id), inheritedLevel(groupIdsOfPath(item[treeIndex.sortKey])));
    } else if (item.kind === 'project_share' && isMembershipActive(item.expires_at)) {
      raise(
        Number(item.project_id),
        Math.min(Number(item.group_access), inheritedLevel(groupIdsOfPath(item[treeIndex.sortKey]))),
      );
    }
  }
  // Groups shared with the user's groups: their subtrees' projects, at the share's capped level.
  const shared = levelsThroughGroupShares(subtrees, memberLevel);
  const sharedPlaces = sharedGroupPlaces(subtrees, shared);
  const missing = [...levels.keys()].filter((id) => !found.has(id));
  const [missingProjects, inSharedGroups] = await Promise.all([
    getProjectsRaw(missing),
    Promise.all(visibilities.map((visibility) => readSubtrees(sharedPlaces, tree.projects(visibility)))).then(
      (parts) => parts.flat(),
    ),
  ]);
  for (const item of missingProjects) found.set(Number(item.id), item);
  for (const item of inSharedGroups) {
    found.set(Number(item.id), item);
    raise(Number(item.id), highestIn(shared, groupIdsOfPath(item[treeIndex.sortKey])));
  }
  const memberships: MembershipLevels = {
    projects: new Map(activeDirect.map((item) => [Number(item.project_id), Number(item.access_level)])),
    groups: memberLevel,
    shared,
  };
  return { raw: [...found.values()], levels, memberships };
}

/**
 * Above this many groups in a user's member subtrees, their hidden projects are read whole from
 * the tree index instead of one list per group (a Query per group would cost more than that).
 */
const MAX_GROUP_LISTS = 50;
/**
 * The member subtrees' hidden projects are also read from the tree index, up to this many, beside
 * the subtrees' groups: when that is all of them the subgroups' lists need no further round trip.
 */
const SMALL_SUBTREE = 100;

/** A user's active memberships, completing a kind the capped read left out. */
async function activeMemberships(
  read: Promise<MembershipLists>,
): Promise<{ projects: Raw[]; groups: GroupMembership[] }> {
  const known = await read;
  const [projects, groups] = await Promise.all([
    known.projects ?? readWholeList(lists.projectMembershipsOfUser(known.userId)).then((r) => r.items),
    known.groups ? activeGroupMemberships(known.groups) : membershipsOfUser(known.userId),
  ]);
  return { projects: projects.filter((item) => isMembershipActive(item.expires_at)), groups };
}

/**
 * One page of GET /projects for a signed-in user without filters: the lists of the visibilities
 * they see openly and, for the hidden visibilities, the lists of every group in the subtrees of
 * the reader's groups, each read only to the end of the page and counted by its counter; merged
 * with the hidden projects reached through a direct membership or a share, read whole (they are
 * the reader's own). After the membership lists: the member groups' lists, their subtrees'
 * groups and shares and the direct projects, together; then the subgroups' lists beside the
 * shared projects. The reader's membership levels come with it (for `permissions`).
 */
export async function listReachableProjects(query: {
  /** A signed-in reader's scope: whose memberships are read. */
  scope: ReadScope & { readonly memberId: number };
  order: ProjectOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The reader's membership lists, when read ahead (see readMembershipLists). */
  memberships?: Promise<MembershipLists>;
}): Promise<ListPage<Project> & { levels: MembershipLevels }> {
  const { scope } = query;
  const visible = openlySeen(scope);
  const hidden = VISIBILITIES.filter((visibility) => !visible.includes(visibility));
  const memberships = activeMemberships(query.memberships ?? readMembershipLists(scope.memberId));
  const listsOf = (groupIds: number[]): ListRef[] =>
    groupIds.flatMap((id) => hidden.map((visibility) => lists.namespaceProjects(id, visibility)));
  const hiddenSubtrees = (places: TreePlace[], limit: number) =>
    Promise.all(hidden.map((visibility) => readSubtreesUpTo(places, tree.projects(visibility), limit))).then(
      (parts) => ({
        items: parts.flatMap((part) => part.items),
        complete: parts.every((part) => part.complete),
      }),
    );
  const places = memberships.then(({ groups }) => groups.map(placeOf));
  const memberGroupIds = memberships.then(({ groups }) => [...new Set(groups.map((m) => m.groupId))]);
  const subtreeGroupIds = places.then(async (known) =>
    (await readSubtrees(known, tree.groups)).map((item) => Number(item.id)),
  );
  // Read from the tree beside the groups: when that is all of them, no list of a subgroup is read.
  const small = places.then((known) => hiddenSubtrees(known, SMALL_SUBTREE));
  small.catch(() => undefined);
  const perGroup = Promise.all([memberGroupIds, subtreeGroupIds]).then(
    ([own, ids]) => own.length <= MAX_GROUP_LISTS && ids.length <= MAX_GROUP_LISTS,
  );
  const subgroupLists = Promise.all([memberGroupIds, subtreeGroupIds, perGroup, small]).then(
    ([own, ids, listed, whole]) =>
      listed && !whole.complete ? listsOf(ids.filter((id) => !own.includes(id))) : [],
  );
  // Shares of projects and of groups with the reader's groups (and the groups below them).
  const shareLinks = places.then((known) => readSubtrees(known, tree.shares));
  const groupShareLevels = Promise.all([memberships, shareLinks]).then(([{ groups }, links]) =>
    levelsThroughGroupShares(links, new Map(groups.map((m) => [m.groupId, m.accessLevel]))),
  );
  groupShareLevels.catch(() => undefined);
  const extra = (async () => {
    const [{ projects: direct }, known] = await Promise.all([memberships, places]);
    const subtrees = Promise.all([perGroup, small]).then(async ([listed, whole]) =>
      whole.complete
        ? whole.items
        : listed
          ? []
          : (await hiddenSubtrees(known, Number.POSITIVE_INFINITY)).items,
    );
    const directIds = direct.map((item) => Number(item.project_id));
    const [shares, directProjects, reachedGroups] = await Promise.all([
      shareLinks,
      getProjectsRaw(directIds),
      groupShareLevels,
    ]);
    const sharedIds = shares
      .filter((item) => item.kind === 'project_share' && isMembershipActive(item.expires_at))
      .map((item) => Number(item.project_id))
      .filter((id) => !directIds.includes(id));
    const sharedPlaces = sharedGroupPlaces(shares, reachedGroups);
    const [inSubtrees, shared, inSharedGroups] = await Promise.all([
      subtrees,
      getProjectsRaw([...new Set(sharedIds)]),
      sharedPlaces.length
        ? hiddenSubtrees(sharedPlaces, Number.POSITIVE_INFINITY).then((read) => read.items)
        : [],
    ]);
    return [...directProjects, ...inSubtrees, ...shared, ...inSharedGroups].filter((item) =>
      hidden.includes(item.visibility as Visibility),
    );
  })();
  extra.catch(() => undefined);
  const page = await listMerged({
    lists: visible.map(lists.projectsWithVisibility),
    laterLists: [
      memberGroupIds.then((ids) => (ids.length <= MAX_GROUP_LISTS ? listsOf(ids) : [])),
      subgroupLists,
    ],
    extra,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeProject,
  });
  const [{ projects, groups }, shared] = await Promise.all([memberships, groupShareLevels]);
  return {
    ...page,
    levels: {
      projects: levelsFrom(projects).projects,
      groups: new Map(groups.map((m) => [m.groupId, m.accessLevel])),
      shared,
    },
  };
}

/**
 * A user's membership levels for `permissions` in project lists (see membershipLevelsOf),
 * with the levels they reach through groups shared with their groups: one more round trip after
 * the membership lists (the share links in their groups' subtrees), beside the list's reads.
 */
export function membershipLevelsWithShares(
  userId: number,
  read: Promise<MembershipLists> = readMembershipLists(userId),
): Promise<KnownLevels> {
  const levels = Promise.all([membershipLevelsOf(userId, read), activeMemberships(read)]).then(
    async ([known, { groups }]) => {
      const links = await readSubtrees(groups.map(placeOf), tree.shares);
      const memberLevel = new Map(groups.map((m) => [m.groupId, m.accessLevel]));
      return { ...known, shared: levelsThroughGroupShares(links, memberLevel) };
    },
  );
  levels.catch(() => undefined);
  return levels;
}
