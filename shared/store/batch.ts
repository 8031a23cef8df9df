import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';

type Key = { pk: string; sk: string };

/** Reads many items by key (100 per request, consistent, retrying unprocessed keys); missing ones are skipped. */
export async function batchGetItems(keyList: Key[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const unique = [...new Map(keyList.map((key) => [`${key.pk}|${key.sk}`, key])).values()];
  for (let start = 0; start < unique.length; start += 100) {
    let request: Record<string, { Keys: Key[]; ConsistentRead: boolean }> | undefined = {
      [tableName()]: { Keys: unique.slice(start, start + 100), ConsistentRead: true },
    };
    while (request && Object.keys(request).length) {
      const result = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
      found.push(...(result.Responses?.[tableName()] ?? []));
      request = result.UnprocessedKeys as typeof request;
    }
  }
  return found;
}
