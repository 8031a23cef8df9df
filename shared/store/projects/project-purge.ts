/**
 * Removing a project for good (the project-delete worker, or the purge of its group): its objects
 * in the bucket, its issues, merge requests and snippets with their notes, its hooks with their
 * logs and deliveries, its forks' relation to it, its partition (members, stars, shares, search
 * postings, push rule, hook count, leases, mirror marker, fork links), route, name and counters.
 * Custom attributes live on the project item and go with it. Each step is conditional or harmless
 * twice, and the project item goes last, so a purge cut short finds the rest when it runs again.
 */

import { purgeHookLog } from '../hooks/hook-log.ts';
import { purgeProjectNoteables } from '../issuables/noteable-purge.ts';
import { batchWriteItems } from '../table/batch.ts';
import { isCounterItem, shardTombstoneItems } from '../table/counters.ts';
import { readPartition } from '../table/items.ts';
import { FORK_PREFIX, HOOK_PREFIX, keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChanges, listCountKeys } from '../table/lists.ts';
import {
  commitUnlessDone,
  EXISTING_ITEM,
  releaseOwned,
  remove,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { leaveSourceItems } from './project-delete.ts';
import { decodeProject, getProjectRaw } from './project-items.ts';

/** Kinds of a project's partition whose lists keep counters (stars and markers keep none). */
const COUNTED_KINDS = new Set(['project_member', 'project_share', 'search_posting']);

/**
 * What the purge removes outside the table, given by the caller (the store does not write the
 * bucket): the project's objects (repository, uploads), removed before its items so a purge cut
 * short still finds the project; a hook payload kept in the bucket.
 */
export interface ProjectFiles {
  removeProjectFiles(projectId: number): Promise<void>;
  removeHookPayload(key: string): Promise<void>;
}

/**
 * Removes a project and everything of it. With `onlyDeleted`, a project not marked deleted is
 * left alone (a message for a project that is not being deleted removes nothing).
 */
export async function purgeProject(
  projectId: number,
  files: ProjectFiles,
  options: { onlyDeleted?: boolean } = {},
): Promise<void> {
  const item = await getProjectRaw(projectId);
  if (!item || (options.onlyDeleted && !item.deleting)) return;
  const project = decodeProject(item);
  await files.removeProjectFiles(projectId);
  await purgeProjectNoteables(projectId);
  await leaveSource(projectId, project.forked_from_project_id ?? null);
  const own = keys.project(projectId);
  // Its counter shards stay, marked deleted (they may not be yet, for a project of a deleted
  // group), so a star or issue still on its way is refused; TTL ends them. The rollup stays for
  // the mark the counters' stream consumer leaves on it.
  await batchWriteItems(shardTombstoneItems(own));
  const children = (await readPartition(own.pk)).filter(
    (child) => child.sk !== own.sk && !isCounterItem(child),
  );
  for (const child of children) {
    const sk = String(child.sk);
    if (sk.startsWith(FORK_PREFIX)) await releaseFork(projectId, Number(child.fork_id));
    // The log first: a purge cut short finds it again through the hook.
    if (sk.startsWith(HOOK_PREFIX)) await purgeHookLog(Number(child.id), files.removeHookPayload);
  }
  for (const child of children) {
    const counters = COUNTED_KINDS.has(String(child.kind)) ? listCountChanges(child, -1) : [];
    await commitUnlessDone([remove({ pk: own.pk, sk: String(child.sk) }, EXISTING_ITEM), ...counters]);
  }
  // The path and name may already belong to a newer project: remove them only while they are ours.
  await commitUnlessDone([releaseOwned(keys.route(project.path_with_namespace), projectId)]);
  await commitUnlessDone([releaseOwned(keys.projectName(project.namespace.id, project.name), projectId)]);
  // The counter of its own members' list goes with it (those of lists shared with others stay).
  await commitUnlessDone([
    remove(own, EXISTING_ITEM),
    ...listCountChanges(item, -1),
    ...listCountKeys(lists.projectMembers(projectId)).map((key) => remove(key)),
  ]);
}

/**
 * A fork purged with its group (a project deleted on its own left its source when marked): its
 * link in the source's partition and the source's `forks_count` go, while the relation is as read;
 * a relation already ended by someone else is left to them.
 */
async function leaveSource(projectId: number, sourceId: number | null): Promise<void> {
  if (sourceId === null) return;
  await commitUnlessDone([
    update(keys.project(projectId), 'SET forked_from_project_id = :none', {
      condition: 'forked_from_project_id = :source',
      values: { ':none': null, ':source': sourceId },
    }),
    ...leaveSourceItems(sourceId, projectId),
  ]);
}

/**
 * A fork of the purged project stays and loses its `forked_from_project`, only while it still
 * names this source (it may have been re-linked meanwhile); its link goes with the partition.
 */
async function releaseFork(sourceId: number, forkId: number): Promise<void> {
  if (!Number.isInteger(forkId)) return;
  await writeAlone(
    update(keys.project(forkId), 'SET forked_from_project_id = :none', {
      condition: 'attribute_exists(pk) AND forked_from_project_id = :source',
      values: { ':none': null, ':source': sourceId },
    }),
  );
}
