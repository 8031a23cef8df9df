/**
 * The counter-rollups stream consumer: after a change of a counted item's counter shard, the
 * item's shards are read again (consistently, in one batch) and its rollup (`<pk>` / `COUNTS`)
 * put, unless one from a later stream position is already there. Only the last record of each
 * partition in a batch is handled (it reads the same shards); a failure sends the event source
 * back to that partition's first record.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { rollupKey, shardKey } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler } from '../../functions/workers/counter-rollups.ts';
import { lambdaContext, streamImage, streamRecord } from '../support/events.ts';
import { ddb, resetMocks, sentCommands, TABLE } from './fixtures.ts';
import {
  batchGet,
  givenTable,
  type Item,
  type Key,
  PROJECT_SHARDS,
  shardKeys,
  shardTombstoneItems,
  store,
  THREAD_SHARDS,
  TOMBSTONE_EXPIRES,
} from './resource-fixtures.ts';

const LAST_POSITION = '9'.repeat(40);

/** A stream record's sequence number (21 digits, as DynamoDB's are at least). */
const sequenceOf = (sequence: number) => `4${String(sequence).padStart(20, '0')}`;
/** The same number as a rollup's position: padded to 40 digits. */
const positionOf = (sequence: number) => sequenceOf(sequence).padStart(40, '0');

/** A stream record of a counter shard's change (its images as DynamoDB sends them). */
function shardRecord(
  sequence: number,
  key: Key,
  newImage: Record<string, { N: string } | { BOOL: boolean }> = { star_count: { N: '1' } },
  eventName: 'INSERT' | 'MODIFY' = 'MODIFY',
): DynamoDBRecord {
  const keys = streamImage({ pk: key.pk, sk: key.sk });
  return streamRecord(sequenceOf(sequence), eventName, {
    keys,
    newImage: { ...keys, ...newImage },
    ...(eventName === 'MODIFY' ? { oldImage: keys } : {}),
  });
}

const run = (records: DynamoDBRecord[]) =>
  handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext('counter-rollups'));

/** The put of a rollup, replacing only a rollup from an earlier stream position (or none). */
const rollupPut = (item: Item) => ({
  PutCommand: {
    TableName: TABLE,
    Item: item,
    ConditionExpression: 'attribute_not_exists(pk) OR #position < :position',
    ExpressionAttributeNames: { '#position': 'position' },
    ExpressionAttributeValues: { ':position': item.position },
  },
});

const failures = (...sequences: number[]) => ({
  batchItemFailures: sequences.map((sequence) => ({ itemIdentifier: sequenceOf(sequence) })),
});

/** The commands sent for one partition (its shards' read, its rollup's put), in order. */
const commandsOf = (pk: string) =>
  sentCommands().filter((command) => {
    const read = command.BatchGetCommand as { RequestItems: Record<string, { Keys: Key[] }> } | undefined;
    const put = command.PutCommand as { Item: Item } | undefined;
    return read ? read.RequestItems[TABLE]?.Keys[0]?.pk === pk : put?.Item.pk === pk;
  });

const PROJECT_PK = keys.project(42).pk;
const ISSUE_PK = keys.issue(42, 4).pk;

/** Project 42's four shards, with what jobs recorded on shard 0 (and a stray value on shard 1). */
const projectShards = (): Item[] => [
  {
    ...shardKey(PROJECT_PK, 0),
    star_count: 2,
    forks_count: 1,
    open_issues_count: 3,
    uploads_size: 100,
    import_status: 'finished',
    commit_count: 12,
    repository_size: 2048,
  },
  { ...shardKey(PROJECT_PK, 1), star_count: 1, open_issues_count: -1, commit_count: 99 },
  { ...shardKey(PROJECT_PK, 2), forks_count: 2, uploads_size: 50 },
  { ...shardKey(PROJECT_PK, 3), star_count: 4 },
];

/** Project 42's rollup of those shards at a stream position. */
const projectRollup = (sequence: number): Item => ({
  ...rollupKey(PROJECT_PK),
  star_count: 7,
  forks_count: 3,
  open_issues_count: 2,
  uploads_size: 150,
  import_status: 'finished',
  commit_count: 12,
  repository_size: 2048,
  position: positionOf(sequence),
});

const issueShards = (): Item[] => [
  { ...shardKey(ISSUE_PK, 0), notes_count: 3, user_notes_count: 2 },
  { ...shardKey(ISSUE_PK, 1), notes_count: 2, user_notes_count: 1 },
];

const issueRollup = (sequence: number): Item => ({
  ...rollupKey(ISSUE_PK),
  notes_count: 5,
  user_notes_count: 3,
  // Its votes (award emoji), none on its shards here.
  upvotes: 0,
  downvotes: 0,
  position: positionOf(sequence),
});

const projectShardsRead = batchGet(...shardKeys(PROJECT_PK, PROJECT_SHARDS));
const issueShardsRead = batchGet(...shardKeys(ISSUE_PK, THREAD_SHARDS));

beforeEach(() => {
  resetMocks();
  givenTable();
  store(...projectShards(), ...issueShards());
  ddb.on(PutCommand).resolves({});
});

