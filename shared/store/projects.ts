/**
 * Projects. A project item joins the list of its visibility (`l1`) and its namespace's list
 * (`l2`); its full path (a route item) and its name within the namespace are unique items written
 * in the same transaction. Members, stars and shares live in the project's partition; stars and
 * shares also keep counters / the denormalised `shared_with_groups` in the same transaction.
 */
import { randomBytes } from 'node:crypto';
import { ACCESS, VISIBILITIES, type Visibility } from '#domain/access.ts';
import { ApiError, conflict, notFound, validationFailed } from '#domain/errors.ts';
import { isMembershipActive } from '#domain/members.ts';
import type { PageRequest } from '#domain/pagination.ts';
import {
  canReadProject,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  type ProjectNamespace,
  type ProjectShare,
  placedIn,
} from '#domain/projects.ts';
import { searchTextChanged } from '#domain/search.ts';
import type { Caller } from '#domain/users.ts';
import { batchGetItems, type Key } from './batch.ts';
import { tableName } from './client.ts';
import {
  activeGroupMemberships,
  type GroupMembership,
  membershipsOfUser,
  placeOf,
  readSubtrees,
  readSubtreesUpTo,
  type TreePlace,
} from './groups.ts';
import { nextId } from './ids.ts';
import { getItem, namesSameNamespaces, type RouteOwner, readPartition, resolveReference } from './items.ts';
import { keys, lists, sortAttributes, stripStorage, tree } from './keys.ts';
import {
  type ListPage,
  type ListRef,
  listCountChange,
  listMerged,
  readListCount,
  readListHead,
  readWholeList,
} from './lists.ts';
import { deleteMember, insertMember, replaceMember } from './memberships.ts';
import { readAhead } from './read-ahead.ts';
import { searchPendingPut } from './search-index.ts';
import { ConditionFailed, type TransactItem, transact } from './transact.ts';

type Raw = Record<string, unknown>;
const NEW_ITEM = 'attribute_not_exists(pk)';
const RESOURCE_LOCK = '409 Conflict: Resource lock';
/** Someone changed the project between our read and our write: read again and retry. */
const isLockLost = (error: unknown) =>
  error instanceof ApiError && (error.body as { message?: unknown }).message === RESOURCE_LOCK;
/** Attempts at a read-change-write before a lost race is reported as 409. */
const MAX_ATTEMPTS = 10;
/** A short random pause before the next attempt, so racing writers stop colliding in lockstep. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 5)));

export function decodeProject(item: Raw): Project {
  const {
    kind: _kind,
    deleting: _deleting,
    ...project
  } = stripStorage<Project & { kind: string; deleting?: boolean }>(item);
  return project;
}

function projectItem(project: Project): Raw {
  return {
    ...keys.project(project.id),
    ...project,
    kind: 'project',
    l1: lists.projectsWithVisibility(project.visibility),
    l2: lists.namespaceProjects(project.namespace.id, project.visibility),
    ...sortAttributes({
      id: project.id,
      name: project.name,
      path: project.path,
      created_at: project.created_at,
      updated_at: project.updated_at,
      last_activity_at: project.last_activity_at,
    }),
    ...tree.project(project.namespace.group_ids, project.id, project.visibility),
  };
}

/** Counters moved by ADD in their own transactions (stars): whole-item writes leave them alone. */
const COUNTERS = new Set(['star_count']);

/**
 * Writes a project item as a Put would, except its counters: a star that lands between our read
 * and this write is not undone by the stale count we read.
 */
