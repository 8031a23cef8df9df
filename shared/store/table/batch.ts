import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { counterKeysOf, isCounterShard, mergeCounters, mergeRollups, rollupKeysOf } from './counters.ts';
import { keyFits } from './keys.ts';

export type Key = { pk: string; sk: string };

/** A key, or the key of an item read, as one string: for sets and maps of keys. */
export const keyString = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}|${String(key.sk)}`;

/** Whether an item read is at one of `keyList`. */
export function isAtOneOf(keyList: Key[]): (item: Record<string, unknown>) => boolean {
  const wanted = new Set(keyList.map(keyString));
  return (item) => wanted.has(keyString(item));
}

/** How a batch reads counted items. */
export interface BatchReadOptions {
  /**
   * False: counted items come without their counters (their counts read 0), no shard read, for a
   * reader that shows none of them.
   */
  counters?: boolean;
}

/**
 * Reads many items by key (100 per request, consistent, retrying unprocessed keys); missing ones
 * are skipped. An item that carries counters (store/table/counters.ts) comes with their sums, its
 * shards read in the same batch (unless `counters` is false).
 */
export async function batchGetItems(
  keyList: Key[],
  options: BatchReadOptions = {},
): Promise<Record<string, unknown>[]> {
  const wanted = keyList.filter(keyFits);
  const shards = options.counters === false ? [] : counterKeysOf(wanted);
  if (!shards.length) return readKeys(wanted);
  const read = await readKeys([...wanted, ...shards]);
  const asked = isAtOneOf(wanted);
  return mergeCounters(
    read.filter((item) => !isCounterShard(item) || asked(item)),
    read.filter(isCounterShard),
  );
}

async function readKeys(keyList: Key[], consistent = true): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keyList.map((key) => [keyString(key), key])).values()];
  const chunks: Key[][] = [];
  for (let start = 0; start < unique.length; start += 100) chunks.push(unique.slice(start, start + 100));
  // Chunks are independent: read them side by side so 101 keys cost one round trip, like 100.
  const results = await Promise.all(chunks.map((chunk) => readChunk(chunk, consistent)));
  return results.flat();
}

async function readChunk(keys: Key[], consistent: boolean): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let request: Record<string, { Keys: Key[]; ConsistentRead: boolean }> | undefined = {
    [tableName()]: { Keys: keys, ConsistentRead: consistent },
  };
  while (request && Object.keys(request).length) {
    const result = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
    found.push(...(result?.Responses?.[tableName()] ?? []));
    request = result?.UnprocessedKeys as typeof request;
  }
  return found;
}

/** Puts many items (25 per request, side by side, retrying unprocessed ones); for idempotent writes only. */
export async function batchWriteItems(items: Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) chunks.push(items.slice(start, start + 25));
  await Promise.all(
    chunks.map(async (chunk) => {
      let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
        [tableName()]: chunk.map((Item) => ({ PutRequest: { Item } })),
      };
      while (request && Object.keys(request).length) {
        const result = await documentClient().send(new BatchWriteCommand({ RequestItems: request }));
        request = result.UnprocessedItems as typeof request;
      }
    }),
  );
}

/** Deletes many items by key (25 per request, side by side, retrying unprocessed ones); idempotent. */
export async function batchDeleteItems(keyList: Key[]): Promise<void> {
  const chunks: Key[][] = [];
  for (let start = 0; start < keyList.length; start += 25) chunks.push(keyList.slice(start, start + 25));
  await Promise.all(
    chunks.map(async (chunk) => {
      let request: Record<string, { DeleteRequest: { Key: Key } }[]> | undefined = {
        [tableName()]: chunk.map((Key) => ({ DeleteRequest: { Key } })),
      };
      while (request && Object.keys(request).length) {
        const result = await documentClient().send(new BatchWriteCommand({ RequestItems: request }));
        request = result.UnprocessedItems as typeof request;
      }
    }),
  );
}

/**
 * Items read by a Query (a page of a list) with their counters from their rollups
 * (store/table/counters.ts), one key per item in one batch, eventually consistent like the index the
 * page came from (half the read units); items without counters come back as they are, and no
 * read is made for them.
 */
export async function withCounters(items: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const rollups = rollupKeysOf(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  if (!rollups.length) return items;
  return mergeRollups(items, await readKeys(rollups, false));
}

/**
 * A page's items with their counters (as `withCounters`) and the items at `others` (what the page
 * shows besides: its users), in one batch: one round trip instead of two. The batch is consistent,
 * as `others` are read everywhere else; the rollups cost a full read unit each then.
 */
export async function withCountersAnd(
  items: Record<string, unknown>[],
  others: Key[],
): Promise<{ items: Record<string, unknown>[]; others: Record<string, unknown>[] }> {
  if (!others.length) return { items: await withCounters(items), others: [] };
  const rollups = rollupKeysOf(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  if (!rollups.length) return { items, others: await batchGetItems(others) };
  const isRollup = isAtOneOf(rollups);
  const read = await batchGetItems([...others, ...rollups]);
  return {
    items: mergeRollups(items, read.filter(isRollup)),
    others: read.filter((item) => !isRollup(item)),
  };
}