describe('counter-rollups worker', () => {
  it('reads the changed partition’s shards consistently and puts their sums as of the record', async () => {
    expect(await run([shardRecord(7, shardKey(PROJECT_PK, 2))])).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([projectShardsRead, rollupPut(projectRollup(7))]);
    expect(projectShardsRead.BatchGetCommand.RequestItems[TABLE]).toEqual({
      Keys: [
        shardKey(PROJECT_PK, 0),
        shardKey(PROJECT_PK, 1),
        shardKey(PROJECT_PK, 2),
        shardKey(PROJECT_PK, 3),
      ],
      ConsistentRead: true,
    });
    expect(positionOf(7)).toBe(`0000000000000000000${sequenceOf(7)}`);
    expect(positionOf(7)).toHaveLength(40);
  });

  it('rolls up an issue’s two shards, after an insert as after a modification', async () => {
    expect(await run([shardRecord(3, shardKey(ISSUE_PK, 1), { notes_count: { N: '2' } }, 'INSERT')])).toEqual(
      { batchItemFailures: [] },
    );
    expect(sentCommands()).toEqual([issueShardsRead, rollupPut(issueRollup(3))]);
  });

  it('handles only the last record of a partition in a batch: one read and one put at its position', async () => {
    expect(
      await run([
        shardRecord(1, shardKey(PROJECT_PK, 0)),
        shardRecord(2, shardKey(PROJECT_PK, 3)),
        shardRecord(3, shardKey(PROJECT_PK, 0)),
        shardRecord(4, shardKey(PROJECT_PK, 1)),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([projectShardsRead, rollupPut(projectRollup(4))]);
  });

  it('rolls up each partition of a batch once, at its own last record', async () => {
    expect(
      await run([
        shardRecord(1, shardKey(PROJECT_PK, 0)),
        shardRecord(2, shardKey(ISSUE_PK, 1)),
        shardRecord(3, shardKey(PROJECT_PK, 2)),
        shardRecord(4, shardKey(ISSUE_PK, 0)),
        shardRecord(5, shardKey(PROJECT_PK, 1)),
      ]),
    ).toEqual({ batchItemFailures: [] });
    // The partitions are handled side by side: each one's read comes before its put.
    expect(sentCommands()).toHaveLength(4);
    expect(commandsOf(PROJECT_PK)).toEqual([projectShardsRead, rollupPut(projectRollup(5))]);
    expect(commandsOf(ISSUE_PK)).toEqual([issueShardsRead, rollupPut(issueRollup(4))]);
  });

  it('a later rollup already there refuses the put: nothing left to do, the records are done', async () => {
    ddb
      .on(PutCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(
      await run([shardRecord(1, shardKey(PROJECT_PK, 0)), shardRecord(2, shardKey(PROJECT_PK, 1))]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([projectShardsRead, rollupPut(projectRollup(2))]);
  });

  it('a put that fails otherwise reports the partition’s first record and every later one of the batch', async () => {
    ddb.on(PutCommand, { Item: { pk: PROJECT_PK } }).rejects(new Error('network down'));
    expect(
      await run([
        shardRecord(1, shardKey(ISSUE_PK, 0)),
        shardRecord(2, shardKey(PROJECT_PK, 0)),
        shardRecord(3, shardKey(ISSUE_PK, 1)),
        shardRecord(4, shardKey(PROJECT_PK, 3)),
        shardRecord(5, shardKey(ISSUE_PK, 0)),
      ]),
    ).toEqual(failures(2, 3, 4, 5));
    // The issue's rollup was put all the same (the retry puts it again, or is refused by it).
    expect(sentCommands()).toHaveLength(4);
    expect(commandsOf(PROJECT_PK)).toEqual([projectShardsRead, rollupPut(projectRollup(4))]);
    expect(commandsOf(ISSUE_PK)).toEqual([issueShardsRead, rollupPut(issueRollup(5))]);
  });

  it('a read of the shards that fails is reported the same way, and nothing is put', async () => {
    ddb.on(BatchGetCommand).rejects(new Error('throttled'));
    expect(
      await run([shardRecord(1, shardKey(PROJECT_PK, 0)), shardRecord(2, shardKey(PROJECT_PK, 1))]),
    ).toEqual(failures(1, 2));
    expect(sentCommands()).toEqual([projectShardsRead]);
  });

  it('a partition that holds no counted item (list totals, users) is skipped without a read', async () => {
    expect(
      await run([
        shardRecord(1, { pk: 'LISTCOUNT#x', sk: 'COUNT#0' }, { count: { N: '1' } }),
        shardRecord(2, shardKey(listCounter(lists.projectsWithVisibility('public')).pk, 15), {
          count: { N: '1' },
        }),
        shardRecord(3, shardKey(keys.user(7).pk, 0), { count: { N: '1' } }),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([]);
  });

  it('once the shards are marked deleted, puts the mark at the last position, expiring with them', async () => {
    store(...shardTombstoneItems(PROJECT_PK, PROJECT_SHARDS));
    expect(
      await run([
        shardRecord(9, shardKey(PROJECT_PK, 3), {
          deleting: { BOOL: true },
          expires: { N: String(TOMBSTONE_EXPIRES) },
        }),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      projectShardsRead,
      rollupPut({
        ...rollupKey(PROJECT_PK),
        deleting: true,
        expires: TOMBSTONE_EXPIRES,
        position: LAST_POSITION,
      }),
    ]);
  });

  it('one marked shard of a note parent is enough for the mark', async () => {
    store({ ...shardKey(ISSUE_PK, 1), notes_count: 2, deleting: true, expires: TOMBSTONE_EXPIRES });
    expect(await run([shardRecord(6, shardKey(ISSUE_PK, 1))])).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      issueShardsRead,
      rollupPut({
        ...rollupKey(ISSUE_PK),
        deleting: true,
        expires: TOMBSTONE_EXPIRES,
        position: LAST_POSITION,
      }),
    ]);
  });
});