function writeProjectItem(
  project: Project,
  ConditionExpression: string,
  values: Record<string, unknown>,
): TransactItem {
  const names: Record<string, string> = {};
  const attributeValues: Record<string, unknown> = { ...values };
  const sets: string[] = [];
  const removals: string[] = [];
  Object.entries(projectItem(project)).forEach(([name, value], index) => {
    if (name === 'pk' || name === 'sk' || COUNTERS.has(name)) return;
    names[`#a${index}`] = name;
    if (value === undefined) removals.push(`#a${index}`);
    else {
      sets.push(`#a${index} = :a${index}`);
      attributeValues[`:a${index}`] = value;
    }
  });
  return {
    Update: {
      TableName: tableName(),
      Key: keys.project(project.id),
      UpdateExpression: `SET ${sets.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: attributeValues,
    },
  };
}

const routeItem = (project: Project): Raw => ({
  ...keys.route(project.path_with_namespace),
  kind: 'project',
  id: project.id,
  full_path: project.path_with_namespace,
});
const nameItem = (project: Project): Raw => ({
  ...keys.projectName(project.namespace.id, project.name),
  kind: 'project_name',
  id: project.id,
});
const put = (Item: Raw, ConditionExpression?: string): TransactItem => ({
  Put: { TableName: tableName(), Item, ...(ConditionExpression ? { ConditionExpression } : {}) },
});
const remove = (Key: { pk: string; sk: string }, ConditionExpression?: string): TransactItem => ({
  Delete: { TableName: tableName(), Key, ...(ConditionExpression ? { ConditionExpression } : {}) },
});

export interface ProjectMember {
  project_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_at: string;
  created_by_id: number | null;
}

function memberItem(member: ProjectMember) {
  return {
    ...keys.projectMember(member.project_id, member.user_id),
    ...member,
    kind: 'project_member',
    l1: lists.projectMembers(member.project_id),
    l2: lists.projectMembershipsOfUser(member.user_id),
    ...sortAttributes({ id: member.user_id, created_at: member.created_at }),
  };
}

const decodeMember = (item: Raw): ProjectMember => ({
  project_id: Number(item.project_id),
  user_id: Number(item.user_id),
  access_level: Number(item.access_level),
  expires_at: (item.expires_at as string | null) ?? null,
  created_at: String(item.created_at),
  created_by_id: (item.created_by_id as number | null) ?? null,
});

export const newRunnersToken = () => randomBytes(10).toString('hex');

/**
 * The namespace a project is placed in changed its path or name (or went away) after it was read:
 * the write was refused, so the database orders every placement after every rename.
 */
export class NamespaceMoved extends Error {
  constructor(readonly namespaceId: number) {
    super('namespace moved');
    this.name = 'NamespaceMoved';
  }
}

/**
 * A condition that the namespace is still where the project is being placed: the group's (or the
 * user's) current path and name, and not being deleted. Every write that places a project (create,
 * transfer, following a rename) carries it.
 */
function namespaceCheck(namespace: ProjectNamespace): TransactItem {
  const group = namespace.kind === 'group';
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: group ? keys.group(namespace.id) : keys.user(namespace.owner_id as number),
      ConditionExpression: group
        ? 'attribute_exists(pk) AND attribute_not_exists(deleting) AND full_path = :path AND full_name = :name'
        : 'attribute_exists(pk) AND username = :path AND #name = :name',
      ...(group ? {} : { ExpressionAttributeNames: { '#name': 'name' } }),
      ExpressionAttributeValues: {
        ':path': namespace.full_path,
        ':name': group ? (namespace.full_name ?? namespace.name) : namespace.name,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A failed namespace check: gone (404) or moved (NamespaceMoved, to place the project again). */
function namespaceFailure(error: ConditionFailed, index: number, namespace: ProjectNamespace) {
  const current = error.items[index];
  return current && !current.deleting ? new NamespaceMoved(namespace.id) : notFound('Namespace');
}

export type NewProject = Omit<Project, 'id' | 'created_at' | 'updated_at' | 'last_activity_at'>;

/** Which of the uniqueness items failed, as ActiveRecord errors. */
function takenErrors(error: ConditionFailed, routeIndex: number, nameIndex: number): ApiError | undefined {
  const errors: Record<string, string[]> = {};
  if (nameIndex >= 0 && error.failedAt(nameIndex)) errors.name = ['has already been taken'];
  if (routeIndex >= 0 && error.failedAt(routeIndex)) errors.path = ['has already been taken'];
  return Object.keys(errors).length ? validationFailed(errors) : undefined;
}

/** Creates a project; a personal project's owner becomes its member with owner access. */
export async function createProject(fields: NewProject, ownerMemberId: number | null): Promise<Project> {
  const now = new Date().toISOString();
  const project: Project = {
    ...fields,
    id: await nextId('project'),
    created_at: now,
    updated_at: now,
    last_activity_at: now,
  };
  const items: TransactItem[] = [
    put(projectItem(project), NEW_ITEM),
    put(routeItem(project), NEW_ITEM),
    put(nameItem(project), NEW_ITEM),
    namespaceCheck(project.namespace),
    listCountChange(lists.projectsWithVisibility(project.visibility), 1),
    listCountChange(lists.namespaceProjects(project.namespace.id, project.visibility), 1),
    searchPendingPut(project.id),
  ];
  if (ownerMemberId !== null) {
    items.push(
      put(
        memberItem({
          project_id: project.id,
          user_id: ownerMemberId,
          access_level: ACCESS.owner,
          expires_at: null,
          created_at: now,
          created_by_id: ownerMemberId,
        }),
      ),
      listCountChange(lists.projectMembers(project.id), 1),
      listCountChange(lists.projectMembershipsOfUser(ownerMemberId), 1),
    );
  }
  try {
    await transact(items);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      throw takenErrors(error, 1, 2) ?? namespaceFailure(error, 3, project.namespace);
    }
    throw error;
  }
  return project;
}

export const getProjectRaw = (id: number) => getItem(keys.project(id));

export async function getProject(id: number): Promise<Project | undefined> {
  const item = await getProjectRaw(id);
  return item && !item.deleting ? decodeProject(item) : undefined;
}

/** A project by numeric id or (case-insensitive) full path `namespace/project`. */
export async function findProject(idOrPath: string | number): Promise<Project | undefined> {
  const item = await lookupProject(idOrPath);
  return item ? decodeProject(item) : undefined;
}

/** The namespaces a project's path names, root first: its groups, or its owner. */
const namespacesOf = (item: Raw): RouteOwner[] => {
  const namespace = item.namespace as ProjectNamespace;
  return namespace.kind === 'group'
    ? namespace.group_ids.map((id) => ({ kind: 'group', id }))
    : [{ kind: 'user', id: Number(namespace.owner_id) }];
};

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

function levelsFrom(items: Raw[]): MembershipLevels {
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

/** A user's direct membership levels: projects and groups (subgroups inherit from these). */
export interface MembershipLevels {
  projects: Map<number, number>;
  groups: Map<number, number>;
}

export function accessWith(levels: MembershipLevels, project: Project, userId: number): ProjectAccess {
  const levelIn = (ids: number[]) =>
    ids.reduce((highest, id) => Math.max(highest, levels.groups.get(id) ?? 0), 0);
  return {
    project: levels.projects.get(project.id) ?? 0,
    group: levelIn(project.namespace.group_ids),
    shared: project.shared_with_groups
      .filter((share) => isMembershipActive(share.expires_at))
      .reduce(
        (highest, share) => Math.max(highest, Math.min(share.group_access_level, levelIn(share.group_ids))),
        0,
      ),
    namespaceOwner: project.namespace.owner_id === userId,
  };
}

/**
 * Above this many memberships of a kind, the page's membership keys are read instead of the
 * caller's list. Membership items are small: a thousand of them is one Query of about 40 read
 * units of 4 KB (≈ 19 RCU eventually consistent), less than a consistent batch read of a page's
 * keys (1 RCU per key, 40–200 keys a page), and it leaves no round trip for after the page.
 */
const MAX_LISTED_MEMBERSHIPS = 1000;

/** The membership levels read from the caller's lists; a kind is absent when it has too many to read. */
export type KnownLevels = Partial<MembershipLevels>;

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
  const read = async (list: string) => {
    const items = await readListHead('l2', list, 'id', 'asc', MAX_LISTED_MEMBERSHIPS + 1);
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
  };
  return new Map(projects.map((project) => [project.id, accessWith(all, project, userId)]));
}

/** A project item by id or full path (a route read first for paths); undefined when absent or being deleted. */
export async function lookupProject(idOrPath: string | number): Promise<Raw | undefined> {
  const reference = await resolveReference(idOrPath, 'project');
  const item = reference && (await getProjectRaw(reference.id));
  if (!item || item.deleting) return undefined;
  // A path whose namespaces are no longer the project's (deleted or renamed) names nothing.
  return reference && namesSameNamespaces(reference.above, namespacesOf(item)) ? item : undefined;
}

/** A project read ahead (see read-ahead.ts): the item and the memberships read with it, if any. */
export interface ProjectReadAhead {
  item: Raw | undefined;
  memberships?: { userId: number; keys: Key[]; items: Raw[] };
}

/**
 * Reads a project by id or path. For an id, in one batch with the credential and, when this
 * container has seen both the credential and the project before, with the likely caller's
 * memberships that decided access to it.
 */
export async function lookupProjectAhead(
  idOrPath: string | number,
  ahead: { likelyUserId: number | undefined; readWithCredential: (keys: Key[]) => Promise<Raw[]> },
): Promise<ProjectReadAhead> {
  if (!/^\d+$/.test(String(idOrPath))) return { item: await lookupProject(idOrPath) };
  const id = Number(idOrPath);
  const userId = ahead.likelyUserId;
  const groupIds = readAhead.likelyAccessGroups(id);
  const memberKeys =
    userId === undefined || !groupIds
      ? []
      : [keys.projectMember(id, userId), ...groupIds.map((groupId) => keys.groupMember(groupId, userId))];
  const items = await ahead.readWithCredential([keys.project(id), ...memberKeys]);
  const item = items.find((candidate) => candidate.sk === 'PROJECT');
  return {
    item: item && !item.deleting ? item : undefined,
    memberships:
      userId === undefined || !groupIds
        ? undefined
        : { userId, keys: memberKeys, items: items.filter((candidate) => candidate !== item) },
  };
}

/**
 * `readableProject` for a project read ahead: the memberships read with it count when they were
 * read for this caller; whatever access now depends on and was not read is read now.
 */
export async function readableProjectAhead(
  read: Promise<ProjectReadAhead>,
  caller: Caller | undefined,
): Promise<{ project: Project; access: ProjectAccess }> {
  const { item, memberships } = await read;
  if (!item) throw notFound('Project');
  const project = decodeProject(item);
  readAhead.rememberAccessGroups(project.id, accessGroupIds(project));
  let access = NO_ACCESS;
  if (caller) {
    const ahead = memberships?.userId === caller.id ? memberships : undefined;
    const have = new Set(ahead?.keys.map((key) => `${key.pk}|${key.sk}`));
    const missing = membershipKeys(caller.id, [project]).filter((key) => !have.has(`${key.pk}|${key.sk}`));
    const items = [...(ahead?.items ?? []), ...(missing.length ? await batchGetItems(missing) : [])];
    access = accessWith(levelsFrom(items), project, caller.id);
  }
  if (!canReadProject(project, caller, access)) throw notFound('Project');
  return { project, access };
}

/**
 * The project a caller asked for and their access; 404 `Project Not Found` when not visible. The
 * project comes from a reference, or from a lookup already under way (a route's prefetch); the
 * caller's access is one batch read of every membership that could grant it.
 */
export function readableProject(
  reference: string | number | Promise<Raw | undefined>,
  caller: Caller | undefined,
): Promise<{ project: Project; access: ProjectAccess }> {
  const item = typeof reference === 'object' ? reference : lookupProject(reference);
  return readableProjectAhead(
    item.then((found) => ({ item: found })),
    caller,
  );
}

/**
 * Writes a changed project, guarded by its previous `updated_at`. A new path or name moves the
 * route and name items in the same transaction, so a clash fails before anything changes.
 */
export async function saveProject(previous: Project, next: Project): Promise<Project> {
  const items: TransactItem[] = [
    writeProjectItem(next, 'updated_at = :previous AND attribute_not_exists(deleting)', {
      ':previous': previous.updated_at,
    }),
  ];
  let routeIndex = -1;
  let nameIndex = -1;
  if (next.path_with_namespace.toLowerCase() !== previous.path_with_namespace.toLowerCase()) {
    routeIndex = items.push(put(routeItem(next), NEW_ITEM)) - 1;
    items.push(remove(keys.route(previous.path_with_namespace)));
  } else if (next.path_with_namespace !== previous.path_with_namespace) {
    items.push(put(routeItem(next)));
  }
  const nameMoved =
    next.name.toLowerCase() !== previous.name.toLowerCase() || next.namespace.id !== previous.namespace.id;
  if (nameMoved) {
    nameIndex = items.push(put(nameItem(next), NEW_ITEM)) - 1;
    items.push(remove(keys.projectName(previous.namespace.id, previous.name)));
  }
  if (next.visibility !== previous.visibility) {
    items.push(listCountChange(lists.projectsWithVisibility(previous.visibility), -1));
    items.push(listCountChange(lists.projectsWithVisibility(next.visibility), 1));
  }
  if (next.namespace.id !== previous.namespace.id || next.visibility !== previous.visibility) {
    items.push(listCountChange(lists.namespaceProjects(previous.namespace.id, previous.visibility), -1));
    items.push(listCountChange(lists.namespaceProjects(next.namespace.id, next.visibility), 1));
  }
  if (searchTextChanged(previous, next)) items.push(searchPendingPut(next.id));
  // A new place (another namespace, or the namespace's new path or name) is checked against the
  // namespace as it is now, so a placement never lands after a rename with the old path.
  const placed =
    next.namespace.id !== previous.namespace.id ||
    next.path_with_namespace !== previous.path_with_namespace ||
    next.name_with_namespace !== previous.name_with_namespace;
  const namespaceIndex = placed ? items.push(namespaceCheck(next.namespace)) - 1 : -1;
  try {
    await transact(items);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      const taken = takenErrors(error, routeIndex, nameIndex);
      if (taken) throw taken;
      if (namespaceIndex >= 0 && error.failedAt(namespaceIndex))
        throw namespaceFailure(error, namespaceIndex, next.namespace);
      throw conflict(RESOURCE_LOCK);
    }
    throw error;
  }
  return next;
}

/** Saves with a fresh read on a concurrent change, for changes computed from the current state. */
export function updateProject(id: number, change: (project: Project) => Project): Promise<Project> {
  return withFreshProject(id, undefined, (current) => saveProject(current, change(current)));
}

/**
 * Runs a write computed from the project's state; when someone saved the project in between
 * (the write's `updated_at` guard failed), reads it again and retries with a growing pause.
 */
async function withFreshProject<T>(
  id: number,
  known: Project | undefined,
  write: (project: Project) => Promise<T>,
) {
  let current = known;
  for (let attempt = 0; ; attempt++) {
    current ??= await getProject(id);
    if (!current) throw notFound('Project');
    try {
      return await write(current);
    } catch (error) {
      if (!isLockLost(error) || attempt >= MAX_ATTEMPTS - 1) throw error;
      await backoff(attempt);
      current = undefined;
    }
  }
}

/** Re-places every project of a namespace after the namespace changed (path, name, visibility, locks). */
export async function moveNamespaceProjects(namespace: ProjectNamespace): Promise<void> {
  try {
    for (const item of await namespaceProjectsRaw(namespace.id)) {
      await updateProject(Number(item.id), (project) =>
        project.namespace.id === namespace.id ? { ...project, ...placedIn(namespace, project) } : project,
      );
    }
  } catch (error) {
    // The namespace moved again since it was read: the later change re-places every project.
    if (!(error instanceof NamespaceMoved)) throw error;
  }
}

// Stars ---------------------------------------------------------------------------------------------

/**
 * Stars or unstars a project; false when there was nothing to change. The star item and the
 * project's counter change in one transaction, so concurrent stars keep `star_count` exact.
 */
export async function setStar(project: Project, userId: number, starred: boolean): Promise<boolean> {
  const starItem: TransactItem = starred
    ? put(
        {
          ...keys.projectStar(project.id, userId),
          kind: 'star',
          project_id: project.id,
          user_id: userId,
          created_at: new Date().toISOString(),
          l1: lists.projectStars(project.id),
          l2: lists.starredByUser(userId),
          ...sortAttributes({ id: project.id }),
        },
        NEW_ITEM,
      )
    : remove(keys.projectStar(project.id, userId), 'attribute_exists(pk)');
  try {
    await transact([
      starItem,
      {
        Update: {
          TableName: tableName(),
          Key: keys.project(project.id),
          UpdateExpression: 'ADD star_count :delta',
          ConditionExpression: starred
            ? 'attribute_exists(pk) AND attribute_not_exists(deleting)'
            : 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':delta': starred ? 1 : -1 },
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (error.failedAt(0)) return false;
      throw notFound('Project');
    }
    throw error;
  }
}

export async function starredProjectIds(userId: number): Promise<number[]> {
  const { items } = await readWholeList('l2', lists.starredByUser(userId));
  return items.map((item) => Number(item.project_id));
}

// Shares --------------------------------------------------------------------------------------------

export interface ProjectGroupLink {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

/**
 * Shares a project with a group: the link item and the project's `shared_with_groups` change in
 * one transaction, guarded by the project's `updated_at` so concurrent shares don't lose each other.
 */
export function shareProject(project: Project, share: ProjectShare): Promise<ProjectGroupLink> {
  return withFreshProject(project.id, project, (current) => writeShare(current, share));
}

async function writeShare(project: Project, share: ProjectShare): Promise<ProjectGroupLink> {
  const link: ProjectGroupLink = {
    id: await nextId('project_group_link'),
    project_id: project.id,
    group_id: share.group_id,
    group_access: share.group_access_level,
    expires_at: share.expires_at,
  };
  const next: Project = {
    ...project,
    shared_with_groups: [...project.shared_with_groups, share],
    updated_at: new Date().toISOString(),
  };
  try {
    await transact([
      put(
        {
          ...keys.projectShare(project.id, share.group_id),
          ...link,
          kind: 'project_share',
          l1: lists.sharedWithGroup(share.group_id),
          ...sortAttributes({ id: project.id }),
          ...tree.project(share.group_ids, project.id),
        },
        NEW_ITEM,
      ),
      writeProjectItem(next, 'updated_at = :previous AND attribute_not_exists(deleting)', {
        ':previous': project.updated_at,
      }),
      listCountChange(lists.sharedWithGroup(share.group_id), 1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (error.failedAt(0)) throw conflict('Group already shared with this group');
      throw conflict(RESOURCE_LOCK);
    }
    throw error;
  }
  return link;
}

export function unshareProject(project: Project, groupId: number): Promise<void> {
  return withFreshProject(project.id, project, (current) => removeShare(current, groupId));
}

async function removeShare(project: Project, groupId: number): Promise<void> {
  const next: Project = {
    ...project,
    shared_with_groups: project.shared_with_groups.filter((share) => share.group_id !== groupId),
    updated_at: new Date().toISOString(),
  };
  try {
    await transact([
      remove(keys.projectShare(project.id, groupId), 'attribute_exists(pk)'),
      writeProjectItem(next, 'updated_at = :previous', { ':previous': project.updated_at }),
      listCountChange(lists.sharedWithGroup(groupId), -1),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (error.failedAt(0)) throw notFound('Group Link');
      throw conflict(RESOURCE_LOCK);
    }
    throw error;
  }
}

// Members -------------------------------------------------------------------------------------------

export async function getProjectMember(
  projectId: number,
  userId: number,
): Promise<ProjectMember | undefined> {
  const item = await getItem(keys.projectMember(projectId, userId));
  return item ? decodeMember(item) : undefined;
}

export async function listProjectMembers(projectId: number): Promise<ProjectMember[]> {
  const { items } = await readWholeList('l1', lists.projectMembers(projectId));
  return items.map(decodeMember);
}

export async function addProjectMember(member: ProjectMember): Promise<ProjectMember> {
  await insertMember(memberItem(member), member.user_id);
  return member;
}

export async function updateProjectMember(member: ProjectMember): Promise<ProjectMember> {
  await replaceMember(memberItem(member));
  return member;
}

export function removeProjectMember(projectId: number, userId: number): Promise<void> {
  return deleteMember(
    keys.projectMember(projectId, userId),
    lists.projectMembers(projectId),
    lists.projectMembershipsOfUser(userId),
  );
}

// Lists ---------------------------------------------------------------------------------------------

export async function getProjectsRaw(ids: number[]): Promise<Raw[]> {
  const items = await batchGetItems(ids.map((id) => keys.project(id)));
  return items.filter((item) => !item.deleting);
}

export interface ProjectListQuery {
  visibilities: ('public' | 'internal' | 'private')[];
  extra: Raw[] | Promise<Raw[]>;
  order: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
  filter?: (project: Project) => boolean;
}

export function listProjects(query: ProjectListQuery): Promise<ListPage<Project>> {
  return listMerged({
    partitions: query.visibilities.map(lists.projectsWithVisibility),
    extra: query.extra,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeProject,
    filter: query.filter,
  });
}

/** Every project of a namespace (raw items). */
export async function namespaceProjectsRaw(
  namespaceId: number,
  visibilities: readonly Visibility[] = VISIBILITIES,
): Promise<Raw[]> {
  const parts = await Promise.all(
    visibilities.map((visibility) => readWholeList('l2', lists.namespaceProjects(namespaceId, visibility))),
  );
  return parts.flatMap((part) => part.items).filter((item) => !item.deleting);
}

/** Projects shared with a group (raw items). */
export async function projectsSharedWith(groupId: number): Promise<Raw[]> {
  const { items } = await readWholeList('l1', lists.sharedWithGroup(groupId));
  return getProjectsRaw(items.map((item) => Number(item.project_id)));
}

/** The group ids of a tree path, root first (`…01/…05/S…09` → [1, 5]). */
const groupIdsOfPath = (path: unknown) => String(path).split('/').slice(0, -1).map(Number);

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
    readWholeList('l2', lists.projectMembershipsOfUser(userId)),
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
      raise(Number(item.id), inheritedLevel(groupIdsOfPath(item.tpath)));
    } else if (item.kind === 'project_share' && isMembershipActive(item.expires_at)) {
      raise(
        Number(item.project_id),
        Math.min(Number(item.group_access), inheritedLevel(groupIdsOfPath(item.tpath))),
      );
    }
  }
  const missing = [...levels.keys()].filter((id) => !found.has(id));
  for (const item of await getProjectsRaw(missing)) found.set(Number(item.id), item);
  const memberships: MembershipLevels = {
    projects: new Map(activeDirect.map((item) => [Number(item.project_id), Number(item.access_level)])),
    groups: memberLevel,
  };
  return { raw: [...found.values()], levels, memberships };
}

/**
 * Above this many groups in a user's member subtrees, their hidden projects are read whole from
 * the tree index instead of one list per group (a Query per group would cost more than that).
 */
const MAX_GROUP_LISTS = 50;
/**
 * When the membership lists could not be read ahead, the member subtrees' hidden projects are
 * also read from the tree index, up to this many, beside the subtrees' groups: when that is all
 * of them the subgroups' lists need no further round trip.
 */
const SMALL_SUBTREE = 100;

/** A user's active memberships, completing a kind the capped read left out. */
async function activeMemberships(
  read: Promise<MembershipLists>,
): Promise<{ projects: Raw[]; groups: GroupMembership[] }> {
  const known = await read;
  const [projects, groups] = await Promise.all([
    known.projects ?? readWholeList('l2', lists.projectMembershipsOfUser(known.userId)).then((r) => r.items),
    known.groups ? activeGroupMemberships(known.groups) : membershipsOfUser(known.userId),
  ]);
  return { projects: projects.filter((item) => isMembershipActive(item.expires_at)), groups };
}

/**
 * One page of GET /projects for a signed-in user without filters: the public (and internal)
 * lists and, for the hidden visibilities, the lists of every group in the subtrees of the
 * caller's groups, each read only to the end of the page and counted by its counter; merged
 * with the hidden projects reached through a direct membership or a share, read whole (they are
 * the caller's own). After the membership lists: the member groups' lists, their subtrees'
 * groups and shares and the direct projects, together; then the subgroups' lists beside the
 * shared projects. The caller's membership levels come with it (for `permissions`).
 */
export async function listReachableProjects(query: {
  caller: Caller;
  order: ProjectListQuery['order'];
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The caller's membership lists, when read ahead (see readMembershipLists). */
  memberships?: Promise<MembershipLists>;
}): Promise<ListPage<Project> & { levels: MembershipLevels }> {
  const { caller } = query;
  const visible: Visibility[] = caller.external ? ['public'] : ['public', 'internal'];
  const hidden = VISIBILITIES.filter((visibility) => !visible.includes(visibility));
  const memberships = activeMemberships(query.memberships ?? readMembershipLists(caller.id));
  const listsOf = (groupIds: number[]): ListRef[] =>
    groupIds.flatMap((id) =>
      hidden.map((visibility) => ({
        list: 'l2' as const,
        partition: lists.namespaceProjects(id, visibility),
      })),
    );
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
  // Read from the tree beside the groups, or never (membership lists read ahead: a round to spare).
  const small = query.memberships
    ? Promise.resolve({ items: [], complete: false })
    : places.then((known) => hiddenSubtrees(known, SMALL_SUBTREE));
  small.catch(() => undefined);
  const perGroup = Promise.all([memberGroupIds, subtreeGroupIds]).then(
    ([own, ids]) => own.length <= MAX_GROUP_LISTS && ids.length <= MAX_GROUP_LISTS,
  );
  const subgroupLists = Promise.all([memberGroupIds, subtreeGroupIds, perGroup, small]).then(
    ([own, ids, listed, whole]) =>
      listed && !whole.complete ? listsOf(ids.filter((id) => !own.includes(id))) : [],
  );
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
    const [shares, directProjects] = await Promise.all([
      readSubtrees(known, tree.shares),
      getProjectsRaw(directIds),
    ]);
    const sharedIds = shares
      .filter((item) => isMembershipActive(item.expires_at))
      .map((item) => Number(item.project_id))
      .filter((id) => !directIds.includes(id));
    const [inSubtrees, shared] = await Promise.all([subtrees, getProjectsRaw([...new Set(sharedIds)])]);
    return [...directProjects, ...inSubtrees, ...shared].filter((item) =>
      hidden.includes(item.visibility as Visibility),
    );
  })();
  extra.catch(() => undefined);
  const page = await listMerged({
    partitions: visible.map(lists.projectsWithVisibility),
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
  const { projects, groups } = await memberships;
  return {
    ...page,
    levels: {
      projects: levelsFrom(projects).projects,
      groups: new Map(groups.map((m) => [m.groupId, m.accessLevel])),
    },
  };
}

// Removal -------------------------------------------------------------------------------------------

/**
 * Removes a project and everything in its partition (members, stars, shares) with its route and
 * name items and counters. Each step is conditional, so running it twice is harmless.
 */
export async function purgeProject(projectId: number): Promise<void> {
  const item = await getProjectRaw(projectId);
  if (!item) return;
  const project = decodeProject(item);
  for (const child of await readPartition(keys.project(projectId).pk)) {
    if (child.sk !== 'PROJECT') await purgeChild(child);
  }
  // The path and name may already belong to a newer project: remove them only while they are ours.
  for (const Key of [
    keys.route(project.path_with_namespace),
    keys.projectName(project.namespace.id, project.name),
  ]) {
    try {
      await transact([
        {
          Delete: {
            TableName: tableName(),
            Key,
            ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
            ExpressionAttributeValues: { ':id': projectId },
          },
        },
      ]);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  try {
    await transact([
      remove(keys.project(projectId), 'attribute_exists(pk)'),
      ...(item.l1 !== undefined
        ? [
            listCountChange(lists.projectsWithVisibility(project.visibility), -1),
            listCountChange(lists.namespaceProjects(project.namespace.id, project.visibility), -1),
          ]
        : []),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

async function purgeChild(child: Raw): Promise<void> {
  const key = { pk: String(child.pk), sk: String(child.sk) };
  const counters: TransactItem[] = [];
  if (child.kind === 'project_member') {
    counters.push(
      listCountChange(lists.projectMembers(Number(child.project_id)), -1),
      listCountChange(lists.projectMembershipsOfUser(Number(child.user_id)), -1),
    );
  } else if (child.kind === 'project_share') {
    counters.push(listCountChange(lists.sharedWithGroup(Number(child.group_id)), -1));
  } else if (child.kind === 'search_posting') {
    counters.push(listCountChange(lists.searchPostings(String(child.search_key)), -1));
  }
  try {
    await transact([remove(key, 'attribute_exists(pk)'), ...counters]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/** Ids of every user with access: direct members, members of the namespace groups and of shared groups. */
export async function usersWithAccess(project: Project): Promise<number[]> {
  const shares = project.shared_with_groups.filter((share) => isMembershipActive(share.expires_at));
  const groupIds = [
    ...new Set([...project.namespace.group_ids, ...shares.flatMap((share) => share.group_ids)]),
  ];
  const [direct, ...groups] = await Promise.all([
    readWholeList('l1', lists.projectMembers(project.id)),
    ...groupIds.map((groupId) => readWholeList('l1', lists.groupMembers(groupId))),
  ]);
  const ids = new Set<number>();
  for (const list of [direct, ...groups]) {
    for (const item of list?.items ?? [])
      if (isMembershipActive(item.expires_at)) ids.add(Number(item.user_id));
  }
  if (project.namespace.owner_id) ids.add(project.namespace.owner_id);
  return [...ids];
}

export interface NamespaceProjectsQuery {
  namespaceId: number;
  order: ProjectListQuery['order'];
  sort: 'asc' | 'desc';
  page: PageRequest;
  filter?: (project: Project) => boolean;
  /** Who asks: members and admins see every project, others the visible ones (see below). */
  caller: Caller | undefined;
  seesAll: boolean;
  /** The caller's membership levels when already being read (see membershipLevelsOf). */
  levels?: Promise<KnownLevels>;
}

/**
 * One page of a namespace's projects. The namespace's lists are split by visibility, so a caller
 * reads only the lists they may see, to the end of the page: everything for members and admins,
 * public (and internal) for others, plus the private projects a non-member reaches through a
 * project membership or a share, read beside those lists.
 */
export async function listNamespaceProjects(query: NamespaceProjectsQuery): Promise<ListPage<Project>> {
  const { caller, namespaceId } = query;
  let visibilities: Visibility[] = [...VISIBILITIES];
  let extra: Promise<Raw[]> | Raw[] = [];
  if (!query.seesAll) {
    visibilities = !caller ? ['public'] : caller.external ? ['public'] : ['public', 'internal'];
    if (caller) {
      extra = (async () => {
        const hidden = await namespaceProjectsRaw(
          namespaceId,
          caller.external ? ['internal', 'private'] : ['private'],
        );
        const projects = hidden.map(decodeProject);
        const access = await accessFromLevels(caller.id, projects, query.levels);
        return hidden.filter((_, index) => {
          const project = projects[index] as Project;
          return canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS);
        });
      })();
    }
  }
  return listMerged({
    list: 'l2',
    partitions: visibilities.map((visibility) => lists.namespaceProjects(namespaceId, visibility)),
    extra,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeProject,
    filter: query.filter,
  });
}

/** How many projects a namespace holds (for `projects_limit`). */
export async function namespaceProjectCount(namespaceId: number): Promise<number> {
  const counts = await Promise.all(
    VISIBILITIES.map((visibility) => readListCount(lists.namespaceProjects(namespaceId, visibility))),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Moves a project into another namespace: path, name, route and name items move in one transaction. */
export async function transferProject(project: Project, namespace: ProjectNamespace): Promise<Project> {
  return saveProject(project, {
    ...project,
    ...placedIn(namespace, project),
    updated_at: new Date().toISOString(),
  });
}
