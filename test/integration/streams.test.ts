/**
 * The local event source mapping against DynamoDB Local: the table's stream delivers INSERT and
 * MODIFY changes with both images to a consumer written with defineStreamWorker, filtered-out
 * changes never reach it, failed records are retried in order, given up on after the consumer's
 * retries, bisected when the handler throws; `drain()` waits for all of it; a checkpoint file keeps
 * a restart from replaying. Also the local bootstrap: stream and TTL on a new or older table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineStreamWorker, type StreamChange } from '#queue/stream-worker.ts';
import { createTableInput } from '#store/table/table.ts';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '../../bin/local/engines.ts';
import { LocalStreams, type StreamHandler } from '../../bin/local/streams.ts';
import { type StreamConsumerDefinition, streamConsumers } from '../../functions/stream-consumers.ts';

const TABLE = 'streams-test';
let engine: DynamoDbLocal;
let client: DynamoDBClient;
let dataDir: string;

/** The hook-events consumer's own settings and filters, with quick retries and a small retry budget. */
const hookEvents = streamConsumers.find((consumer) => consumer.name === 'hook-events')!;
const consumer: StreamConsumerDefinition = { ...hookEvents, name: 'changes', retryAttempts: 3 };

/** What the consumer does with each change; tests swap it. Every change it is given is kept. */
let behaviour: (change: StreamChange, attempt: number) => Promise<void> = async () => undefined;
const received: { change: StreamChange; at: number }[] = [];
const attempts = new Map<string, number>();
const handler = defineStreamWorker('changes', async (change) => {
  const attempt = (attempts.get(change.eventId) ?? 0) + 1;
  attempts.set(change.eventId, attempt);
  received.push({ change, at: performance.now() });
  await behaviour(change, attempt);
});
let streams: LocalStreams;

const put = (pk: string, sk: string, fields: Record<string, unknown> = {}) =>
  client.send(
    new PutItemCommand({
      TableName: TABLE,
      Item: {
        pk: { S: pk },
        sk: { S: sk },
        ...Object.fromEntries(
          Object.entries(fields).map(([name, value]) => [
            name,
            typeof value === 'number' ? { N: String(value) } : { S: String(value) },
          ]),
        ),
      },
    }),
  );
