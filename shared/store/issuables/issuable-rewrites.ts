/**
 * Issues and merge requests following a label's rename or removal and a milestone's removal, and
 * epics following a group label's (the issuable-rewrite job): the change a label's or milestone's
 * stream record asks for, the projects and the groups of a group's tree page by page, and a page of
 * a project's issues or merge requests, or of a group's epics, rewritten.
 *
 * Each item is rewritten by its own conditional update of `labels` (or `milestone_id`) alone:
 * `updated_at` and its sort value stay (GitLab's rename touches no issue, and the webhook consumer
 * takes a change that leaves them for no user's edit), so do the list attributes, and the counter
 * shards beside the item are not written. The condition holds the item as read, so a concurrent
 * edit wins and the item is read again and rewritten after it.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { VISIBILITIES } from '#domain/access.ts';
import { type LabelRewrite, type ReferenceCarry, relabelled } from '#domain/issuable-rewrites.ts';
import { decodeGroup, getRawGroup } from '../groups/group-items.ts';
import { documentClient, tableName } from '../table/client.ts';
import { type ListRef, lists } from '../table/list-keys.ts';
import type { Raw } from '../table/raw.ts';
import { indexName, treeIndex } from '../table/table.ts';
import { update, writeAlone } from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { carryReferences } from './reference-carry.ts';

/** Where a walk stopped: the Query's LastEvaluatedKey, to start the next page after it. */
type WalkCursor = Record<string, string>;

/** A page's items, and where the next page starts (absent after the last). */
interface WalkPage<T> {
  items: T[];
  next?: WalkCursor;
}

type Key = { pk: string; sk: string };

const asCursor = (key: Record<string, unknown> | undefined): WalkCursor | undefined =>
  key && Object.fromEntries(Object.entries(key).map(([name, value]) => [name, String(value)]));

/** How many visibility partitions hold a group tree's projects (the job walks them in turn). */
export const PROJECT_PARTITIONS = VISIBILITIES.length;

/**
 * A page of the ids of the projects of a group and of every subgroup below it, from one
 * visibility's tree partition (`visibility`: its index in VISIBILITIES); none when the group is
 * gone or being deleted. Projects being deleted are left out.
 */
export function groupTreeProjectIds(
  groupId: number,
  visibility: number,
  after: WalkCursor | undefined,
  limit: number,
): Promise<WalkPage<number>> {
  const partition = VISIBILITIES[visibility];
  if (!partition) return Promise.resolve({ items: [] });
  return groupTreeIds(tree.projects(partition), groupId, after, limit);
}

/**
 * A page of the ids of a group and of every subgroup below it; none when the group is gone or
 * being deleted. Groups being deleted are left out.
 */
export function groupTreeGroupIds(
  groupId: number,
  after: WalkCursor | undefined,
  limit: number,
): Promise<WalkPage<number>> {
  return groupTreeIds(tree.groups, groupId, after, limit);
}

/** A page of the ids in a tree partition (of the group's root) under the group's path. */
async function groupTreeIds(
  partitionOf: (rootId: number) => string,
  groupId: number,
  after: WalkCursor | undefined,
  limit: number,
): Promise<WalkPage<number>> {
  const item = await getRawGroup(groupId);
  if (!item || item.deleting) return { items: [] };
  const group = decodeGroup(item);
  const traversal = [...group.ancestor_ids, group.id];
  const result: QueryCommandOutput = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: treeIndex.name,
      KeyConditionExpression: '#tree = :tree AND begins_with(#path, :path)',
      ExpressionAttributeNames: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
      ExpressionAttributeValues: {
        ':tree': partitionOf(traversal[0] as number),
        ':path': tree.path(traversal),
      },
      ProjectionExpression: 'id, deleting',
      Limit: limit,
      ExclusiveStartKey: after,
    }),
  );
  const items = ((result.Items ?? []) as Raw[])
    .filter((found) => !found.deleting)
    .map((found) => Number(found.id));
  return { items, next: asCursor(result.LastEvaluatedKey) };
}

type IssuableCollection = 'issues' | 'merge_requests';

/** What a page of issuables is made to follow. */
export type IssuableRewrite =
  | { labels: LabelRewrite }
  | { milestoneId: number }
  /** A moved project's: the labels and milestones of the groups it left (store/issuables/reference-carry.ts). */
  | { carry: ReferenceCarry };

