/** Single-item reads shared by the repositories. */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, type Key } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { counterKeysOf, mergeCounters } from './counters.ts';
import { keyFits, keys } from './keys.ts';

/**
 * One item by key, read consistently so a write a moment ago is seen; an item that carries
 * counters comes with their sums (its shards read beside it).
 */
export async function getItem(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  if (!keyFits(key)) return undefined;
  const shardKeys = counterKeysOf([key]);
  const [result, shards] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true })),
    shardKeys.length ? batchGetItems(shardKeys) : [],
  ]);
  const item = result?.Item;
  return item && shardKeys.length ? mergeCounters([item], shards)[0] : item;
}

/** An item unless it is being deleted (a deleted group's items stay until the worker removes them). */
export async function getLiveItem(key: Key): Promise<Record<string, unknown> | undefined> {
  const item = await getItem(key);
  return item && !item.deleting ? item : undefined;
}

/** The items of these keys that exist and are not being deleted, in one batch. */
export const getLiveItems = async (keyList: Key[]) =>
  (await batchGetItems(keyList)).filter((item) => !item.deleting);

/**
 * Every item of a partition, or those whose sort key begins with `skPrefix`; only the attributes
 * named in `projection` when given.
 */
export async function readPartition(
  pk: string,
  options: { skPrefix?: string; projection?: string; consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression:
          options.skPrefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues:
          options.skPrefix === undefined ? { ':pk': pk } : { ':pk': pk, ':prefix': options.skPrefix },
        ProjectionExpression: options.projection,
        ...(options.consistent ? { ConsistentRead: true } : {}),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Who a route item names: a user, a group or a project. */
export interface RouteOwner {
  kind: string;
  id: number;
}

/**
 * The item behind a reference of the given kind: a number is the id itself; a full path is looked
 * up in the route items together with the routes of its leading segments (the namespaces above it,
 * root first, undefined where none), in one read, so a caller can refuse an item whose path now
 * belongs to someone else (a namespace renamed or being deleted).
 */
export async function resolveReference(
  reference: string | number,
  kind: 'group' | 'project',
): Promise<{ id: number; above: (RouteOwner | undefined)[] } | undefined> {
  const text = String(reference);
  if (/^\d+$/.test(text)) return { id: Number(text), above: [] };
  const segments = text.split('/');
  const prefixes = segments.map((_, index) => segments.slice(0, index + 1).join('/'));
  const routeKeys = prefixes.map((prefix) => keys.route(prefix));
  const found =
    routeKeys.length === 1
      ? [await getItem(routeKeys[0] as Key)].filter((item) => item !== undefined)
      : await batchGetItems(routeKeys);
  const byKey = new Map(found.map((item) => [String(item.pk), item]));
  const ownerOf = (key: Key): RouteOwner | undefined => {
    const route = byKey.get(key.pk);
    return route ? { kind: String(route.kind), id: Number(route.id) } : undefined;
  };
  const own = ownerOf(routeKeys[routeKeys.length - 1] as Key);
  if (own?.kind !== kind) return undefined;
  return { id: own.id, above: routeKeys.slice(0, -1).map(ownerOf) };
}

/** Whether the namespaces a path named above an item are the item's own (ids root first). */
export const namesSameNamespaces = (
  above: (RouteOwner | undefined)[],
  expected: readonly RouteOwner[],
): boolean =>
  above.length === 0 ||
  (above.length === expected.length &&
    above.every(
      (owner, index) => owner?.kind === expected[index]?.kind && owner?.id === expected[index]?.id,
    ));
