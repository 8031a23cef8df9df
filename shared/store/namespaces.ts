/**
 * Namespaces: a group is its own namespace (same id); a user's personal namespace gets an id from
 * the same sequence the first time it is needed, recorded on the user and in a namespace item.
 */
import { ACCESS } from '#domain/access.ts';
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
import { atLeastOneOf } from '#domain/params.ts';
import {
  namespaceVisibilityError,
  newProjectFrom,
  type Project,
  type ProjectAttributes,
  type ProjectNamespace,
} from '#domain/projects.ts';
import type { Caller, User } from '#domain/users.ts';
import { accessFromLevels, findProject, groupAccessOf } from './access.ts';
import { decodeGroup, getGroup, getGroupsRaw } from './group-items.ts';
import { nextId } from './ids.ts';
import { getItem } from './items.ts';
import { keys } from './keys.ts';
import { NamespaceMoved, newRunnersToken } from './project-items.ts';
import { namespaceProjectCount } from './project-lists.ts';
import { createProject, moveNamespaceProjects, type NewProject, transferProject } from './project-writes.ts';
import { commitUnlessDone, NEW_ITEM, put, retrying, update } from './transaction.ts';
import { getUser } from './users.ts';

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
    put({ ...keys.userNamespace(id), kind: 'user_namespace', user_id: user.id }, NEW_ITEM),
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
