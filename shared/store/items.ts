/** Single-item reads shared by the repositories. */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { keyFits, keys } from './keys.ts';

/** One item by key, read consistently so a write a moment ago is seen. */
export async function getItem(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  if (!keyFits(key)) return undefined;
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
  );
  return result.Item;
}

/**
 * Every item of a partition, or those whose sort key begins with `skPrefix`; only the attributes
 * named in `projection` when given.
 */
export async function readPartition(
  pk: string,
  options: { skPrefix?: string; projection?: string } = {},
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
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * The id behind a reference: a number is the id itself, anything else a full path looked up in the
 * route items (case-insensitively), which must belong to the expected kind.
 */
export async function idFromReference(reference: string | number, kind: 'user' | 'group' | 'project') {
  const text = String(reference);
  if (/^\d+$/.test(text)) return Number(text);
  const route = await getItem(keys.route(text));
  return route?.kind === kind ? Number(route.id) : undefined;
}
