/**
 * Creating projects: in the creator's personal namespace (within their `projects_limit`), or in a
 * namespace the creator's decision (ProjectCreator) lets them create in.
 */
import { ACCESS } from '#domain/access.ts';
import { ApiError, forbidden, invalidParams, notFound, validationFailed } from '#domain/errors.ts';
import type { ProjectCreator } from '#domain/namespaces.ts';
import { atLeastOneOf } from '#domain/params.ts';
import { newProjectFrom, type ProjectAttributes, type ProjectNamespace } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { accessFromLevels, groupAccessOf } from '../access/access.ts';
import { getUser } from '../users/users.ts';
import { findNamespace, namespaceOfGroup, personalNamespaceId, userNamespace } from './namespace-lookup.ts';
import { createProjectIn } from './namespace-placement.ts';
import { newRunnersToken } from './project-items.ts';
import { namespaceProjectCount } from './project-lists.ts';

const namespaceInvalid = () => validationFailed({ namespace: ['is not valid'] });

/**
 * The namespace a creator creates a project in: their own by default; a group where their level
 * lets them; any namespace when they create anywhere. Their own namespace honours `projects_limit`.
 */
export async function creatableNamespace(
  creator: ProjectCreator,
  namespaceId: number | undefined,
): Promise<ProjectNamespace> {
  if (namespaceId === undefined) {
    const user = await getUser(creator.userId);
    if (!user) throw notFound('User');
    return personalNamespaceWithinLimit(user);
  }
  const found = await findNamespace(namespaceId);
  if (!found) throw namespaceInvalid();
  if (found.kind === 'user') {
    const own = found.user.id === creator.userId;
    if (!own && !creator.createsAnywhere) throw namespaceInvalid();
    return own ? personalNamespaceWithinLimit(found.user) : userNamespace(found.user);
  }
  const access = creator.createsAnywhere ? ACCESS.owner : await groupAccessOf(creator.userId, found.group);
  if (!creator.createsInGroup(access, found.group)) throw namespaceInvalid();
  return namespaceOfGroup(found.group);
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

/** Whether a user may still create a project of their own (GitLab's `can_create_project?`). */
export async function withinOwnProjectLimit(userId: number, known?: User): Promise<boolean> {
  const user = known?.id === userId ? known : await getUser(userId);
  if (!user) return false;
  const count = await namespaceProjectCount(await personalNamespaceId(user));
  return count < user.projects_limit;
}

/**
 * Creates a project in a namespace for `creatorId` (its fields by the namespace as it is when
 * placed), with the acting user's access to it (for `permissions`).
 */
async function createFor(
  actorId: number,
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
  const access = await accessFromLevels(actorId, [created], undefined);
  return { project: created, access: access.get(created.id) };
}

/**
 * Creates a project for the creator: in their namespace, or in `namespace_id` where they may
 * create projects (see creatableNamespace); 400 without a name or path, 403 for a storage chosen
 * by someone who may not choose it.
 */
export async function createProjectFor(
  creator: ProjectCreator,
  input: ProjectAttributes & { namespace_id?: number },
) {
  const missing = atLeastOneOf(input, ['name', 'path']);
  if (missing) throw invalidParams(missing);
  if (input.repository_storage !== undefined && !creator.choosesStorage) throw forbidden();
  const namespace = await creatableNamespace(creator, input.namespace_id);
  return createFor(creator.userId, namespace, input, creator.userId);
}

/**
 * A project in a user's personal namespace, created by `actorId` (an admin, as the route
 * decides); that user owns it (404 for no user).
 */
export async function createProjectOfUser(
  actorId: number,
  userId: number,
  input: ProjectAttributes & { name: string },
) {
  const user = await getUser(userId);
  if (!user) throw notFound('User');
  // A personal namespace's owner_id is its user: the user becomes the project's owner member.
  return createFor(actorId, await userNamespace(user), input, user.id);
}
