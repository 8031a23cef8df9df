/**
 * Creating and changing projects. Every write is one transaction: the project item, its unique
 * route and name items, list counters and, when it places the project, a check that the namespace
 * is still where it was read.
 */
import { ACCESS } from '#domain/access.ts';
import { notFound } from '#domain/errors.ts';
import { visibilityAfterTransfer } from '#domain/namespaces.ts';
import { type Project, type ProjectNamespace, placedIn } from '#domain/projects.ts';
import { searchTextChanged } from '#domain/search.ts';
import { projectMemberItem } from '../access/members.ts';
import { searchPendingPut } from '../search/search-index.ts';
import { nextId } from '../table/ids.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChange } from '../table/lists.ts';
import {
  commit,
  isLockLost,
  lockLost,
  NEW_ITEM,
  put,
  remove,
  retrying,
  type Step,
  type TransactItem,
  unique,
} from '../table/transaction.ts';
import {
  getProject,
  NamespaceMoved,
  namespaceCheck,
  projectItem,
  projectNameItem,
  projectRouteItem,
  unchangedSince,
  writeProjectItem,
} from './project-items.ts';
import { namespaceProjectsRaw } from './project-lists.ts';

export type NewProject = Omit<Project, 'id' | 'created_at' | 'updated_at' | 'last_activity_at'>;

/**
 * Creates a project; a personal project's owner becomes its member with owner access. `extra`
 * adds steps made from the new project (a fork's link and its source's counter) to the same
 * transaction.
 */
export async function createProject(
  fields: NewProject,
  ownerMemberId: number | null,
  extra: (project: Project) => (TransactItem | Step)[] = () => [],
): Promise<Project> {
  const now = new Date().toISOString();
  const project: Project = {
    ...fields,
    id: await nextId('project'),
    created_at: now,
    updated_at: now,
    last_activity_at: now,
  };
  const steps: (TransactItem | Step)[] = [
    put(projectItem(project), NEW_ITEM),
    unique(put(projectRouteItem(project), NEW_ITEM), 'path'),
    unique(put(projectNameItem(project), NEW_ITEM), 'name'),
    namespaceCheck(project.namespace),
    listCountChange(lists.projectsWithVisibility(project.visibility), 1),
    listCountChange(lists.namespaceProjects(project.namespace.id, project.visibility), 1),
    searchPendingPut(project.id),
  ];
  if (ownerMemberId !== null) {
    const owner = projectMemberItem({
      project_id: project.id,
      user_id: ownerMemberId,
      access_level: ACCESS.owner,
      expires_at: null,
      created_at: now,
      created_by_id: ownerMemberId,
    });
    steps.push(
      put(owner),
      listCountChange(lists.projectMembers(project.id), 1),
      listCountChange(lists.projectMembershipsOfUser(ownerMemberId), 1),
    );
  }
  steps.push(...extra(project));
  await commit(steps);
  return project;
}

/**
 * Writes a changed project, guarded by its previous `updated_at`. A new path or name moves the
 * route and name items in the same transaction, so a clash fails before anything changes.
 */
export async function saveProject(previous: Project, next: Project): Promise<Project> {
  const steps: (TransactItem | Step)[] = [writeProjectItem(next, unchangedSince(previous))];
  if (next.path_with_namespace.toLowerCase() !== previous.path_with_namespace.toLowerCase()) {
    steps.push(
      unique(put(projectRouteItem(next), NEW_ITEM), 'path'),
      remove(keys.route(previous.path_with_namespace)),
    );
  } else if (next.path_with_namespace !== previous.path_with_namespace) {
    steps.push(put(projectRouteItem(next)));
  }
  const nameMoved =
    next.name.toLowerCase() !== previous.name.toLowerCase() || next.namespace.id !== previous.namespace.id;
  if (nameMoved) {
    steps.push(
      unique(put(projectNameItem(next), NEW_ITEM), 'name'),
      remove(keys.projectName(previous.namespace.id, previous.name)),
    );
  }
  if (next.visibility !== previous.visibility) {
    steps.push(listCountChange(lists.projectsWithVisibility(previous.visibility), -1));
    steps.push(listCountChange(lists.projectsWithVisibility(next.visibility), 1));
  }
  if (next.namespace.id !== previous.namespace.id || next.visibility !== previous.visibility) {
    steps.push(listCountChange(lists.namespaceProjects(previous.namespace.id, previous.visibility), -1));
    steps.push(listCountChange(lists.namespaceProjects(next.namespace.id, next.visibility), 1));
  }
  if (searchTextChanged(previous, next)) steps.push(searchPendingPut(next.id));
  // A new place (another namespace, or the namespace's new path or name) is checked against the
  // namespace as it is now, so a placement never lands after a rename with the old path.
  const placed =
    next.namespace.id !== previous.namespace.id ||
    next.path_with_namespace !== previous.path_with_namespace ||
    next.name_with_namespace !== previous.name_with_namespace;
  if (placed) steps.push(namespaceCheck(next.namespace));
  await commit(steps, lockLost());
  return next;
}

/** Attempts at a read-change-write before a lost race is reported as 409. */
const MAX_ATTEMPTS = 10;

/**
 * Runs a write computed from the project's state; when someone saved the project in between
 * (the write's `updated_at` guard failed), reads it again and retries with a growing pause.
 */
export function withFreshProject<T>(
  id: number,
  known: Project | undefined,
  write: (project: Project) => Promise<T>,
): Promise<T> {
  const fresh = async () => {
    const project = await getProject(id);
    if (!project) throw notFound('Project');
    return project;
  };
  return retrying(
    { times: MAX_ATTEMPTS, retry: isLockLost, backoff: true },
    known,
    async (project) => write(project ?? (await fresh())),
    fresh,
  );
}

/** Saves with a fresh read on a concurrent change, for changes computed from the current state. */
export function updateProject(id: number, change: (project: Project) => Project): Promise<Project> {
  return withFreshProject(id, undefined, (current) => saveProject(current, change(current)));
}

/** Archives or unarchives a project; nothing is written when it already is. */
export const setArchived = (project: Project, archived: boolean): Promise<Project> =>
  project.archived === archived
    ? Promise.resolve(project)
    : updateProject(project.id, (current) => ({
        ...current,
        archived,
        updated_at: new Date().toISOString(),
      }));

/** Sets or removes one custom attribute of a project. */
export const setProjectCustomAttribute = (project: Project, key: string, value: string | undefined) =>
  updateProject(project.id, (current) => {
    const { [key]: _previous, ...others } = current.custom_attributes;
    const attributes = value === undefined ? others : { ...others, [key]: value };
    return { ...current, custom_attributes: attributes, updated_at: new Date().toISOString() };
  });

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

/**
 * Moves a project into another namespace: path, name, route and name items move in one
 * transaction; a visibility above the new group's is lowered to it, as GitLab's transfer does.
 */
export function transferProject(project: Project, namespace: ProjectNamespace): Promise<Project> {
  return saveProject(project, {
    ...project,
    ...placedIn(namespace, project),
    visibility: visibilityAfterTransfer(
      project.visibility,
      namespace.kind === 'group' ? namespace.visibility : null,
    ),
    updated_at: new Date().toISOString(),
  });
}
