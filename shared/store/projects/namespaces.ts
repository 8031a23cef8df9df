/**
 * Namespaces: a group is its own namespace (same id); a user's personal namespace gets an id from
 * the same sequence the first time it is needed, recorded on the user and in a namespace item.
 */
import { ACCESS, VISIBILITIES } from '#domain/access.ts';
import {
  ApiError,
  badRequest,
  forbidden,
  invalidParams,
  notFound,
  validationFailed,
} from '#domain/errors.ts';
import { canCreateProjectIn } from '#domain/group-policy.ts';
import { type Group, rubyErrorHash } from '#domain/groups.ts';
import { isMembershipActive } from '#domain/members.ts';
import {
  canReadNamespace,
  mayTransferInto,
  type NamespaceSource,
  namespaceMatchesSearch,
  type PresentableNamespace,
  showsMembersCount,
  suggestionCandidates,
  TRANSFER_REFUSALS,
} from '#domain/namespaces.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { atLeastOneOf } from '#domain/params.ts';
import {
  namespaceVisibilityError,
  newProjectFrom,
  type Project,
  type ProjectAccess,
  type ProjectAttributes,
  type ProjectNamespace,
} from '#domain/projects.ts';
import type { Caller, User } from '#domain/users.ts';
import { accessFromLevels, findProject, groupAccessOf, lookupGroup } from '../access/access.ts';
import { decodeGroup, getGroup, getGroupsRaw } from '../groups/group-items.ts';
import { batchGetItems } from '../table/batch.ts';
import { nextId } from '../table/ids.ts';
import { getItem, getLiveItem } from '../table/items.ts';
import { keys, lists, stripStorage, tree } from '../table/keys.ts';
import {
  type ListPage,
  listCountChange,
  listMerged,
  readSubtreeUpTo,
  readWholeList,
} from '../table/lists.ts';
import { commitUnlessDone, NEW_ITEM, put, retrying, update } from '../table/transaction.ts';
import { getUser, getUsers } from '../users/users.ts';
import { userNamespaceItem } from './namespace-items.ts';
import { NamespaceMoved, newRunnersToken } from './project-items.ts';
import { namespaceProjectCount } from './project-lists.ts';
import {
  createProject,
  moveNamespaceProjects,
  type NewProject,
  transferProject,
  withFreshProject,
} from './project-writes.ts';

type UserWithNamespace = User & { namespace_id?: number };

/** The user's namespace id, allocating it on first use. */
export async function personalNamespaceId(user: User): Promise<number> {
  const existing = (user as UserWithNamespace).namespace_id;
  if (existing) return existing;
  const id = await nextId('namespace');
  const allocated = await commitUnlessDone([
    update(keys.user(user.id), 'SET namespace_id = :id', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(namespace_id)',
      values: { ':id': id },
    }),
    put(userNamespaceItem(id, user.id), NEW_ITEM),
    listCountChange(lists.userNamespaces, 1),
  ]);
  if (allocated) return id;
  // Someone allocated it first (or the user is gone): the allocation is read back.
  const fresh = (await getUser(user.id)) as UserWithNamespace | undefined;
  if (!fresh?.namespace_id) throw notFound('User');
  return fresh.namespace_id;
}

export async function userNamespace(user: User): Promise<ProjectNamespace> {
  return {
    id: await personalNamespaceId(user),
    kind: 'user',
    name: user.name,
    path: user.username,
    full_path: user.username,
    parent_id: null,
    group_ids: [],
    owner_id: user.id,
    owner_created_at: user.created_at,
    share_with_group_lock: false,
    membership_lock: false,
    visibility: null,
  };
}

export function groupNamespace(group: Group, ancestors: Group[] = []): ProjectNamespace {
  return {
    id: group.id,
    kind: 'group',
    name: group.name,
    path: group.path,
    full_path: group.full_path,
    parent_id: group.parent_id,
    group_ids: [...group.ancestor_ids, group.id],
    owner_id: null,
    share_with_group_lock:
      group.share_with_group_lock || ancestors.some((ancestor) => ancestor.share_with_group_lock),
    membership_lock: group.membership_lock || ancestors.some((ancestor) => ancestor.membership_lock),
    visibility: group.visibility,
    full_name: group.full_name,
  };
}

