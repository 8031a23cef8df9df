/**
 * Keeping each counted item's rollup (store/table/counters.ts) in step with its shards: after a change
 * of a shard, the shards are read again (consistently) and the rollup replaced, unless one from a
 * later stream position is already there. Idempotent, and safe in any order: the rollup from the
 * latest change read the shards after that change, so once changes stop it holds their exact sums.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { countedItemOf, rollupOf, shardKeysOf, streamPosition } from './counters.ts';

/** Rolls up the counters whose shards partition `pk` holds, as of stream record `sequenceNumber`. */
export async function rollUpCounters(pk: string, sequenceNumber: string): Promise<void> {
  const item = countedItemOf(pk);
  if (!item) return;
  const shards = await batchGetItems(shardKeysOf(item));
  const rollup = rollupOf(item, shards, streamPosition(sequenceNumber));
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: rollup,
        ConditionExpression: 'attribute_not_exists(pk) OR #position < :position',
        ExpressionAttributeNames: { '#position': 'position' },
        ExpressionAttributeValues: { ':position': rollup.position },
      }),
    );
  } catch (error) {
    // A rollup from a later change (or the deleted item's mark) is already there.
    if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
  }
}
