import { defineStreamWorker } from '#queue/stream-worker.ts';
import { rollUpCounters } from '#store/table/counter-rollups.ts';

/**
 * The table's change stream → the rollup of each counted item whose counter shards changed
 * (what list pages read for its counts). Safe to run twice, or out of order, on the same record.
 */
export const handler = defineStreamWorker(
  'counter-rollups',
  (change) => rollUpCounters(change.keys.pk, change.sequenceNumber),
  { latestPerPartition: true },
);
