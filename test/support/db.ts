/**
 * Direct access to the local runtime's DynamoDB Local, for tests that check what is stored by key
 * rather than trusting the API's answer.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';

let client: DynamoDBDocumentClient | undefined;

/** The runtime's table and a DocumentClient on its DynamoDB Local. */
export function localDatabase(): { db: DynamoDBDocumentClient; table: string } {
  client ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamodbEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return { db: client, table: inject('tableName') };
}

/** One item by key, read consistently. */
export async function storedItem(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  const { db, table } = localDatabase();
  const result = await db.send(new GetCommand({ TableName: table, Key: { pk, sk }, ConsistentRead: true }));
  return result.Item;
}

/** Every item of a partition, read consistently (a parent, its notes, the parts of its long texts). */
export async function partitionItems(pk: string): Promise<Record<string, unknown>[]> {
  const { db, table } = localDatabase();
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** How many items a list holds: a COUNT Query on the list's `<l1|l2>-id` index. */
export async function listSize(list: 'l1' | 'l2', name: string): Promise<number> {
  const { db, table } = localDatabase();
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: `${list}-id`,
        KeyConditionExpression: '#list = :name',
        ExpressionAttributeNames: { '#list': list },
        ExpressionAttributeValues: { ':name': name },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** A counter as stored (store/table/counters.ts): the attribute summed over the partition's `COUNT#` shards. */
export async function storedCount(pk: string, attribute: string): Promise<number> {
  const items = await partitionItems(pk);
  return items
    .filter((item) => String(item.sk).startsWith('COUNT#'))
    .reduce((sum, item) => sum + Number(item[attribute] ?? 0), 0);
}

/**
 * A partition's items but the marks a deleted item leaves on its counter shards and rollup
 * (`COUNT#…` and `COUNTS` with `deleting` and an `expires` for TTL, store/table/counters.ts), which stay
 * to refuse late writers.
 */
export async function itemsLeft(pk: string): Promise<Record<string, unknown>[]> {
  const items = await partitionItems(pk);
  const tombstone = (item: Record<string, unknown>) =>
    (String(item.sk).startsWith('COUNT#') || item.sk === 'COUNTS') &&
    item.deleting === true &&
    typeof item.expires === 'number';
  return items.filter((item) => !tombstone(item));
}

/** A list's total as stored: the `count` of its `LISTCOUNT#<list>` shards, undefined when it has none. */
export async function storedListCount(list: string): Promise<number | undefined> {
  const shards = await partitionItems(`LISTCOUNT#${list}`);
  return shards.length ? shards.reduce((sum, shard) => sum + Number(shard.count ?? 0), 0) : undefined;
}
