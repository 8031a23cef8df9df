/**
 * Namespaces: a group is its own namespace (same id); a user's personal namespace gets an id from
 * the same sequence the first time it is needed, recorded on the user and in a namespace item.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ACCESS } from '#domain/access.ts';
import { ApiError, notFound, validationFailed } from '#domain/errors.ts';
import { canCreateProjectIn } from '#domain/group-policy.ts';
import type { Group } from '#domain/groups.ts';
import type { Project, ProjectNamespace } from '#domain/projects.ts';
import type { Caller, User } from '#domain/users.ts';
import { documentClient, tableName } from './client.ts';
import { decodeGroup, getGroup, getGroupsRaw, groupAccessOf } from './groups.ts';
import { nextId } from './ids.ts';
import { keys } from './keys.ts';
import {
  createProject,
  moveNamespaceProjects,
  NamespaceMoved,
  type NewProject,
  namespaceProjectCount,
  transferProject,
} from './projects.ts';
import { ConditionFailed, transact } from './transact.ts';
import { getUser } from './users.ts';

type UserWithNamespace = User & { namespace_id?: number };

/** The user's namespace id, allocating it on first use. */
export async function personalNamespaceId(user: User): Promise<number> {
  const existing = (user as UserWithNamespace).namespace_id;
  if (existing) return existing;
  const id = await nextId('namespace');
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(user.id),
          UpdateExpression: 'SET namespace_id = :id',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(namespace_id)',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.userNamespace(id), kind: 'user_namespace', user_id: user.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    return id;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    // Someone allocated it first (or the user is gone).
    const fresh = (await getUser(user.id)) as UserWithNamespace | undefined;
    if (!fresh?.namespace_id) throw notFound('User');
    return fresh.namespace_id;
  }
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
  const item = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.userNamespace(id), ConsistentRead: true }),
  );
  if (!item.Item) return undefined;
  const user = await getUser(Number(item.Item.user_id));
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
  let current = namespace;
  for (let attempt = 1; ; attempt++) {
    try {
      return await place(current);
    } catch (error) {
      if (!(error instanceof NamespaceMoved) || attempt >= MAX_PLACEMENTS) throw error;
      current = await currentNamespace(current);
    }
  }
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
