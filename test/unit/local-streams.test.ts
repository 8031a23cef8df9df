/**
 * The local event source mapping's pure parts: Lambda's filter grammar as far as the consumer
 * table uses it (nested fields, lists of values, `prefix`), and the record Lambda would hand over.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  checkFilter,
  filtersOnKeysOnly,
  LocalStreams,
  lambdaRecord,
  matchesFilters,
} from '../../bin/local/streams.ts';
import { type StreamFilterPattern, streamConsumers } from '../../functions/stream-consumers.ts';

const record = (eventName: string, sk: string, extra: Record<string, unknown> = {}) => ({
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: { Keys: { pk: { S: 'ISSUE#1#2' }, sk: { S: sk } }, ...extra },
});

describe('matchesFilters', () => {
  it('passes a record when any pattern matches, and every record when there is none', () => {
    const patterns: StreamFilterPattern[] = [{ eventName: ['INSERT'] }, { eventName: ['REMOVE'] }];
    expect(matchesFilters(record('INSERT', 'X'), patterns)).toBe(true);
    expect(matchesFilters(record('REMOVE', 'X'), patterns)).toBe(true);
    expect(matchesFilters(record('MODIFY', 'X'), patterns)).toBe(false);
    expect(matchesFilters(record('MODIFY', 'X'), [])).toBe(true);
  });

  it('requires every field of a pattern, nested ones included', () => {
    const pattern: StreamFilterPattern = {
      eventName: ['MODIFY'],
      dynamodb: { Keys: { sk: { S: ['ISSUE'] } } },
    };
    expect(matchesFilters(record('MODIFY', 'ISSUE'), [pattern])).toBe(true);
    expect(matchesFilters(record('INSERT', 'ISSUE'), [pattern])).toBe(false);
    expect(matchesFilters(record('MODIFY', 'MR'), [pattern])).toBe(false);
    // A missing field, or one that is not an object where the pattern nests, never matches.
    expect(matchesFilters({ eventName: 'MODIFY' }, [pattern])).toBe(false);
    expect(matchesFilters({ eventName: 'MODIFY', dynamodb: 'ISSUE' }, [pattern])).toBe(false);
    expect(matchesFilters({ eventName: 'MODIFY', dynamodb: { Keys: { sk: 'ISSUE' } } }, [pattern])).toBe(
      false,
    );
  });

  it('tells filters judged on the event and keys alone (before images are converted) from others', () => {
    expect(filtersOnKeysOnly([{ eventName: ['INSERT'] }, { dynamodb: { Keys: { sk: { S: ['X'] } } } }])).toBe(
      true,
    );
    expect(filtersOnKeysOnly([])).toBe(true);
    expect(filtersOnKeysOnly([{ dynamodb: { NewImage: { kind: { S: ['label'] } } } }])).toBe(false);
    expect(filtersOnKeysOnly([{ eventName: ['INSERT'] }, { eventSource: ['aws:dynamodb'] }])).toBe(false);
    // Every consumer of the table is judged so today.
    expect(streamConsumers.every((consumer) => filtersOnKeysOnly(consumer.filters))).toBe(true);
  });

  it('compares values exactly: type, case and whole string', () => {
    expect(matchesFilters({ n: 5 }, [{ n: [5] }])).toBe(true);
    expect(matchesFilters({ n: '5' }, [{ n: [5] }])).toBe(false);
    expect(matchesFilters({ s: 'issue' }, [{ s: ['ISSUE'] }])).toBe(false);
    expect(matchesFilters({ s: 'ISSUES' }, [{ s: ['ISSUE'] }])).toBe(false);
    expect(matchesFilters({ b: false }, [{ b: [false] }])).toBe(true);
    expect(matchesFilters({ v: null }, [{ v: [null] }])).toBe(true);
    expect(matchesFilters({}, [{ v: [null] }])).toBe(false);
  });

  it('matches a prefix on strings only', () => {
    const pattern: StreamFilterPattern = { sk: [{ prefix: 'NOTE#' }] };
    expect(matchesFilters({ sk: 'NOTE#0000000001' }, [pattern])).toBe(true);
    expect(matchesFilters({ sk: 'NOTE#' }, [pattern])).toBe(true);
    expect(matchesFilters({ sk: 'note#1' }, [pattern])).toBe(false);
    expect(matchesFilters({ sk: 'XNOTE#1' }, [pattern])).toBe(false);
    expect(matchesFilters({ sk: 7 }, [pattern])).toBe(false);
  });

  it('accepts a list in the record when any element matches, and mixes values and prefixes', () => {
    const pattern: StreamFilterPattern = { tags: ['a', { prefix: 'b' }] };
    expect(matchesFilters({ tags: ['x', 'a'] }, [pattern])).toBe(true);
    expect(matchesFilters({ tags: ['x', 'bee'] }, [pattern])).toBe(true);
    expect(matchesFilters({ tags: ['x', 'y'] }, [pattern])).toBe(false);
    expect(matchesFilters({ tags: 'bee' }, [pattern])).toBe(true);
  });

  it('applies the hook-events filters: INSERT and MODIFY of notes, issues and merge requests', () => {
    const { filters } = streamConsumers.find((consumer) => consumer.name === 'hook-events')!;
    const passes = (eventName: string, sk: string) => matchesFilters(record(eventName, sk), filters);
    for (const eventName of ['INSERT', 'MODIFY']) {
      expect(passes(eventName, 'NOTE#00000000000000000042')).toBe(true);
      expect(passes(eventName, 'ISSUE')).toBe(true);
      expect(passes(eventName, 'MR')).toBe(true);
      // Long-body parts pass the filter too; the consumer skips them.
      expect(passes(eventName, 'NOTE#00000000000000000042#PART#1#0')).toBe(true);
    }
    for (const sk of ['NOTE#1', 'ISSUE', 'MR']) expect(passes('REMOVE', sk)).toBe(false);
    for (const sk of ['PROJECT', 'DESCRIPTION#1#0', 'ISSUES', 'MRX', 'HOOK#1', 'EPIC', 'SNIPPET', 'NOTES']) {
      expect(passes('INSERT', sk)).toBe(false);
    }
  });

  it('applies the counter-rollups filters: INSERT and MODIFY of the counter shards of counted items', () => {
    const { filters } = streamConsumers.find((consumer) => consumer.name === 'counter-rollups')!;
    const passes = (eventName: string, pk: string, sk: string) =>
      matchesFilters({ eventName, dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } }, filters);
    for (const eventName of ['INSERT', 'MODIFY']) {
      for (const pk of ['PROJECT#7', 'ISSUE#7#1', 'MR#7#1', 'SNIPPET#3', 'EPIC#4']) {
        expect(passes(eventName, pk, 'COUNT#0')).toBe(true);
        expect(passes(eventName, pk, 'COUNT#3')).toBe(true);
      }
    }
    // Shards that TTL removes, the rollup's own writes, list totals and anything else never invoke it.
    expect(passes('REMOVE', 'PROJECT#7', 'COUNT#0')).toBe(false);
    expect(passes('MODIFY', 'PROJECT#7', 'COUNTS')).toBe(false);
    expect(passes('INSERT', 'PROJECT#7', 'PROJECT')).toBe(false);
    expect(passes('INSERT', 'LISTCOUNT#PROJECTS#public', 'COUNT#0')).toBe(false);
    expect(passes('INSERT', 'USER#7', 'COUNT#0')).toBe(false);
  });

  it('applies the reference-changes filters: labels changed or removed, milestones removed, projects changed', () => {
    const { filters } = streamConsumers.find((consumer) => consumer.name === 'reference-changes')!;
    const passes = (eventName: string, sk: string) => matchesFilters(record(eventName, sk), filters);
    for (const eventName of ['MODIFY', 'REMOVE']) expect(passes(eventName, 'LABEL#000000000005')).toBe(true);
    expect(passes('REMOVE', 'MILESTONE#000000000008')).toBe(true);
    expect(passes('MODIFY', 'PROJECT')).toBe(true);
    // A project created or removed, its other items, a milestone changed: never invoked.
    expect(passes('INSERT', 'PROJECT')).toBe(false);
    expect(passes('REMOVE', 'PROJECT')).toBe(false);
    for (const sk of ['PROJECTNAME', 'ROUTE', 'MEMBER#7', 'LABEL', 'ISSUE'])
      expect(passes('MODIFY', sk)).toBe(false);
    expect(passes('MODIFY', 'MILESTONE#000000000008')).toBe(false);
    expect(passes('INSERT', 'LABEL#000000000005')).toBe(false);
  });
});

describe('checkFilter', () => {
  it('accepts the consumer table’s patterns', () => {
    for (const consumer of streamConsumers) for (const pattern of consumer.filters) checkFilter(pattern);
    expect(streamConsumers.length).toBeGreaterThan(0);
  });

  it('refuses what the local matcher cannot evaluate, rather than guessing', () => {
    const refused = (pattern: unknown) => () => checkFilter(pattern as StreamFilterPattern);
    expect(refused({ sk: [{ suffix: '#PART' }] })).toThrow(/unsupported operator/);
    expect(refused({ sk: [{ 'anything-but': ['x'] }] })).toThrow(/unsupported operator/);
    expect(refused({ sk: [{ prefix: 'a', suffix: 'b' }] })).toThrow(/unsupported operator/);
    expect(refused({ n: [{ numeric: ['>', 1] }] })).toThrow(/unsupported operator/);
    expect(refused({ dynamodb: { Keys: { sk: [] } } })).toThrow(/dynamodb\.Keys\.sk lists no values/);
    expect(refused({})).toThrow(/empty filter pattern/);
  });
});

describe('lambdaRecord', () => {
  it('is the JSON Lambda hands over: binary as base64, time in epoch seconds, the stream ARN', () => {
    const arn = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000';
    const converted = lambdaRecord(
      {
        eventID: 'e1',
        eventName: 'MODIFY',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'ddblocal',
        dynamodb: {
          ApproximateCreationDateTime: new Date('2026-01-02T03:04:05.678Z'),
          Keys: { pk: { S: 'NOTE-PARENT' }, sk: { S: 'NOTE#1' } },
          NewImage: {
            pk: { S: 'NOTE-PARENT' },
            sk: { S: 'NOTE#1' },
            body: { B: new Uint8Array([1, 2, 255]) },
            parts: { L: [{ B: new Uint8Array([0]) }, { N: '3' }] },
            nested: { M: { bytes: { BS: [new Uint8Array([104, 105])] }, ok: { BOOL: true } } },
            tags: { SS: ['a', 'b'] },
          },
          OldImage: { pk: { S: 'NOTE-PARENT' }, sk: { S: 'NOTE#1' }, gone: { NULL: true } },
          SequenceNumber: '000000000000000000007',
          SizeBytes: 42,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
      arn,
      'us-east-1',
    );
    expect(converted).toEqual({
      eventID: 'e1',
      eventName: 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2026-01-02T03:04:05Z') / 1000,
        Keys: { pk: { S: 'NOTE-PARENT' }, sk: { S: 'NOTE#1' } },
        NewImage: {
          pk: { S: 'NOTE-PARENT' },
          sk: { S: 'NOTE#1' },
          body: { B: 'AQL/' },
          parts: { L: [{ B: 'AA==' }, { N: '3' }] },
          nested: { M: { bytes: { BS: ['aGk='] }, ok: { BOOL: true } } },
          tags: { SS: ['a', 'b'] },
        },
        OldImage: { pk: { S: 'NOTE-PARENT' }, sk: { S: 'NOTE#1' }, gone: { NULL: true } },
        SequenceNumber: '000000000000000000007',
        SizeBytes: 42,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: arn,
    } satisfies DynamoDBRecord);
    // What goes to a handler survives JSON, as Lambda's own event does.
    expect(JSON.parse(JSON.stringify(converted))).toEqual(converted);
  });
});

describe('LocalStreams over shards that split and appear', () => {
  const ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/1';
  const change = (sequence: number, name: string): _Record => ({
    eventID: `e${sequence}`,
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: new Date(),
      Keys: { pk: { S: 'P' }, sk: { S: name } },
      NewImage: { pk: { S: 'P' }, sk: { S: name } },
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 10,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  });

  it('reads a child shard only after its parent, follows shards found later, renews an expired iterator', async () => {
    const tables = mockClient(DynamoDBClient);
    const streamsApi = mockClient(DynamoDBStreamsClient);
    tables.on(DescribeTableCommand).resolves({
      Table: { LatestStreamArn: ARN, StreamSpecification: { StreamEnabled: true } },
    });
    const shards: Shard[] = [
      { ShardId: 'child', ParentShardId: 'parent' },
      { ShardId: 'parent', SequenceNumberRange: { EndingSequenceNumber: '2' } },
    ];
    streamsApi.on(DescribeStreamCommand).callsFake(() => ({ StreamDescription: { Shards: [...shards] } }));
    const iteratorRequests: string[] = [];
    streamsApi.on(GetShardIteratorCommand).callsFake((input) => {
      iteratorRequests.push(
        `${input.ShardId} ${input.ShardIteratorType} ${input.SequenceNumber ?? ''}`.trim(),
      );
      return {
        ShardIterator: `${input.ShardId}-${input.ShardIteratorType === 'TRIM_HORIZON' ? 0 : 'after'}`,
      };
    });
    let expired = false;
    // Each shard's reads: records, then the next iterator (none: the shard is closed and done).
    const reads: Record<string, { Records: _Record[]; NextShardIterator?: string }> = {
      'parent-0': { Records: [change(1, 'p1'), change(2, 'p2')], NextShardIterator: 'parent-1' },
      'parent-1': { Records: [] },
      'child-0': { Records: [change(3, 'c1')], NextShardIterator: 'child-1' },
      'child-1': { Records: [], NextShardIterator: 'child-1' },
      'child-after': { Records: [], NextShardIterator: 'child-after' },
      'late-0': { Records: [change(9, 'l1')], NextShardIterator: 'late-1' },
      'late-1': { Records: [], NextShardIterator: 'late-1' },
    };
    const readLog: string[] = [];
    streamsApi.on(GetRecordsCommand).callsFake((input) => {
      const iterator = input.ShardIterator as string;
      readLog.push(iterator);
      if (iterator === 'child-1' && !expired) {
        expired = true;
        throw Object.assign(new Error('Iterator expired'), { name: 'ExpiredIteratorException' });
      }
      const read = reads[iterator];
      if (!read) throw new Error(`unexpected iterator ${iterator}`);
      return read;
    });

    const handled: string[] = [];
    const streams = new LocalStreams({
      endpoint: 'http://127.0.0.1:1',
      tableName: 't',
      consumers: [
        {
          definition: {
            name: 'all',
            entry: 'functions/workers/hook-events.ts',
            batchSize: 100,
            maxBatchingWindowSeconds: 0,
            retryAttempts: 0,
            maxRecordAgeSeconds: 60,
            bisectOnError: false,
            parallelizationFactor: 1,
            filters: [],
            timeout: 10,
            access: {},
          },
          handler: async (event: DynamoDBStreamEvent) => {
            for (const record of event.Records) handled.push(record.dynamodb?.Keys?.sk?.S ?? '?');
            return { batchItemFailures: [] };
          },
        },
      ],
      idleMs: 5,
      shardRefreshMs: 60_000,
    });
    try {
      await streams.start();
      await streams.drain(5_000);
      expect(handled).toEqual(['p1', 'p2', 'c1']);
      // The child's first read comes after the parent's last.
      expect(readLog.indexOf('child-0')).toBeGreaterThan(readLog.indexOf('parent-1'));
      // The expired iterator was renewed after the last record handled.
      expect(iteratorRequests).toEqual([
        'parent TRIM_HORIZON',
        'child TRIM_HORIZON',
        `child AFTER_SEQUENCE_NUMBER ${'3'.padStart(21, '0')}`,
      ]);

      // A shard that appears later is found by the next listing (drain asks for one).
      shards.push({ ShardId: 'late' });
      await streams.drain(5_000);
      expect(handled).toEqual(['p1', 'p2', 'c1', 'l1']);
    } finally {
      await streams.stop();
      tables.restore();
      streamsApi.restore();
    }
  });

  it('invokes no consumer while held: records read meanwhile wait for the release', async () => {
    const tables = mockClient(DynamoDBClient);
    const streamsApi = mockClient(DynamoDBStreamsClient);
    tables.on(DescribeTableCommand).resolves({
      Table: { LatestStreamArn: ARN, StreamSpecification: { StreamEnabled: true } },
    });
    streamsApi.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 'only' }] } });
    streamsApi.on(GetShardIteratorCommand).resolves({ ShardIterator: 'only-0' });
    streamsApi
      .on(GetRecordsCommand)
      .callsFake((input) =>
        input.ShardIterator === 'only-0'
          ? { Records: [change(1, 'a'), change(2, 'b')], NextShardIterator: 'only-1' }
          : { Records: [], NextShardIterator: 'only-1' },
      );
    const handled: string[] = [];
    const streams = new LocalStreams({
      endpoint: 'http://127.0.0.1:1',
      tableName: 't',
      consumers: [
        {
          definition: { ...streamConsumers[0]!, name: 'all', filters: [], retryAttempts: 0 },
          handler: async (event: DynamoDBStreamEvent) => {
            for (const record of event.Records) handled.push(record.dynamodb?.Keys?.sk?.S ?? '?');
            return { batchItemFailures: [] };
          },
        },
      ],
      idleMs: 5,
      shardRefreshMs: 60_000,
    });
    const release = streams.hold();
    try {
      await streams.start();
      // The batch is read and waits inside its delivery: the reader is busy, nothing is invoked.
      while (!streams.activity().busy.includes('all')) await new Promise((resolve) => setImmediate(resolve));
      expect(streams.activity().invocations).toBe(0);
      expect(handled).toEqual([]);
      release();
      await streams.drain(5_000);
      expect(handled).toEqual(['a', 'b']);
      expect(streams.activity().invocations).toBe(1);
    } finally {
      release();
      await streams.stop();
      tables.restore();
      streamsApi.restore();
    }
  });
});
