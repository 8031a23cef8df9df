/**
 * Who may reach what: the one module that decides a caller's level in a group or a project. A
 * level is the highest of the caller's memberships that grant it: of the group and its ancestors;
 * of the project, its namespace's groups and (capped by the share) the groups it is shared with;
 * and (capped alike) the groups that a group or any of its ancestors is shared with. Single
 * resources read the membership items themselves, consistently, with the items of the groups whose
 * shares count; lists may take the levels from the caller's own membership lists (see
 * membershipLevelsOf).
 */

import { ACCESS, visibleWithoutMembership } from '#domain/access.ts';
import { notFound } from '#domain/errors.ts';
import { canReadGroup } from '#domain/group-policy.ts';
import { type GroupShare, invitedGroupIds, levelThroughShares, sharesOf } from '#domain/group-shares.ts';
import type { Group } from '#domain/groups.ts';
import { isMembershipActive } from '#domain/members.ts';
import { canReadProject, NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { decodeGroup } from '../groups/group-items.ts';
import { decodeProject, namespacesOf } from '../projects/project-items.ts';
import { batchGetItems, type Key } from '../table/batch.ts';
import { getLiveItem, namesSameNamespaces, type RouteOwner, resolveReference } from '../table/items.ts';
import { isAt, keys, lists } from '../table/keys.ts';
import { readListHead } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { readAhead } from './read-ahead.ts';

/** A user's direct membership levels: projects and groups (subgroups inherit from these). */
export interface MembershipLevels {
  projects: Map<number, number>;
  groups: Map<number, number>;
  /**
   * Levels in the groups shared with the user's groups (capped by each share), when read (project
   * lists): a group's projects and subgroups inherit them.
   */
  shared?: Map<number, number>;
}

/** The membership levels read from the caller's lists; a kind is absent when it has too many to read. */
export type KnownLevels = Partial<MembershipLevels>;

/** The active levels among membership items. */
export function levelsFrom(items: Raw[]): MembershipLevels {
  const levels: MembershipLevels = { projects: new Map(), groups: new Map() };
  for (const item of items) {
    if (!isMembershipActive(item.expires_at)) continue;
    if (item.kind === 'project_member')
      levels.projects.set(Number(item.project_id), Number(item.access_level));
    else if (item.kind === 'group_member')
      levels.groups.set(Number(item.group_id), Number(item.access_level));
  }
  return levels;
}

/** The highest level among the given groups. */
const highestIn = (levels: Map<number, number>, groupIds: readonly number[]) =>
  groupIds.reduce((highest, id) => Math.max(highest, levels.get(id) ?? 0), 0);

/** A user's access to a project; `groupShares` are the shares of its namespace's groups, when read. */
export function accessWith(
  levels: MembershipLevels,
  project: Project,
  userId: number,
  groupShares: readonly GroupShare[] = [],
): ProjectAccess {
  return {
    project: levels.projects.get(project.id) ?? 0,
    group: Math.max(
      highestIn(levels.groups, project.namespace.group_ids),
      levelThroughShares(groupShares, levels.groups),
      levels.shared ? highestIn(levels.shared, project.namespace.group_ids) : 0,
    ),
    shared: project.shared_with_groups
      .filter((share) => isMembershipActive(share.expires_at))
      .reduce(
        (highest, share) =>
          Math.max(highest, Math.min(share.group_access_level, highestIn(levels.groups, share.group_ids))),
        0,
      ),
    namespaceOwner: project.namespace.owner_id === userId,
  };
}

/** The groups whose memberships decide access to a project: its namespace's and its shares'. */
const accessGroupIds = (project: Project) => [
  ...new Set([
    ...project.namespace.group_ids,
    ...project.shared_with_groups.flatMap((share) => share.group_ids),
  ]),
];

/** A user's membership keys that decide access to the projects (direct ones, group ones, or both). */
function membershipKeys(
  userId: number,
  projects: Project[],
  kinds: { projects: boolean; groups: boolean } = { projects: true, groups: true },
) {
  const groupIds = kinds.groups ? [...new Set(projects.flatMap(accessGroupIds))] : [];
  return [
    ...(kinds.projects ? projects.map((project) => keys.projectMember(project.id, userId)) : []),
    ...groupIds.map((groupId) => keys.groupMember(groupId, userId)),
  ];
}

/**
 * Above this many memberships of a kind, the page's membership keys are read instead of the
 * caller's list. Membership items are small: a thousand of them is one Query of about 40 read
 * units of 4 KB (≈ 19 RCU eventually consistent), less than a consistent batch read of a page's
 * keys (1 RCU per key, 40–200 keys a page), and it leaves no round trip for after the page.
 */
const MAX_LISTED_MEMBERSHIPS = 1000;

/**
 * A user's own membership lists (project and group memberships), each read to at most
 * MAX_LISTED_MEMBERSHIPS items in one round trip; a kind with more is undefined.
 */
export interface MembershipLists {
  userId: number;
  projects: Raw[] | undefined;
  groups: Raw[] | undefined;
}

/**
 * Reads a user's membership lists (see MembershipLists). The returned promise is marked handled,
 * so a request that fails first leaves no stray rejection.
 */
export function readMembershipLists(userId: number): Promise<MembershipLists> {
  const read = async (list: ReturnType<typeof lists.groupMembershipsOfUser>) => {
    const items = await readListHead(list, 'id', 'asc', MAX_LISTED_MEMBERSHIPS + 1);
    return items.length > MAX_LISTED_MEMBERSHIPS ? undefined : items;
  };
  const result = Promise.all([
    read(lists.projectMembershipsOfUser(userId)),
    read(lists.groupMembershipsOfUser(userId)),
  ]).then(([projects, groups]) => ({ userId, projects, groups }));
  result.catch(() => undefined);
  return result;
}

/**
 * The caller's membership levels from their own membership lists, for the `permissions` shown in
 * project lists: one round trip, started together with a list's main read (or taken from lists
 * already being read). Never used to decide access to a single project (that reads the
 * membership items themselves, consistently).
 */
export function membershipLevelsOf(
  userId: number,
  read: Promise<MembershipLists> = readMembershipLists(userId),
): Promise<KnownLevels> {
  const levels = read.then((known) => ({
    projects: known.projects && levelsFrom(known.projects).projects,
    groups: known.groups && levelsFrom(known.groups).groups,
  }));
  levels.catch(() => undefined);
  return levels;
}

/**
 * The caller's access to each project: from their membership levels where those were read; the
 * kinds that were not are one batch read of the page's membership keys (at most one key per
 * project for direct memberships, one per distinct group for group memberships).
 */
export async function accessFromLevels(
  userId: number,
  projects: Project[],
  levels: Promise<KnownLevels> | undefined,
): Promise<Map<number, ProjectAccess>> {
  const known: KnownLevels = (await levels) ?? {};
  const missing = membershipKeys(userId, projects, {
    projects: !known.projects,
    groups: !known.groups,
  });
  const read = levelsFrom(missing.length ? await batchGetItems(missing) : []);
  const all: MembershipLevels = {
    projects: known.projects ?? read.projects,
    groups: known.groups ?? read.groups,
    shared: known.shared,
  };
  return new Map(projects.map((project) => [project.id, accessWith(all, project, userId)]));
}

// Group shares -------------------------------------------------------------------------------------

const keyString = (key: Key) => `${key.pk}|${key.sk}`;

/** The shares kept by the live items among `items` of the groups `holderIds`. */
function sharesHeldBy(items: Raw[], holderIds: readonly number[]): GroupShare[] {
  const holders = new Set(holderIds);
  return items
    .filter((item) => item.kind === 'group' && !item.deleting && holders.has(Number(item.id)))
    .flatMap((item) => sharesOf(item as { shared_with_groups?: GroupShare[] }));
}

/** Items already read for a caller (a read-ahead): their keys, and what was found. */
interface ReadBefore {
  keys: Key[];
  items: Raw[];
}

/**
 * A caller's membership items for `memberKeys`, and the shares of the groups `holderIds` (the
 * groups above what is asked for, whose shares with other groups reach it) with the caller's
 * memberships of the groups they invite. The keys and the holders' items are one batch (less
 * what was read before); the invited groups' memberships not read yet are a second batch, sent
 * only when a holder keeps a share. At most two round trips, whatever the depth of the tree.
 */
async function readWithGroupShares(
  userId: number,
  memberKeys: Key[],
  holderIds: readonly number[],
  before?: ReadBefore,
): Promise<{ items: Raw[]; groupShares: GroupShare[] }> {
  const read = new Set(before?.keys.map(keyString));
  const first = [...memberKeys, ...holderIds.map((id) => keys.group(id))].filter(
    (key) => !read.has(keyString(key)),
  );
  for (const key of first) read.add(keyString(key));
  const items = [...(before?.items ?? []), ...(first.length ? await batchGetItems(first) : [])];
  const groupShares = sharesHeldBy(items, holderIds);
  const second = invitedGroupIds(groupShares)
    .map((groupId) => keys.groupMember(groupId, userId))
    .filter((key) => !read.has(keyString(key)));
  if (second.length) items.push(...(await batchGetItems(second)));
  return { items, groupShares };
}

// Projects ------------------------------------------------------------------------------------------

/**
 * An item by id or full path (a route read first for paths); undefined when absent, being
 * deleted, or named by a path whose namespaces are no longer the item's (renamed or deleted).
 */
async function lookup(
  idOrPath: string | number,
  kind: 'group' | 'project',
  key: (id: number) => Key,
  namespaces: (item: Raw) => RouteOwner[],
): Promise<Raw | undefined> {
  const reference = await resolveReference(idOrPath, kind);
  const item = reference && (await getLiveItem(key(reference.id)));
  return reference && item && namesSameNamespaces(reference.above, namespaces(item)) ? item : undefined;
}

/** A project item by id or full path; undefined when there is none to name. */
export const lookupProject = (idOrPath: string | number) =>
  lookup(idOrPath, 'project', keys.project, namespacesOf);

/** A project by numeric id or (case-insensitive) full path `namespace/project`, whoever asks. */
export async function findProject(idOrPath: string | number): Promise<Project | undefined> {
  const item = await lookupProject(idOrPath);
  return item ? decodeProject(item) : undefined;
}

/** A project read ahead (see read-ahead.ts): the item and the memberships read with it, if any. */
export interface ProjectReadAhead {
  item: Raw | undefined;
  memberships?: { userId: number; keys: Key[]; items: Raw[] };
}

/** What a read-ahead may use to fold its reads into the credential's read. */
export interface CredentialBatch {
  /** The user the presented credential belonged to when this container last saw it. */
  likelyUserId: number | undefined;
  /** Reads these keys in one batch with the credential. */
  readWithCredential: (keys: Key[]) => Promise<Raw[]>;
}

/**
 * Reads a project by id or path. For an id, in one batch with the credential and, when this
 * container has seen both the credential and the project before, with the likely caller's
 * memberships that decided access to it.
 */
export async function lookupProjectAhead(
  idOrPath: string | number,
  ahead: CredentialBatch,
): Promise<ProjectReadAhead> {
  if (!/^\d+$/.test(String(idOrPath))) return { item: await lookupProject(idOrPath) };
  const id = Number(idOrPath);
  const userId = ahead.likelyUserId;
  const groupIds = readAhead.likelyAccessGroups(id);
  const holderIds = readAhead.likelyShareHolders(id) ?? [];
  const memberKeys =
    userId === undefined || !groupIds
      ? []
      : [
          keys.projectMember(id, userId),
          ...groupIds.map((groupId) => keys.groupMember(groupId, userId)),
          ...holderIds.map((groupId) => keys.group(groupId)),
        ];
  const items = await ahead.readWithCredential([keys.project(id), ...memberKeys]);
  const item = items.find((candidate) => isAt(candidate, keys.project(id)));
  return {
    item: item && !item.deleting ? item : undefined,
    memberships:
      userId === undefined || !groupIds
        ? undefined
        : { userId, keys: memberKeys, items: items.filter((candidate) => candidate !== item) },
  };
}

/**
 * The project a caller asked for and their access; 404 `Project Not Found` when not visible. The
 * memberships read ahead count when they were read for this caller; whatever access depends on
 * and was not read is read now, in one batch.
 */
export async function readableProject(
  read: Promise<ProjectReadAhead>,
  caller: Caller | undefined,
): Promise<{ project: Project; access: ProjectAccess }> {
  const { item, memberships } = await read;
  if (!item) throw notFound('Project');
  const project = decodeProject(item);
  const holderIds = project.namespace.group_ids;
  readAhead.rememberShareHolders(project.id, holderIds);
  let access = NO_ACCESS;
  if (caller) {
    const ahead = memberships?.userId === caller.id ? memberships : undefined;
    const memberKeys = membershipKeys(caller.id, [project]);
    const { items, groupShares } = await readWithGroupShares(caller.id, memberKeys, holderIds, ahead);
    readAhead.rememberAccessGroups(project.id, [...accessGroupIds(project), ...invitedGroupIds(groupShares)]);
    access = accessWith(levelsFrom(items), project, caller.id, groupShares);
  } else {
    readAhead.rememberAccessGroups(project.id, accessGroupIds(project));
  }
  if (!canReadProject(project, caller, access)) throw notFound('Project');
  return { project, access };
}

// Groups --------------------------------------------------------------------------------------------

/** A group's ancestors, as the namespaces its path names above it. */
const ancestorsOf = (item: Raw): RouteOwner[] =>
  ((item.ancestor_ids as number[] | undefined) ?? []).map((id) => ({ kind: 'group', id }));

/** A group item by id or full path; undefined when there is none to name. */
export const lookupGroup = (idOrPath: string | number) => lookup(idOrPath, 'group', keys.group, ancestorsOf);

/**
 * A user's level in a group: the highest of their memberships of the group and its ancestors, and
 * of the groups the group or its ancestors are shared with (capped by each share). The group's own
 * shares are on its item; its ancestors' are read with the memberships (see readWithGroupShares).
 */
async function inheritedLevel(userId: number, group: Group): Promise<number> {
  const lineage = [...group.ancestor_ids, group.id];
  const own = sharesOf(group);
  const memberKeys = [...lineage, ...invitedGroupIds(own)].map((id) => keys.groupMember(id, userId));
  const { items, groupShares } = await readWithGroupShares(userId, memberKeys, group.ancestor_ids);
  const levels = levelsFrom(items).groups;
  return Math.max(highestIn(levels, lineage), levelThroughShares([...own, ...groupShares], levels));
}

/** A user's active levels in each of these groups, in one batch read. */
async function groupLevels(userId: number, groupIds: number[]): Promise<Map<number, number>> {
  return levelsFrom(await batchGetItems(groupIds.map((id) => keys.groupMember(id, userId)))).groups;
}

/**
 * The caller's access to a group: the highest of their memberships in the group and its ancestors
 * (GitLab's inherited membership) and of the groups shared with them (see inheritedLevel).
 */
export const groupAccessOf = (userId: number, group: Group) => inheritedLevel(userId, group);

/**
 * The group a caller asked for, with their inherited access; 404 `Group Not Found` when it does
 * not exist or the caller may not see it (GitLab never says 403 for what one cannot see).
 */
export async function readableGroup(
  reference: string | number | Promise<Raw | undefined>,
  caller: Caller | undefined,
  options: { levelWanted?: boolean } = {},
): Promise<{ group: Group; access: number }> {
  const item = await (typeof reference === 'object' ? reference : lookupGroup(reference));
  if (!item) throw notFound('Group');
  const group = decodeGroup(item);
  // Admins act with owner access everywhere (no membership read). A route that only needs the
  // group to be readable skips the memberships when its visibility alone decides (access 0).
  const access = !caller
    ? 0
    : caller.admin
      ? ACCESS.owner
      : options.levelWanted === false && visibleWithoutMembership(group.visibility, caller)
        ? 0
        : await inheritedLevel(caller.id, group);
  if (!canReadGroup(group, caller, access)) throw notFound('Group');
  return { group, access };
}

/** The caller's direct membership level in each of the given groups. */
export const directAccessTo = (userId: number, groups: Group[]) =>
  groupLevels(
    userId,
    groups.map((group) => group.id),
  );
