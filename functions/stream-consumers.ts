/**
 * THE stream-consumer table: one function per entry, fed by the table's DynamoDB stream (on AWS an
 * event source mapping; locally bin/local/streams.ts). Plain data, read by the stack and the local
 * runtime alike.
 */
import { streamKeys } from '#store/table/stream-keys.ts';
import type { Access } from './routes.ts';

/**
 * One value a filter field accepts: the value itself, or `{ prefix }` for a string that begins
 * with it (Lambda's event-filtering grammar, limited to what the local poller implements).
 */
export type StreamFilterValue = string | number | boolean | null | { readonly prefix: string };

/**
 * A Lambda event-filter pattern over a stream record in its JSON shape (`eventName`,
 * `dynamodb.Keys.sk.S`, …): every named field must hold one of the listed values; nested objects
 * match nested fields. A record passes when any of a consumer's patterns matches.
 */
export interface StreamFilterPattern {
  readonly [field: string]: StreamFilterPattern | readonly StreamFilterValue[];
}

export interface StreamConsumerDefinition {
  /** Names the function, its failure queue and its logs. */
  name: string;
  entry: string;
  /** Records per invocation, at most. */
  batchSize: number;
  /** How long the event source may wait to fill a batch (0: invoke with what is there). */
  maxBatchingWindowSeconds: number;
  /** Retries of a failed batch (from its first failed record) before it goes to the failure queue. */
  retryAttempts: number;
  /** Records older than this are not retried but sent to the failure queue. */
  maxRecordAgeSeconds: number;
  /** Split a batch in two when the function throws, to isolate the record that breaks it. */
  bisectOnError: boolean;
  /** Batches of one shard handled at once (1–10); records of one item stay in order. */
  parallelizationFactor: number;
  /** The records the function sees (any pattern matching); all others never invoke it. */
  filters: readonly StreamFilterPattern[];
  /** Function timeout in seconds. */
  timeout: number;
  access: Access;
}

const insertOrModify = ['INSERT', 'MODIFY'] as const;

/**
 * How every consumer takes its records: batches of up to 100 at once, retried 10 times (bisected
 * to isolate the record that fails) for up to a day, then to the failure queue.
 */
const DELIVERY = {
  batchSize: 100,
  maxBatchingWindowSeconds: 0,
  retryAttempts: 10,
  maxRecordAgeSeconds: 86_400,
  bisectOnError: true,
} as const;

export const streamConsumers: readonly StreamConsumerDefinition[] = [
  {
    name: 'hook-events',
    entry: 'functions/workers/hook-events.ts',
    ...DELIVERY,
    // A busy project's notes share few shards: ten batches at once, each item's records in order.
    parallelizationFactor: 10,
    // Notes (their long-body parts too: the consumer skips `#PART#` keys), issues, merge requests;
    // award emoji awarded and revoked (a revocation leaves an item of its own).
    filters: [
      { eventName: insertOrModify, dynamodb: { Keys: { sk: { S: [{ prefix: streamKeys.notePrefix }] } } } },
      { eventName: insertOrModify, dynamodb: { Keys: { sk: { S: [...streamKeys.issuableSortKeys] } } } },
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: streamKeys.awardPrefix }] } } } },
    ],
    timeout: 60,
    // A payload too long for its delivery item is written to the bucket (shared/delivery/fan-out.ts).
    access: { table: 'write', bucket: 'write', queues: ['hook-delivery'] },
  },
  {
    name: 'note-touches',
    entry: 'functions/workers/note-touches.ts',
    ...DELIVERY,
    parallelizationFactor: 10,
    // New notes (the consumer skips the `#PART#` items of long bodies).
    filters: [
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: streamKeys.notePrefix }] } } } },
    ],
    timeout: 30,
    access: { table: 'write' },
  },
  {
    name: 'counter-rollups',
    entry: 'functions/workers/counter-rollups.ts',
    ...DELIVERY,
    // Each partition's records are handled in order; rollups from earlier changes never replace later ones.
    parallelizationFactor: 10,
    // Changes of the counter shards of projects, issues, merge requests, snippets and epics.
    filters: [
      {
        eventName: insertOrModify,
        dynamodb: {
          Keys: {
            pk: { S: streamKeys.countedPartitionPrefixes.map((prefix) => ({ prefix })) },
            sk: { S: [{ prefix: streamKeys.counterShardPrefix }] },
          },
        },
      },
    ],
    timeout: 30,
    access: { table: 'write' },
  },
  {
    name: 'reference-changes',
    entry: 'functions/workers/reference-changes.ts',
    ...DELIVERY,
    parallelizationFactor: 1,
    // Labels changed (the consumer keeps those whose title moved) or removed; milestones removed;
    // projects changed (the consumer keeps those moved into another namespace out of a group).
    filters: [
      {
        eventName: ['MODIFY', 'REMOVE'],
        dynamodb: { Keys: { sk: { S: [{ prefix: streamKeys.labelPrefix }] } } },
      },
      { eventName: ['REMOVE'], dynamodb: { Keys: { sk: { S: [{ prefix: streamKeys.milestonePrefix }] } } } },
      { eventName: ['MODIFY'], dynamodb: { Keys: { sk: { S: [streamKeys.projectSortKey] } } } },
    ],
    timeout: 30,
    // It only queues the work.
    access: { queues: ['issuable-rewrite'] },
  },
  {
    name: 'push-events',
    entry: 'functions/workers/push-events.ts',
    ...DELIVERY,
    // Each project's states in order (one pointer item per project).
    parallelizationFactor: 10,
    // Repository pointers put or moved (the consumer keeps those naming a new refs document).
    filters: [
      { eventName: insertOrModify, dynamodb: { Keys: { sk: { S: [streamKeys.repositorySortKey] } } } },
    ],
    // Reading two states' refs and walking their commits, for up to 100 refs; an API write's
    // state is also recounted (commit_count of HEAD) for the project's statistics.
    timeout: 120,
    access: { table: 'write', bucket: 'write', queues: ['hook-delivery'] },
  },
];