/** A namespace by id: a group, or a user's personal namespace. */
export async function findNamespace(
  id: number,
): Promise<{ kind: 'group'; group: Group } | { kind: 'user'; user: User } | undefined> {
  const group = await getGroup(id);
  if (group) return { kind: 'group', group };
  const item = await getItem(keys.userNamespace(id));
  if (!item) return undefined;
  const user = await getUser(Number(item.user_id));
  return user ? { kind: 'user', user } : undefined;
}

const namespaceInvalid = () => validationFailed({ namespace: ['is not valid'] });

/**
 * The namespace a caller creates a project in: their own by default; a group where they are
 * maintainer or owner; any namespace for admins. Personal namespaces honour `projects_limit`.
 */
export async function creatableNamespace(
  caller: Caller,
  namespaceId: number | undefined,
): Promise<ProjectNamespace> {
  if (namespaceId === undefined) {
    const user = await getUser(caller.id);
    if (!user) throw notFound('User');
    return personalNamespaceWithinLimit(user);
  }
  const found = await findNamespace(namespaceId);
  if (!found) throw namespaceInvalid();
  if (found.kind === 'user') {
    if (found.user.id !== caller.id && !caller.admin) throw namespaceInvalid();
    return found.user.id === caller.id ? personalNamespaceWithinLimit(found.user) : userNamespace(found.user);
  }
  const access = caller.admin ? ACCESS.owner : await groupAccessOf(caller.id, found.group);
  if (!canCreateProjectIn(caller, access, found.group)) throw namespaceInvalid();
  const ancestors = await getGroupsRaw(found.group.ancestor_ids);
  return groupNamespace(found.group, ancestors.map(decodeGroup));
}

async function personalNamespaceWithinLimit(user: User): Promise<ProjectNamespace> {
  const namespace = await userNamespace(user);
  const count = await namespaceProjectCount(namespace.id);
  if (count >= user.projects_limit) {
    throw new ApiError(403, {
      error: [
        `Your project limit is ${user.projects_limit} projects! Please contact your administrator to increase it`,
      ],
    });
  }
  return namespace;
}

/** The namespace of a group, with the locks its ancestors impose. */
export async function namespaceOfGroup(group: Group): Promise<ProjectNamespace> {
  const ancestors = await getGroupsRaw(group.ancestor_ids);
  return groupNamespace(group, ancestors.map(decodeGroup));
}

/** A namespace as it is now, after a rename raced a placement in it. */
async function currentNamespace(namespace: ProjectNamespace): Promise<ProjectNamespace> {
  if (namespace.kind === 'group') {
    const group = await getGroup(namespace.id);
    if (!group) throw notFound('Namespace');
    return namespaceOfGroup(group);
  }
  const user = await getUser(namespace.owner_id as number);
  if (!user) throw notFound('Namespace');
  return userNamespace(user);
}

/** Renames racing one placement: more than this many in a row are reported, not chased. */
const MAX_PLACEMENTS = 20;

/**
 * Places a project in a namespace, again in the namespace as it is now whenever a rename was
 * committed between the read and the write (the write's condition says so).
 */
async function placeInNamespace<T>(
  namespace: ProjectNamespace,
  place: (current: ProjectNamespace) => Promise<T>,
): Promise<T> {
  return retrying(
    { times: MAX_PLACEMENTS, retry: (error) => error instanceof NamespaceMoved },
    namespace,
    place,
    currentNamespace,
  );
}

/** Creates a project in a namespace; `build` makes its fields for the namespace as it is. */
export function createProjectIn(
  namespace: ProjectNamespace,
  build: (current: ProjectNamespace) => NewProject,
  ownerMemberId: number | null,
) {
  return placeInNamespace(namespace, (current) => createProject(build(current), ownerMemberId));
}

/** Moves a project into a namespace (see transferProject), placed by the namespace as it is. */
export function transferProjectTo(project: Project, namespace: ProjectNamespace) {
  return placeInNamespace(namespace, (current) => transferProject(project, current));
}

/** After a username or name change, re-places the user's personal projects (paths and names follow). */
export async function followUserRename(user: User): Promise<void> {
  if (!(user as UserWithNamespace).namespace_id) return;
  await moveNamespaceProjects(await userNamespace(user));
}

const transferFailed = (errors: Record<string, string[]>) =>
  badRequest(`Failed to transfer project ${rubyErrorHash(errors)}`);

