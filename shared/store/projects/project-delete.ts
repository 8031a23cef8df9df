/**
 * Deleting a project (DELETE /projects/:id): one transaction takes it out of every list, frees its
 * path and name, and, when it is a fork, leaves its source's forks (the link and `forks_count`).
 * The project-delete worker removes the rest (see project-purge.ts).
 */
import { notFound } from '#domain/errors.ts';
import type { Project } from '#domain/projects.ts';
import { batchGetItems } from '../table/batch.ts';
import { counterChange, itemCounter, shardTombstones } from '../table/counters.ts';
import { keys } from '../table/keys.ts';
import { listCountChanges } from '../table/lists.ts';
import { listPartitionAttributes, treeIndex } from '../table/table.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  lockLost,
  releaseOwned,
  remove,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { decodeProject, getProjectRaw, projectItem } from './project-items.ts';

/** The project, its fork link or its source changed between our read and our write. */
class ProjectChanged extends Error {}

/** Lost races before the deletion is reported as 409 (each one re-reads what changed). */
const MAX_ATTEMPTS = 10;

/** The project's fork source, or null (older items may lack the attribute). */
const sourceOf = (project: Project): number | null => project.forked_from_project_id ?? null;

/** The project as read, and whether its fork link and source were found (a fork's relation to end). */
interface DeletionState {
  project: Project;
  linked: boolean;
}

/**
 * The source's side of a fork's relation: its link goes and its `forks_count` drops, both only
 * while there (a relation someone else ended meanwhile fails the transaction, which is read again).
 */
export const leaveSourceItems = (sourceId: number, forkId: number): TransactItem[] => [
  remove(keys.forkLink(sourceId, forkId), EXISTING_ITEM),
  check(keys.project(sourceId), EXISTING_ITEM),
  counterChange(itemCounter(keys.project(sourceId), 'forks_count'), -1),
];

function deletionItems({ project, linked }: DeletionState): TransactItem[] {
  const source = sourceOf(project);
  const item = projectItem(project);
  // Guarded by what the other items were built from: the lists (counters), the path (route),
  // the name (name item) and the fork relation.
  const relation =
    source === null
      ? '(attribute_not_exists(forked_from_project_id) OR attribute_type(forked_from_project_id, :nullType))'
      : 'forked_from_project_id = :source';
  return [
    update(
      keys.project(project.id),
      `SET deleting = :true, forked_from_project_id = :none REMOVE ${listPartitionAttributes.join(', ')}, #tree, #tpath`,
      {
        condition: `attribute_exists(pk) AND attribute_not_exists(deleting) AND l1 = :l1 AND l2 = :l2 AND path_with_namespace = :path AND #name = :name AND ${relation}`,
        names: { '#tree': treeIndex.partitionKey, '#tpath': treeIndex.sortKey, '#name': 'name' },
        values: {
          ':true': true,
          ':none': null,
          ':l1': item.l1,
          ':l2': item.l2,
          ':path': project.path_with_namespace,
          ':name': project.name,
          ...(source === null ? { ':nullType': 'NULL' } : { ':source': source }),
        },
      },
    ),
    releaseOwned(keys.route(project.path_with_namespace), project.id),
    releaseOwned(keys.projectName(project.namespace.id, project.name), project.id),
    ...listCountChanges(item, -1),
    // From now on nothing counts on it: a late star, fork or issue is refused by its shards.
    ...shardTombstones(keys.project(project.id)),
    ...(source !== null && linked ? leaveSourceItems(source, project.id) : []),
  ];
}

/** The project as it is now (404 when gone or being deleted) and whether its relation is intact. */
async function readState(projectId: number): Promise<DeletionState> {
  const raw = await getProjectRaw(projectId);
  if (!raw || raw.deleting) throw notFound('Project');
  const project = decodeProject(raw);
  const source = sourceOf(project);
  if (source === null) return { project, linked: false };
  const found = await batchGetItems([keys.forkLink(source, projectId), keys.project(source)]);
  return { project, linked: found.length === 2 };
}

/**
 * Marks the project deleted: out of every list and the tree, its route and name released (the
 * path and name are free at once), the list counters moved, and a fork's link and its source's
 * `forks_count` gone with it, all in one transaction. A concurrent change of any of them (a
 * rename, a visibility change, the relation ended) is read again and the deletion applied to it;
 * a project gone or already being deleted is `404 Project Not Found`.
 */
export async function markProjectDeleted(project: Project): Promise<void> {
  let state: DeletionState = { project, linked: sourceOf(project) !== null };
  for (let attempt = 1; ; attempt++) {
    try {
      await commit(deletionItems(state), new ProjectChanged());
      return;
    } catch (error) {
      if (!(error instanceof ProjectChanged)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw lockLost();
      state = await readState(project.id);
    }
  }
}
