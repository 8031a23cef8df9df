/**
 * Who may reach what: the one module that reads a user's level in a group or a project. A level
 * is the highest of the user's memberships that grant it: of the group and its ancestors;
 * of the project, its namespace's groups and (capped by the share) the groups it is shared with;
 * and (capped alike) the groups that a group or any of its ancestors is shared with. Single
 * resources read the membership items themselves, consistently, with the items of the groups whose
 * shares count; lists may take the levels from the user's own membership lists (see
 * membershipLevelsOf).
 */

import { ACCESS } from '#domain/access.ts';
import { type GroupShare, invitedGroupIds, levelThroughShares, sharesOf } from '#domain/group-shares.ts';
import type { Group } from '#domain/groups.ts';
import { isMembershipActive } from '#domain/members.ts';
import { NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import { type ReadScope, seesOpenly } from '#domain/read-scope.ts';
import { decodeGroup } from '../groups/group-items.ts';
import { decodeProject, namespacesOf } from '../projects/project-items.ts';
import { type BatchReadOptions, batchGetItems, isAtOneOf, type Key, keyString } from '../table/batch.ts';
import { getLiveItem, namesSameNamespaces, type RouteOwner, resolveReference } from '../table/items.ts';
import { isAt, keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
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

/** The membership levels read from a user's lists; a kind is absent when it has too many to read. */
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
 * user's list. Membership items are small: a thousand of them is one Query of about 40 read
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
 * A user's membership levels from their own membership lists, for the `permissions` shown in
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
 * A user's access to each project: from their membership levels where those were read; the
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

/** The shares kept by the live items among `items` of the groups `holderIds`. */
function sharesHeldBy(items: Raw[], holderIds: readonly number[]): GroupShare[] {
  const holders = new Set(holderIds);
  return items
    .filter((item) => item.kind === 'group' && !item.deleting && holders.has(Number(item.id)))
    .flatMap((item) => sharesOf(item as { shared_with_groups?: GroupShare[] }));
}

/** Items already read for a user (a read-ahead): their keys, and what was found. */
interface ReadBefore {
  keys: Key[];
  items: Raw[];
}

/**
 * A user's membership items for `memberKeys`, and the shares of the groups `holderIds` (the
 * groups above what is asked for, whose shares with other groups reach it) with the user's
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
  /** The items found at the keys `with` named, when they were read with the project. */
  with?: Raw[];
}

/** What a read-ahead may use to fold its reads into the credential's read. */
export interface CredentialBatch {
  /** The user the presented credential belonged to when this container last saw it. */
  likelyUserId: number | undefined;
  /** Reads these keys in one batch with the credential. */
  readWithCredential: (keys: Key[], options?: BatchReadOptions) => Promise<Raw[]>;
}

/** What a project's read-ahead reads besides the project and the memberships. */
export interface ProjectAheadOptions {
  /** False: the project comes without its counters (its counts read 0), for a route showing none. */
  counters?: boolean;
  /** Other keys read in the same batch, for a numeric id (a path reads the project first). */
  with?: (projectId: number) => Key[];
}

/**
 * Reads a project by id or path. For an id, in one batch with the credential and, when this
 * container has seen both the credential and the project before, with the likely caller's
 * memberships that decided access to it.
 */
export async function lookupProjectAhead(
  idOrPath: string | number,
  ahead: CredentialBatch,
  options: ProjectAheadOptions = {},
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
  const withKeys = options.with?.(id) ?? [];
  const items = await ahead.readWithCredential([keys.project(id), ...memberKeys, ...withKeys], {
    counters: options.counters,
  });
  const item = items.find((candidate) => isAt(candidate, keys.project(id)));
  const isWith = isAtOneOf(withKeys);
  return {
    item: item && !item.deleting ? item : undefined,
    memberships:
      userId === undefined || !groupIds
        ? undefined
        : {
            userId,
            keys: memberKeys,
            items: items.filter((candidate) => candidate !== item && !isWith(candidate)),
          },
    ...(options.with ? { with: items.filter(isWith) } : {}),
  };
}

/**
 * The project read and the reader's access to it (none for a reader who is no member: anonymous);
 * undefined when there is no project to name. Whether the reader may see it is not decided here.
 * The memberships read ahead count when they were read for this reader; whatever access depends
 * on and was not read is read now, in one batch.
 */
export async function projectWithAccess(
  read: Promise<ProjectReadAhead>,
  scope: ReadScope,
): Promise<{ project: Project; access: ProjectAccess } | undefined> {
  const { item, memberships } = await read;
  if (!item) return undefined;
  const project = decodeProject(item);
  const holderIds = project.namespace.group_ids;
  readAhead.rememberShareHolders(project.id, holderIds);
  const userId = scope.memberId;
  if (userId === undefined) {
    readAhead.rememberAccessGroups(project.id, accessGroupIds(project));
    return { project, access: NO_ACCESS };
  }
  const ahead = memberships?.userId === userId ? memberships : undefined;
  const memberKeys = membershipKeys(userId, [project]);
  const { items, groupShares } = await readWithGroupShares(userId, memberKeys, holderIds, ahead);
  readAhead.rememberAccessGroups(project.id, [...accessGroupIds(project), ...invitedGroupIds(groupShares)]);
  return { project, access: accessWith(levelsFrom(items), project, userId, groupShares) };
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
 * A user's access to a group: the highest of their memberships in the group and its ancestors
 * (GitLab's inherited membership) and of the groups shared with them (see inheritedLevel).
 */
export const groupAccessOf = (userId: number, group: Group) => inheritedLevel(userId, group);

/**
 * The group read (by reference, or the item being read) and the reader's inherited access to it;
 * undefined when there is no group to name. Whether the reader may see it is not decided here.
 */
export async function groupWithAccess(
  reference: string | number | Promise<Raw | undefined>,
  scope: ReadScope,
  options: { levelWanted?: boolean } = {},
): Promise<{ group: Group; access: number } | undefined> {
  const item = await (typeof reference === 'object' ? reference : lookupGroup(reference));
  if (!item) return undefined;
  const group = decodeGroup(item);
  // Who sees all acts with owner access everywhere (no membership read). A route that only needs
  // the group to be readable skips the memberships when its visibility alone decides (access 0).
  const access = scope.seesAll
    ? ACCESS.owner
    : scope.memberId === undefined || (options.levelWanted === false && seesOpenly(scope, group.visibility))
      ? 0
      : await inheritedLevel(scope.memberId, group);
  return { group, access };
}

/** A user's direct membership level in each of the given groups. */
export const directAccessTo = (userId: number, groups: Group[]) =>
  groupLevels(
    userId,
    groups.map((group) => group.id),
  );