const seenFor = (pk: string) => received.filter(({ change }) => change.keys.pk === pk);
const unique = (prefix: string) => `${prefix}#${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  engine = await startDynamoDbLocal({});
  client = new DynamoDBClient({
    endpoint: engine.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-streams-'));
  await ensureTable(engine.endpoint, TABLE);
  streams = new LocalStreams({
    endpoint: engine.endpoint,
    tableName: TABLE,
    consumers: [{ definition: consumer, handler }],
    retryDelayMs: 20,
  });
  await streams.start();
});

afterAll(async () => {
  await streams?.stop();
  client?.destroy();
  await engine?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await streams.drain();
  behaviour = async () => undefined;
});

describe('the local bootstrap', () => {
  it('creates the table with its stream (both images) and TTL on `expires`', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(Table?.LatestStreamArn).toMatch(/^arn:aws:dynamodb:.*:table\/streams-test\/stream\//);
    const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: TABLE }));
    expect(TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
  });

  it('gives a table kept from before streams its stream and TTL, and changes nothing the second time', async () => {
    const { StreamSpecification: _, ...withoutStream } = createTableInput('older-table');
    await client.send(new CreateTableCommand(withoutStream));
    const before = await client.send(new DescribeTableCommand({ TableName: 'older-table' }));
    expect(before.Table?.StreamSpecification).toBeUndefined();

    await ensureTable(engine.endpoint, 'older-table');
    const after = await client.send(new DescribeTableCommand({ TableName: 'older-table' }));
    expect(after.Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: 'older-table' }));
    expect(ttl.TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });

    await ensureTable(engine.endpoint, 'older-table');
    const again = await client.send(new DescribeTableCommand({ TableName: 'older-table' }));
    expect(again.Table?.LatestStreamArn).toBe(after.Table?.LatestStreamArn);
  });
});

describe('the local stream poller', () => {
  it('delivers an INSERT with its new image and a MODIFY with both images', async () => {
    const pk = unique('ISSUE');
    await put(pk, 'ISSUE', { title: 'first', iid: 1 });
    await client.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: { pk: { S: pk }, sk: { S: 'ISSUE' } },
        UpdateExpression: 'SET title = :title, body_gz = :bytes',
        ExpressionAttributeValues: { ':title': { S: 'second' }, ':bytes': { B: new Uint8Array([31, 139]) } },
      }),
    );
    await streams.drain();

    const changes = seenFor(pk).map(({ change }) => change);
    expect(changes).toHaveLength(2);
    const [insert, modify] = changes as [StreamChange, StreamChange];
    expect(insert).toEqual({
      eventId: expect.any(String),
      eventName: 'INSERT',
      sequenceNumber: expect.stringMatching(/^\d+$/),
      keys: { pk, sk: 'ISSUE' },
      newImage: { pk, sk: 'ISSUE', title: 'first', iid: 1 },
      approximateCreationTime: expect.any(Number),
    });
    expect(modify).toEqual({
      eventId: expect.any(String),
      eventName: 'MODIFY',
      sequenceNumber: expect.stringMatching(/^\d+$/),
      keys: { pk, sk: 'ISSUE' },
      oldImage: { pk, sk: 'ISSUE', title: 'first', iid: 1 },
      newImage: { pk, sk: 'ISSUE', title: 'second', iid: 1, body_gz: new Uint8Array([31, 139]) },
      approximateCreationTime: expect.any(Number),
    });
    expect(BigInt(modify.sequenceNumber)).toBeGreaterThan(BigInt(insert.sequenceNumber));
    expect(Math.abs(insert.approximateCreationTime! - Date.now() / 1000)).toBeLessThan(120);
  });

  it('passes notes and merge requests, never what the filters leave out', async () => {
    const pk = unique('PARENT');
    await put(pk, 'PROJECT', { name: 'filtered out' });
    await put(pk, 'DESCRIPTION#1#0', { text: 'filtered out' });
    await put(pk, 'HOOK#00000000000000000001', { url: 'filtered out' });
    await put(pk, 'NOTE#00000000000000000005', { body: 'a note' });
    await put(pk, 'MR', { title: 'a merge request' });
    await client.send(
      new DeleteItemCommand({
        TableName: TABLE,
        Key: { pk: { S: pk }, sk: { S: 'NOTE#00000000000000000005' } },
      }),
    );
    await streams.drain();
    expect(seenFor(pk).map(({ change }) => `${change.eventName} ${change.keys.sk}`)).toEqual([
      'INSERT NOTE#00000000000000000005',
      'INSERT MR',
    ]);
  });

  it("retries a failed record from where it failed, its item's changes in order, until it goes through", async () => {
    const pk = unique('ISSUE');
    behaviour = async (change, attempt) => {
      if (change.newImage?.n === 2 && attempt < 3) throw new Error('not yet');
    };
    // Three changes of one item: its records are handled in stream order.
    for (const n of [1, 2, 3]) await put(pk, 'NOTE#'.concat('1'.padStart(20, '0')), { n });
    await streams.drain();
    const calls = seenFor(pk).map(({ change }) => change.newImage?.n);
    // Change 3 is never handled before change 2 went through, and change 1 never again.
    expect(calls).toEqual([1, 2, 2, 2, 3]);
    expect(streams.failures('changes')).toEqual([]);
  });

  it('gives up on a record after the consumer’s retries and moves on to the next', async () => {
    const pk = unique('ISSUE');
    behaviour = async (change) => {
      if (change.newImage?.poison === 'yes') throw new Error('always');
    };
    await put(pk, 'ISSUE', { poison: 'yes' });
    await streams.drain();
    await put(pk, 'MR', { poison: 'no' });
    await streams.drain();

    const calls = seenFor(pk).map(({ change }) => change.keys.sk);
    // One attempt and retryAttempts (3) retries, then the next record.
    expect(calls).toEqual(['ISSUE', 'ISSUE', 'ISSUE', 'ISSUE', 'MR']);
    const failed = streams.failures('changes');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: { Keys: { pk: { S: pk }, sk: { S: 'ISSUE' } }, NewImage: { poison: { S: 'yes' } } },
    });
  });

  it('reaches the handler within tens of milliseconds of the write', async () => {
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const pk = unique('LATENCY');
      // At a random moment of the poll's idle pause, as a write from a request would come.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      const before = performance.now();
      await put(pk, 'ISSUE', { i });
      await streams.drain();
      latencies.push(seenFor(pk)[0]!.at - before);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[10]!;
    console.log(
      `write → handler latency over 20 writes: median ${median.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms, min ${latencies[0]!.toFixed(1)} ms`,
    );
    expect(median).toBeLessThan(250);
  });
});

describe('a consumer that throws', () => {
  it('has its batch bisected until the one record that breaks it is isolated', async () => {
    const pk = unique('RAW');
    for (const name of ['a', 'b', 'poison', 'd'])
      await put(pk, 'ISSUE'.concat(name === 'a' ? '' : `#${name}`), { name });
    const batches: string[][] = [];
    const raw: StreamHandler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
      const names = event.Records.map((record) => record.dynamodb?.NewImage?.name?.S ?? '?');
      batches.push(names);
      if (names.includes('poison')) throw new Error('cannot handle poison');
      return { batchItemFailures: [] };
    };
    // Started after the writes: the first read holds all four, so they come as one batch.
    const thrower = new LocalStreams({
      endpoint: engine.endpoint,
      tableName: TABLE,
      consumers: [
        {
          definition: {
            ...consumer,
            name: 'raw',
            retryAttempts: 1,
            filters: [{ dynamodb: { Keys: { pk: { S: [pk] } } } }],
          },
          handler: raw,
        },
      ],
      retryDelayMs: 10,
    });
    await thrower.start();
    try {
      await thrower.drain();
      expect(batches).toEqual([
        ['a', 'b', 'poison', 'd'],
        ['a', 'b'],
        ['poison', 'd'],
        ['poison'],
        ['poison'],
        ['d'],
      ]);
      expect(
        thrower.failures('raw').map((record: DynamoDBRecord) => record.dynamodb?.NewImage?.name?.S),
      ).toEqual(['poison']);
    } finally {
      await thrower.stop();
    }
  });

  it('has the whole batch retried when it names a record that is not in it', async () => {
    const pk = unique('RAW');
    await put(pk, 'ISSUE', { name: 'only' });
    let calls = 0;
    const answering = new LocalStreams({
      endpoint: engine.endpoint,
      tableName: TABLE,
      consumers: [
        {
          definition: { ...consumer, name: 'odd', filters: [{ dynamodb: { Keys: { pk: { S: [pk] } } } }] },
          handler: async () => {
            calls++;
            return { batchItemFailures: calls === 1 ? [{ itemIdentifier: 'no-such-record' }] : [] };
          },
        },
      ],
      retryDelayMs: 10,
    });
    await answering.start();
    try {
      await answering.drain();
      expect(calls).toBe(2);
      expect(answering.failures('odd')).toEqual([]);
    } finally {
      await answering.stop();
    }
  });
});

