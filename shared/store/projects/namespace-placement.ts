/**
 * Placing projects in a namespace as it is when the write commits: a rename of the namespace (or
 * of a group above it) committed between the read and the write makes the write's condition fail,
 * and the project is placed again in the namespace as it is now.
 */
import { notFound } from '#domain/errors.ts';
import type { Project, ProjectNamespace } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { getGroup } from '../groups/group-items.ts';
import { retrying } from '../table/transaction.ts';
import { getUser } from '../users/users.ts';
import { namespaceOfGroup, type UserWithNamespace, userNamespace } from './namespace-lookup.ts';
import { NamespaceMoved } from './project-items.ts';
import { createProject, moveNamespaceProjects, type NewProject, transferProject } from './project-writes.ts';

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
