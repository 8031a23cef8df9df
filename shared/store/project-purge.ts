/**
 * Removing a project for good (its group was deleted): its issues, merge requests and snippets with
 * their notes, its partition, route, name and counters.
 */

import { readPartition } from './items.ts';
import { keys } from './keys.ts';
import { listCountChanges } from './lists.ts';
import { purgeProjectNoteables } from './noteable-purge.ts';
import { decodeProject, getProjectRaw } from './project-items.ts';
import { commitUnlessDone, EXISTING_ITEM, releaseOwned, remove } from './transaction.ts';

/** Kinds of a project's partition whose lists keep counters (stars and markers keep none). */
const COUNTED_KINDS = new Set(['project_member', 'project_share', 'search_posting']);

/**
 * Removes a project and everything in its partition (members, stars, shares, postings) with its
 * route and name items and counters. Each step is conditional, so running it twice is harmless.
 */
export async function purgeProject(projectId: number): Promise<void> {
  const item = await getProjectRaw(projectId);
  if (!item) return;
  const project = decodeProject(item);
  await purgeProjectNoteables(projectId);
  const own = keys.project(projectId);
  for (const child of await readPartition(own.pk)) {
    if (child.sk === own.sk) continue;
    const counters = COUNTED_KINDS.has(String(child.kind)) ? listCountChanges(child, -1) : [];
    await commitUnlessDone([remove({ pk: own.pk, sk: String(child.sk) }, EXISTING_ITEM), ...counters]);
  }
  // The path and name may already belong to a newer project: remove them only while they are ours.
  await commitUnlessDone([releaseOwned(keys.route(project.path_with_namespace), projectId)]);
  await commitUnlessDone([releaseOwned(keys.projectName(project.namespace.id, project.name), projectId)]);
  await commitUnlessDone([remove(own, EXISTING_ITEM), ...listCountChanges(item, -1)]);
}
