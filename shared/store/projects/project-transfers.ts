/**
 * Moving projects between namespaces, with GitLab's refusals (`Failed to transfer project {...}`).
 */
import { ACCESS } from '#domain/access.ts';
import { ApiError, badRequest, notFound } from '#domain/errors.ts';
import { type Group, rubyErrorHash } from '#domain/groups.ts';
import {
  mayTransferInto,
  type NamespaceSource,
  type ProjectCreator,
  readsNamespace,
  TRANSFER_REFUSALS,
} from '#domain/namespaces.ts';
import {
  namespaceVisibilityError,
  type Project,
  type ProjectAccess,
  type ProjectNamespace,
} from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { findProject, groupAccessOf } from '../access/access.ts';
import {
  type FoundNamespace,
  findNamespaceSource,
  namespaceOfGroup,
  userNamespace,
} from './namespace-lookup.ts';
import { transferProjectTo } from './namespace-placement.ts';
import { withinOwnProjectLimit } from './project-creation.ts';
import { withFreshProject } from './project-writes.ts';

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
 * PUT /projects/:id/transfer: moves the project (the route decided `mover` may change its
 * namespace) into the namespace named by id or path (`found`: its read, started beside
 * authentication), with GitLab's refusals: 404 `Namespace Not Found` when `scope` does not see it,
 * 400 `Failed to transfer project {...}` when it is the project's namespace, the mover may not
 * move projects there, or a project there has the same name or path. A visibility above the
 * group's is lowered to it. The move is one transaction guarded by the project's `updated_at` (a
 * concurrent change is read again and judged again) and by the namespace's current path (a rename
 * of it, or of a group above it, places the project again). Answers the moved project with the
 * mover's access to it there.
 */
export async function transferProjectToNamespace(
  scope: ReadScope,
  mover: ProjectCreator,
  loaded: { project: Project; access: ProjectAccess },
  reference: string,
  found: Promise<FoundNamespace | undefined> = findNamespaceSource(reference),
): Promise<{ project: Project; access: ProjectAccess }> {
  const { project } = loaded;
  const seen = await found;
  if (!seen) throw notFound('Namespace');
  // The mover's own level in a group (shown in `permissions`, admins included) and the locks of
  // its ancestors are read at once.
  const [groupLevel, groupTarget] =
    seen.kind === 'group'
      ? await Promise.all([groupAccessOf(mover.userId, seen.group), namespaceOfGroup(seen.group)])
      : [0, undefined];
  const access = scope.seesAll ? ACCESS.owner : groupLevel;
  if (!readsNamespace(scope, seen as NamespaceSource, access)) throw notFound('Namespace');
  if (seen.id === project.namespace.id)
    throw transferFailed({ new_namespace: [TRANSFER_REFUSALS.sameNamespace] });
  let namespace: ProjectNamespace;
  let allowed: boolean;
  if (seen.kind === 'group') {
    allowed = mayTransferInto(seen, mover, access, mover.createsInGroup(access, seen.group), true);
    namespace = groupTarget as ProjectNamespace;
  } else {
    const user = seen.user;
    const [own, target] = await Promise.all([withinOwnProjectLimit(mover.userId, user), userNamespace(user)]);
    allowed = mayTransferInto({ kind: 'user', id: target.id, user }, mover, access, false, own);
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
    access: { ...loaded.access, group, namespaceOwner: moved.namespace.owner_id === mover.userId },
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