/**
 * Moves a project (by id or path) into a group, with GitLab's refusals: 404 for no such project,
 * 400 when it is there already, its visibility is above the group's, or the name or path is taken.
 */
export async function transferProjectInto(group: Group, projectRef: string | number): Promise<Project> {
  const project = await findProject(projectRef);
  if (!project) throw notFound('Project');
  if (project.namespace.id === group.id) {
    throw transferFailed({ new_namespace: ['Project is already in this namespace.'] });
  }
  const namespace = await namespaceOfGroup(group);
  const visibility = namespaceVisibilityError(project.visibility, namespace);
  if (visibility) throw transferFailed({ visibility_level: [visibility] });
  return transferProjectTo(project, namespace).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 400) {
      throw transferFailed({
        new_namespace: ['Project with same name or path in target namespace already exists'],
      });
    }
    throw error;
  });
}

/**
 * Creates a project in a namespace for `creatorId` (its fields by the namespace as it is when
 * placed), with the caller's access to it (for `permissions`).
 */
async function createFor(
  callerId: number,
  namespace: ProjectNamespace,
  input: ProjectAttributes,
  creatorId: number,
) {
  const runnersToken = newRunnersToken();
  const created = await createProjectIn(
    namespace,
    (current) => newProjectFrom(input, current, creatorId, runnersToken),
    namespace.owner_id,
  );
  const access = await accessFromLevels(callerId, [created], undefined);
  return { project: created, access: access.get(created.id) };
}

/**
 * Creates a project for the caller: in their namespace, or in `namespace_id` where they may
 * create projects (see creatableNamespace); 400 without a name or path, 403 for a storage
 * chosen by someone not an admin.
 */
export async function createProjectFor(caller: Caller, input: ProjectAttributes & { namespace_id?: number }) {
  const missing = atLeastOneOf(input, ['name', 'path']);
  if (missing) throw invalidParams(missing);
  if (input.repository_storage !== undefined && !caller.admin) throw forbidden();
  return createFor(caller.id, await creatableNamespace(caller, input.namespace_id), input, caller.id);
}

/** An admin creates a project in a user's personal namespace; that user owns it (404 for no user). */
export async function createProjectOfUser(
  caller: Caller,
  userId: number,
  input: ProjectAttributes & { name: string },
) {
  const user = await getUser(userId);
  if (!user) throw notFound('User');
  // A personal namespace's owner_id is its user: the user becomes the project's owner member.
  return createFor(caller.id, await userNamespace(user), input, user.id);
}

// Namespaces as GET /namespaces and PUT /projects/:id/transfer name them ------------------------

/**
 * A namespace as stored, by id (a group or a personal namespace: one id sequence; both keys are
 * read at once) or full path; a personal namespace named by its username may have no id yet.
 * Reads only, so it may start beside authentication.
 */
export async function findNamespaceSource(reference: string): Promise<FoundNamespace | undefined> {
  if (/^\d+$/.test(reference)) {
    const id = Number(reference);
    const [group, item] = await Promise.all([getGroup(id), getItem(keys.userNamespace(id))]);
    if (group) return { kind: 'group', id: group.id, group };
    const user = item && (await getUser(Number(item.user_id)));
    return user ? { kind: 'user', id, user } : undefined;
  }
  // A nested path is a group's (its lineage checked through the routes of its segments).
  if (reference.includes('/')) {
    const groupItem = await lookupGroup(reference);
    if (!groupItem) return undefined;
    const group = decodeGroup(groupItem);
    return { kind: 'group', id: group.id, group };
  }
  // A path without a slash is a username or a top-level group: its one route item says which.
  const route = await getItem(keys.route(reference));
  if (route?.kind === 'group') {
    const groupItem = await getLiveItem(keys.group(Number(route.id)));
    if (!groupItem) return undefined;
    const group = decodeGroup(groupItem);
    return { kind: 'group', id: group.id, group };
  }
  const user = route?.kind === 'user' ? await getUser(Number(route.id)) : undefined;
  return user ? { kind: 'user', id: (user as UserWithNamespace).namespace_id, user } : undefined;
}

/** A namespace as found: a personal one named by username may not have its id allocated yet. */
type FoundNamespace = NamespaceSource | { kind: 'user'; id: number | undefined; user: User };

