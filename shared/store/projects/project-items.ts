/**
 * Project items. A project joins the list of its visibility (`l1`) and its namespace's list for its
 * visibility (`l2`); its full path (a route item) and its name within the namespace are unique
 * items written in the same transaction; a project of a group sits in the tree index under its
 * group. Members, stars, shares and search postings live in the project's partition.
 */

import { randomBytes } from 'node:crypto';
import { notFound } from '#domain/errors.ts';
import type { Project, ProjectNamespace } from '#domain/projects.ts';
import { withCounters } from '../table/batch.ts';
import { PROJECT_COUNTERS, PROJECT_RECORDED } from '../table/counters.ts';
import { getItem, getLiveItem, getLiveItems, type RouteOwner } from '../table/items.ts';
import { keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import type { Raw } from '../table/raw.ts';
import { keyAttributes } from '../table/table.ts';
import {
  check,
  lockLost,
  type Refusal,
  refusedWith,
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';

/** A project as read: its counters are those read beside it (0 when it was read without them). */
export function decodeProject(item: Raw): Project {
  const {
    kind: _kind,
    deleting: _deleting,
    ...project
  } = stripStorage<Project & { kind: string; deleting?: boolean }>(item);
  return {
    ...project,
    star_count: Number(project.star_count ?? 0),
    forks_count: Number(project.forks_count ?? 0),
    open_issues_count: Number(project.open_issues_count ?? 0),
  };
}

/** The project's item: everything but its counters, which live on their own (store/table/counters.ts). */
export function projectItem(project: Project): Raw {
  const { star_count: _stars, forks_count: _forks, open_issues_count: _issues, ...fields } = project;
  return {
    ...keys.project(project.id),
    ...fields,
    kind: 'project',
    ...inLists(
      lists.projectsWithVisibility(project.visibility),
      lists.namespaceProjects(project.namespace.id, project.visibility),
    ),
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

/**
 * Attributes moved in their own writes (the fork relation, what repository jobs record): whole-item
 * writes leave them alone, so a change that lands between our read and our write is not undone.
 */
const MOVED_ALONE = new Set<string>([
  'forked_from_project_id',
  // Kept beside the project (store/table/counters.ts): the item holds only their first values.
  ...PROJECT_COUNTERS,
  ...PROJECT_RECORDED,
  // Set and cleared with its object in the bucket (store/users/avatars.ts).
  'avatar',
]);

/** The guard of a change computed from the project as read: nobody saved it since. */
export const unchangedSince = (project: Project) => ({
  condition: 'updated_at = :previous AND attribute_not_exists(deleting)',
  values: { ':previous': project.updated_at },
});

/**
 * Writes a project item as a Put would, except what moves alone: a job's record that lands between
 * our read and this write is not undone by the stale value we read.
 */
export function writeProjectItem(
  project: Project,
  guard: { condition: string; values: Record<string, unknown> },
): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...guard.values };
  const sets: string[] = [];
  const removals: string[] = [];
  Object.entries(projectItem(project)).forEach(([name, value], index) => {
    if (name === keyAttributes.partition || name === keyAttributes.sort || MOVED_ALONE.has(name)) return;
    names[`#a${index}`] = name;
    if (value === undefined) removals.push(`#a${index}`);
    else {
      sets.push(`#a${index} = :a${index}`);
      values[`:a${index}`] = value;
    }
  });
  const removing = removals.length ? ` REMOVE ${removals.join(', ')}` : '';
  return update(keys.project(project.id), `SET ${sets.join(', ')}${removing}`, {
    condition: guard.condition,
    names,
    values,
  });
}

export const projectRouteItem = (project: Project): Raw => ({
  ...keys.route(project.path_with_namespace),
  kind: 'project',
  id: project.id,
  full_path: project.path_with_namespace,
});

export const projectNameItem = (project: Project): Raw => ({
  ...keys.projectName(project.namespace.id, project.name),
  kind: 'project_name',
  id: project.id,
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

/** A refused placement: the namespace is gone (404) or moved (NamespaceMoved, to place it again). */
const namespaceRefusal =
  (namespace: ProjectNamespace): Refusal =>
  (stored) =>
    stored?.moving !== undefined
      ? lockLost()
      : stored && !stored.deleting
        ? new NamespaceMoved(namespace.id)
        : notFound('Namespace');

/**
 * A condition that the namespace is still where the project is being placed: the group's (or the
 * user's) current path and name, and not being deleted. Every write that places a project (create,
 * transfer, following a rename) carries it.
 */
export function namespaceCheck(namespace: ProjectNamespace): Step {
  const group = namespace.kind === 'group';
  const values = {
    ':path': namespace.full_path,
    ':name': group ? (namespace.full_name ?? namespace.name) : namespace.name,
  };
  const item = group
    ? check(keys.group(namespace.id), placementCondition, values)
    : check(
        keys.user(namespace.owner_id as number),
        'attribute_exists(pk) AND username = :path AND #name = :name',
        values,
        { '#name': 'name' },
      );
  return refusedWith(item, namespaceRefusal(namespace));
}

/**
 * A group that is still at the path and name a child is placed under, and not being moved with
 * its subtree (see store/groups/group-transfer.ts: nothing joins a group between its move and the end of
 * the transfer, so nothing can clash with what is still on its way).
 */
export const placementCondition =
  'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name';

/**
 * Projects decoded from items read without their counters (a tree or search Query), with them:
 * their shards read in one batch. For a page, after it is cut.
 */
export async function withProjectCounters(projects: Project[]): Promise<Project[]> {
  const counted = await withCounters(projects.map((project) => keys.project(project.id)));
  return projects.map((project, index) => {
    const counts = counted[index] ?? {};
    return {
      ...project,
      star_count: Number(counts.star_count ?? 0),
      forks_count: Number(counts.forks_count ?? 0),
      open_issues_count: Number(counts.open_issues_count ?? 0),
    };
  });
}

export const getProjectRaw = (id: number) => getItem(keys.project(id));

export async function getProject(id: number): Promise<Project | undefined> {
  const item = await getLiveItem(keys.project(id));
  return item && decodeProject(item);
}

export const getProjectsRaw = (ids: number[]) => getLiveItems(ids.map((id) => keys.project(id)));

/** The namespaces a project's path names, root first: its groups, or its owner. */
export const namespacesOf = (item: Raw): RouteOwner[] => {
  const namespace = item.namespace as ProjectNamespace;
  return namespace.kind === 'group'
    ? namespace.group_ids.map((id) => ({ kind: 'group', id }))
    : [{ kind: 'user', id: Number(namespace.owner_id) }];
};