/** The attributes a rewrite reads and decides on (the key's too). */
const PROJECTION = {
  expression: 'pk, sk, #labels, #milestone, #updated, #deleting',
  names: {
    '#labels': 'labels',
    '#milestone': 'milestone_id',
    '#updated': 'updated_at',
    '#deleting': 'deleting',
  },
};

/** Attempts at one item while concurrent edits keep winning; then the page fails and is tried again. */
const ATTEMPTS = 20;

/**
 * Rewrites a page of a project's issues or merge requests (up to `limit` read, in id order after
 * `after`): each that carries the label's old title or the removed milestone. Safe to run twice.
 */
export async function rewriteIssuablePage(
  projectId: number,
  collection: IssuableCollection,
  rewrite: IssuableRewrite,
  after: WalkCursor | undefined,
  limit: number,
): Promise<{ next?: WalkCursor }> {
  const list =
    collection === 'issues' ? lists.projectIssues(projectId) : lists.projectMergeRequests(projectId);
  return rewriteListPage(list, rewrite, after, limit);
}

/**
 * Relabels a page of a group's epics (up to `limit` read, in id order after `after`): each that
 * carries the label's old title. Safe to run twice.
 */
export function relabelEpicPage(
  groupId: number,
  rewrite: LabelRewrite,
  after: WalkCursor | undefined,
  limit: number,
): Promise<{ next?: WalkCursor }> {
  return rewriteListPage(lists.groupEpics(groupId), { labels: rewrite }, after, limit);
}

async function rewriteListPage(
  list: ListRef,
  rewrite: IssuableRewrite,
  after: WalkCursor | undefined,
  limit: number,
): Promise<{ next?: WalkCursor }> {
  const result: QueryCommandOutput = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexName(list.attribute, 'id'),
      KeyConditionExpression: '#list = :list',
      ExpressionAttributeNames: { '#list': list.attribute, ...PROJECTION.names },
      ExpressionAttributeValues: { ':list': list.partition },
      ProjectionExpression: PROJECTION.expression,
      Limit: limit,
      ExclusiveStartKey: after,
    }),
  );
  const items = (result.Items ?? []) as Raw[];
  if ('carry' in rewrite) await carryReferences(rewrite.carry, items);
  for (const item of items) {
    const key = { pk: String(item.pk), sk: String(item.sk) };
    if ('labels' in rewrite) await relabelItem(key, item, rewrite.labels);
    else if ('milestoneId' in rewrite) await dropMilestone(key, item, rewrite.milestoneId);
  }
  return { next: asCursor(result.LastEvaluatedKey) };
}

/** The item as stored now (consistently), only the attributes a rewrite decides on. */
async function readForRewrite(key: Key): Promise<Raw | undefined> {
  const result = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: PROJECTION.expression,
      ExpressionAttributeNames: PROJECTION.names,
    }),
  );
  return result.Item as Raw | undefined;
}

const labelsOf = (item: Raw): string[] => (Array.isArray(item.labels) ? item.labels.map(String) : []);

/**
 * The item's titles rewritten, on the condition that its labels and updated time are still as
 * read; a lost race reads it again and decides again.
 */
async function relabelItem(key: Key, read: Raw, rewrite: LabelRewrite): Promise<void> {
  let item: Raw | undefined = read;
  for (let attempt = 1; item && !item.deleting; attempt++) {
    const labels = labelsOf(item);
    const next = relabelled(labels, rewrite);
    if (!next) return;
    const written = await writeAlone(
      update(key, 'SET #labels = :next', {
        condition:
          'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #updated = :read AND #labels = :labels',
        names: { '#labels': 'labels', '#updated': 'updated_at', '#deleting': 'deleting' },
        values: { ':next': next, ':read': item.updated_at, ':labels': labels },
      }),
    );
    if (written) return;
    if (attempt >= ATTEMPTS) throw new Error(`labels of ${key.pk} kept changing during their rewrite`);
    item = await readForRewrite(key);
  }
}

/** The item's milestone dropped while it is still the removed one (a later change of it wins). */
async function dropMilestone(key: Key, item: Raw, milestoneId: number): Promise<void> {
  if (item.milestone_id !== milestoneId || item.deleting) return;
  await writeAlone(
    update(key, 'SET #milestone = :none', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #milestone = :id',
      names: { '#milestone': 'milestone_id', '#deleting': 'deleting' },
      values: { ':none': null, ':id': milestoneId },
    }),
  );
}