/** A namespace by id or full path, a personal namespace's id allocated when it has none yet. */
export async function lookupNamespace(
  reference: string,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<NamespaceSource | undefined> {
  const source = await found;
  if (source?.kind !== 'user' || source.id !== undefined) return source as NamespaceSource | undefined;
  return { kind: 'user', id: await personalNamespaceId(source.user), user: source.user };
}

/** The caller's inherited access to a group namespace (admins act as owners); 0 for a personal one. */
const accessToNamespace = (source: NamespaceSource, caller: Caller) =>
  source.kind === 'user'
    ? Promise.resolve(0)
    : caller.admin
      ? ACCESS.owner
      : groupAccessOf(caller.id, source.group);

/**
 * A namespace the caller may see (see canReadNamespace); 404 `Namespace Not Found` otherwise. A
 * personal namespace without an id yet gets one only once the caller may see it.
 */
export async function readableNamespace(
  reference: string,
  caller: Caller,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<{ source: NamespaceSource; access: number }> {
  const seen = await found;
  if (!seen) throw notFound('Namespace');
  // The rules look at the kind, the group and the user only: the id may still be missing here.
  const access = await accessToNamespace(seen as NamespaceSource, caller);
  if (!canReadNamespace(seen as NamespaceSource, caller, access)) throw notFound('Namespace');
  const source = await lookupNamespace(reference, Promise.resolve(seen));
  return { source: source as NamespaceSource, access };
}

/** The ids of a group and of its descendants: the subtree in one Query of the tree index. */
async function subtreeGroupIds(group: Group): Promise<number[]> {
  const root = group.ancestor_ids[0] ?? group.id;
  const subtree = await readSubtreeUpTo(
    tree.groups(root),
    tree.path([...group.ancestor_ids, group.id]),
    Number.POSITIVE_INFINITY,
  );
  return [group.id, ...subtree.items.map((item) => Number(item.id))];
}

/**
 * Distinct active members of a group and of its descendants (GitLab's users_with_descendants):
 * every member list of the subtree at once.
 */
async function membersCountWithDescendants(groupIds: number[]): Promise<number> {
  const memberLists = await Promise.all(
    [...new Set(groupIds)].map((id) => readWholeList(lists.groupMembers(id))),
  );
  const users = new Set<number>();
  for (const list of memberLists)
    for (const item of list.items) if (isMembershipActive(item.expires_at)) users.add(Number(item.user_id));
  return users.size;
}

/**
 * GET /namespaces/:id: the namespace by id or path (`found`, read beside authentication), as the
 * caller may see it. A group's subtree is read beside the access check, so the member count its
 * owners and admins see costs one round more, not two.
 */
export async function readNamespaceFor(
  reference: string,
  caller: Caller,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<PresentableNamespace> {
  const subtree = found.then((seen) => (seen?.kind === 'group' ? subtreeGroupIds(seen.group) : undefined));
  subtree.catch(() => undefined);
  const { source, access } = await readableNamespace(reference, caller, found);
  const groupIds = await subtree;
  if (!showsMembersCount(source, caller, access) || groupIds === undefined) return { source };
  return { source, membersCountWithDescendants: await membersCountWithDescendants(groupIds) };
}

export interface NamespaceListQuery {
  search?: string;
  owned_only?: boolean;
  top_level_only?: boolean;
}

const byNamespaceId = (a: NamespaceSource, b: NamespaceSource) => a.id - b.id;

/**
 * GET /namespaces: admins page every namespace (groups and personal namespaces, in id order, each
 * list read only to the end of the page, totals from the lists' counters); a search reads the
 * lists whole (at most MAX_COUNTED_ITEMS each; no total beyond). Other users see their personal
 * namespace and the groups they are direct members of (owners only with `owned_only`), as
 * GitLab's User#namespaces.
 */
export async function listNamespacesFor(
  caller: Caller,
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<PresentableNamespace>> {
  const result: ListPage<NamespaceSource> = caller.admin
    ? await adminNamespaces(query, page)
    : await memberNamespaces(caller, query, page);
  // `members_count_with_descendants` is left out of lists: a subtree's member lists per group on
  // the page would make a page's cost grow with per_page and with the subtrees (B4, B5).
  return { items: result.items.map((source) => ({ source })), total: result.total };
}

function narrowed(sources: NamespaceSource[], query: NamespaceListQuery): NamespaceSource[] {
  return sources
    .filter((source) => !query.top_level_only || source.kind === 'user' || source.group.parent_id === null)
    .filter((source) => query.search === undefined || namespaceMatchesSearch(source, query.search))
    .sort(byNamespaceId);
}

const pageOf = <T>(items: T[], page: PageRequest) => {
  const offset = offsetOf(page);
  return items.slice(offset, offset + page.perPage);
};

async function memberNamespaces(
  caller: Caller,
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  const [user, memberships] = await Promise.all([
    getUser(caller.id),
    readWholeList(lists.groupMembershipsOfUser(caller.id)),
  ]);
  if (!user) throw notFound('User');
  const minimum = query.owned_only ? ACCESS.owner : ACCESS.guest;
  const groupIds = memberships.items
    .filter((item) => isMembershipActive(item.expires_at) && Number(item.access_level) >= minimum)
    .map((item) => Number(item.group_id));
  const [namespaceId, groupItems] = await Promise.all([personalNamespaceId(user), getGroupsRaw(groupIds)]);
  const sources: NamespaceSource[] = [
    { kind: 'user', id: namespaceId, user },
    ...groupItems.map((item) => {
      const group = decodeGroup(item);
      return { kind: 'group' as const, id: group.id, group };
    }),
  ];
  const matching = narrowed(sources, query);
  return { items: pageOf(matching, page), total: matching.length };
}

/** The lists of every group namespace (top-level ones only, when asked). */
const groupLists = (query: NamespaceListQuery) =>
  query.top_level_only
    ? [lists.groupChildren(null)]
    : VISIBILITIES.map((visibility) => lists.groupsWithVisibility(visibility));

async function adminNamespaces(
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  if (query.search !== undefined) return searchedNamespaces(query, page);
  const result = await listMerged({
    lists: [...groupLists(query), lists.userNamespaces],
    extra: [],
    order: 'id',
    sort: 'asc',
    page,
    decode: (item) => item,
  });
  const userIds = result.items
    .filter((item) => item.kind === 'user_namespace')
    .map((item) => Number(item.user_id));
  const users = await getUsers(userIds);
  const items = result.items.flatMap((item): NamespaceSource[] => {
    if (item.kind !== 'user_namespace') {
      const group = decodeGroup(item);
      return [{ kind: 'group', id: group.id, group }];
    }
    const user = users.get(Number(item.user_id));
    return user
      ? [{ kind: 'user', id: Number(item.id ?? String(item.pk).slice('NAMESPACE#'.length)), user }]
      : [];
  });
  return { items, total: result.total };
}

/** An admin's search: every group and user read (up to MAX_COUNTED_ITEMS per list), matched, paged. */
async function searchedNamespaces(
  query: NamespaceListQuery,
  page: PageRequest,
): Promise<ListPage<NamespaceSource>> {
  const [groupParts, userPart] = await Promise.all([
    Promise.all(groupLists(query).map((list) => readWholeList(list))),
    readWholeList(lists.users),
  ]);
  const sources: NamespaceSource[] = [
    ...groupParts.flatMap((part) =>
      part.items.map((item) => {
        const group = decodeGroup(item);
        return { kind: 'group' as const, id: group.id, group };
      }),
    ),
    ...userPart.items.flatMap((item) => {
      const namespaceId = Number(item.namespace_id);
      if (!namespaceId) return [];
      const user = stripStorage<User>(item);
      return [{ kind: 'user' as const, id: namespaceId, user }];
    }),
  ];
  const matching = narrowed(sources, query);
  const complete = userPart.complete && groupParts.every((part) => part.complete);
  return { items: pageOf(matching, page), total: complete ? matching.length : undefined };
}

/**
 * GET /namespaces/:id/exists: whether a namespace (user or group) has this path at the top level,
 * or under `parent_id`; when it does, the path with the first free counter appended.
 */
export async function namespacePathExists(
  path: string,
  parentId: number | undefined,
): Promise<{ exists: boolean; suggests: string[] }> {
  let prefix = '';
  if (parentId !== undefined) {
    const parent = await getGroup(parentId);
    // No such parent: nothing lives under it.
    if (!parent) return { exists: false, suggests: [] };
    prefix = `${parent.full_path}/`;
  }
  const takenBy = (item: Record<string, unknown> | undefined) =>
    item !== undefined && (item.kind === 'group' || (parentId === undefined && item.kind === 'user'));
  const own = await getItem(keys.route(`${prefix}${path}`));
  if (!takenBy(own)) return { exists: false, suggests: [] };
  const candidates = suggestionCandidates(path);
  const routes = await batchGetItems(candidates.map((candidate) => keys.route(`${prefix}${candidate}`)));
  const taken = new Set(routes.filter(takenBy).map((item) => String(item.pk)));
  const free = candidates.find((candidate) => !taken.has(keys.route(`${prefix}${candidate}`).pk));
  return { exists: true, suggests: free ? [free] : [] };
}

/**
 * PUT /projects/:id/transfer: moves the project (the caller may change its namespace) into the
 * namespace named by id or path (`found`: its read, started beside authentication), with GitLab's
 * refusals: 404 `Namespace Not Found` when the caller may not see it, 400 `Failed to transfer
 * project {...}` when it is the project's namespace, the caller may not move projects there, or a
 * project there has the same name or path. A visibility above the group's is lowered to it. The
 * move is one transaction guarded by the project's `updated_at` (a concurrent change is read again
 * and judged again) and by the namespace's current path (a rename of it, or of a group above it,
 * places the project again). Answers the moved project with the caller's access to it there.
 */
export async function transferProjectToNamespace(
  caller: Caller,
  loaded: { project: Project; access: ProjectAccess },
  reference: string,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<{ project: Project; access: ProjectAccess }> {
  const { project } = loaded;
  const seen = await found;
  if (!seen) throw notFound('Namespace');
  // The caller's own level in a group (shown in `permissions`, admins included) and the locks of
  // its ancestors are read at once.
  const [groupLevel, groupTarget] =
    seen.kind === 'group'
      ? await Promise.all([groupAccessOf(caller.id, seen.group), namespaceOfGroup(seen.group)])
      : [0, undefined];
  const access = caller.admin ? ACCESS.owner : groupLevel;
  if (!canReadNamespace(seen as NamespaceSource, caller, access)) throw notFound('Namespace');
  if (seen.id === project.namespace.id)
    throw transferFailed({ new_namespace: [TRANSFER_REFUSALS.sameNamespace] });
  let namespace: ProjectNamespace;
  let allowed: boolean;
  if (seen.kind === 'group') {
    allowed = mayTransferInto(seen, caller, access, canCreateProjectIn(caller, access, seen.group), true);
    namespace = groupTarget as ProjectNamespace;
  } else {
    const user = seen.user;
    const [own, target] = await Promise.all([withinOwnProjectLimit(caller, user), userNamespace(user)]);
    allowed = mayTransferInto({ kind: 'user', id: target.id, user }, caller, access, false, own);
    namespace = target;
  }
  if (!allowed) throw transferFailed({ new_namespace: [TRANSFER_REFUSALS.noPermission] });
  const moved = await withFreshProject(project.id, project, async (current) => {
    if (current.namespace.id === namespace.id) {
      throw transferFailed({ new_namespace: [TRANSFER_REFUSALS.sameNamespace] });
    }
    try {
      return await transferProjectTo(current, namespace);
    } catch (error) {
      if (isTaken(error)) throw transferFailed({ new_namespace: [TRANSFER_REFUSALS.taken] });
      throw error;
    }
  });
  // Direct membership and the project's shares stay as loaded; the group level is the new one's.
  const group = moved.namespace.kind === 'group' ? groupLevel : 0;
  return {
    project: moved,
    access: { ...loaded.access, group, namespaceOwner: moved.namespace.owner_id === caller.id },
  };
}

/** A uniqueness refusal of the route or name items (see refusalOf): `{path|name: [taken]}`. */
const isTaken = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  typeof error.body.message === 'object' &&
  error.body.message !== null &&
  Object.values(error.body.message as Record<string, unknown>).some(
    (messages) => Array.isArray(messages) && messages.includes('has already been taken'),
  );

/** GitLab asks the caller's own `can_create_project?` (projects left under their limit). */
async function withinOwnProjectLimit(caller: Caller, known?: User): Promise<boolean> {
  const user = known?.id === caller.id ? known : await getUser(caller.id);
  if (!user) return false;
  const count = await namespaceProjectCount(await personalNamespaceId(user));
  return count < user.projects_limit;
}
