/**
 * Removing issues, merge requests, snippets and epics with everything in their partitions (notes,
 * parts of long note bodies), for a deleted issue and for the purge of a deleted project or group.
 * Each item is removed by key and the parent last, so a purge cut short finds the rest again when
 * it runs once more.
 */

import { EPIC_STATES } from '#domain/epics.ts';
import { ISSUE_STATES } from '#domain/issues.ts';
import { MERGE_REQUEST_STATES } from '#domain/merge-requests.ts';
import { batchDeleteItems, batchWriteItems, type Key } from '../table/batch.ts';
import { isCounterItem, shardTombstoneItems } from '../table/counters.ts';
import { readPartition } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { listCounter } from '../table/list-counters.ts';
import { type ListRef, lists } from '../table/list-keys.ts';
import { forEachListPage, listCountKeys } from '../table/lists.ts';

const keyOf = (item: Record<string, unknown>): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/**
 * Removes a parent's partition: what hangs on it (notes, parts of long bodies and contents) first,
 * the parent's own item (the one sort key without a `#`) last, so a removal cut short still finds
 * the rest through the parent's list.
 */
export async function removeParentPartition(pk: string): Promise<void> {
  // Consistent: a note written a moment before its parent's removal is removed with it.
  const items = await readPartition(pk, { projection: 'pk, sk', consistent: true });
  const isHead = (item: Record<string, unknown>) => !String(item.sk).includes('#') && !isCounterItem(item);
  // The counter shards stay, marked deleted, so a note still on its way is refused (TTL ends them);
  // the rollup stays for the mark the counters' stream consumer leaves on it.
  await batchWriteItems(items.filter(isHead).flatMap((item) => shardTombstoneItems(keyOf(item))));
  const rest = items.filter((item) => !isHead(item) && !isCounterItem(item));
  await batchDeleteItems(rest.map(keyOf));
  await batchDeleteItems(items.filter(isHead).map(keyOf));
}

/** Every parent in a list, partition by partition; then the list's counters. */
async function purgeList(
  list: ListRef,
  counted: ListRef[],
  extra?: (item: Record<string, unknown>) => Key[],
) {
  await forEachListPage(list, 'pk, sk, group_id, iid', async (items) => {
    for (const item of items) {
      if (extra) await batchDeleteItems(extra(item));
      await removeParentPartition(String(item.pk));
    }
  });
  // A total kept as a counter of the project itself (its open issues) stays with its marked shards.
  await batchDeleteItems([list, ...counted].filter((ref) => !listCounter(ref).live).flatMap(listCountKeys));
}

/** A project's issues, merge requests and snippets with their notes, and their lists' counters. */
export async function purgeProjectNoteables(projectId: number): Promise<void> {
  await purgeList(
    lists.projectIssues(projectId),
    ISSUE_STATES.map((state) => lists.projectIssuesInState(projectId, state)),
  );
  await purgeList(
    lists.projectMergeRequests(projectId),
    MERGE_REQUEST_STATES.map((state) => lists.projectMergeRequestsInState(projectId, state)),
  );
  await purgeList(lists.projectSnippets(projectId), []);
}

/** A group's epics with their notes and iid items, their lists' counters and the iid counter. */
export async function purgeGroupEpics(groupId: number): Promise<void> {
  await purgeList(
    lists.groupEpics(groupId),
    EPIC_STATES.map((state) => lists.groupEpicsInState(groupId, state)),
    (item) => [keys.epicIid(groupId, Number(item.iid))],
  );
  await batchDeleteItems([keys.epicIidCounter(groupId)]);
}