describe('a consumer that hangs', () => {
  it('fails the invocation at its timeout and is invoked again', async () => {
    const pk = unique('RAW');
    await put(pk, 'ISSUE', { name: 'slow' });
    let calls = 0;
    const slow = new LocalStreams({
      endpoint: engine.endpoint,
      tableName: TABLE,
      consumers: [
        {
          definition: {
            ...consumer,
            name: 'slow',
            timeout: 1,
            filters: [{ dynamodb: { Keys: { pk: { S: [pk] } } } }],
          },
          handler: async () => {
            calls++;
            if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 3_000));
            return { batchItemFailures: [] };
          },
        },
      ],
      retryDelayMs: 10,
    });
    await slow.start();
    try {
      const began = performance.now();
      await slow.drain();
      expect(calls).toBe(2);
      expect(performance.now() - began).toBeLessThan(2_500);
      expect(slow.failures('slow')).toEqual([]);
    } finally {
      await slow.stop();
    }
  });
});

describe('restarts', () => {
  it('resume after the last record handled when a checkpoint file is kept, and replay without one', async () => {
    const pk = unique('RESTART');
    const checkpointFile = join(dataDir, 'checkpoints.json');
    const seen: string[] = [];
    const start = async (file?: string) => {
      const instance = new LocalStreams({
        endpoint: engine.endpoint,
        tableName: TABLE,
        consumers: [
          {
            definition: {
              ...consumer,
              name: 'restart',
              filters: [{ dynamodb: { Keys: { pk: { S: [pk] } } } }],
            },
            handler: defineStreamWorker('restart', async (change) => {
              seen.push(`${change.keys.sk}`);
            }),
          },
        ],
        checkpointFile: file,
      });
      await instance.start();
      return instance;
    };

    const first = await start(checkpointFile);
    await put(pk, 'ISSUE', { n: 1 });
    await first.drain();
    await first.stop();
    expect(seen).toEqual(['ISSUE']);

    await put(pk, 'MR', { n: 2 });
    const second = await start(checkpointFile);
    await second.drain();
    await second.stop();
    expect(seen).toEqual(['ISSUE', 'MR']);

    // No checkpoint: every shard from its oldest record (the consumer must be idempotent).
    const third = await start();
    await third.drain();
    await third.stop();
    expect(seen).toEqual(['ISSUE', 'MR', 'ISSUE', 'MR']);
    await expect(third.drain()).rejects.toThrow(/not running/);
  });
});
