import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';

export type Key = { pk: string; sk: string };

/** Reads many items by key (100 per request, consistent, retrying unprocessed keys); missing ones are skipped. */
export async function batchGetItems(keyList: Key[]): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keyList.map((key) => [`${key.pk}|${key.sk}`, key])).values()];
  const chunks: Key[][] = [];
  for (let start = 0; start < unique.length; start += 100) chunks.push(unique.slice(start, start + 100));
  // Chunks are independent: read them side by side so 101 keys cost one round trip, like 100.
  const results = await Promise.all(chunks.map(readChunk));
  return results.flat();
}

async function readChunk(keys: Key[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let request: Record<string, { Keys: Key[]; ConsistentRead: boolean }> | undefined = {
    [tableName()]: { Keys: keys, ConsistentRead: true },
  };
  while (request && Object.keys(request).length) {
    const result = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
    found.push(...(result.Responses?.[tableName()] ?? []));
    request = result.UnprocessedKeys as typeof request;
  }
  return found;
}
