/**
 * What the local runtime keeps across a kill, as AWS does: the queue's journal (one file per
 * message, written before `send` returns, deleted once handled or dead-lettered, read back at the
 * next start, torn writes ignored), and the stream checkpoint, which moves only after the consumer
 * resolved.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalQueues } from '../../bin/local/queue.ts';
import { LocalStreams } from '../../bin/local/streams.ts';
import type { WorkerDefinition } from '../../functions/workers.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'local-durability-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const worker: WorkerDefinition = {
  queue: 'jobs',
  entry: 'functions/workers/jobs.ts',
  batchSize: 10,
  visibilityTimeout: 30,
  maxReceiveCount: 2,
  timeout: 10,
  access: {},
};

type Handler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;
const journal = () => join(dir, 'queues');
const kept = () => (existsSync(join(journal(), 'jobs')) ? readdirSync(join(journal(), 'jobs')).sort() : []);
const keptMessage = (name: string) =>
  JSON.parse(readFileSync(join(journal(), 'jobs', name), 'utf8')) as { body: string; receiveCount: number };

function queuesWith(handler: Handler): LocalQueues {
  const queues = new LocalQueues({ journalDir: journal() });
  queues.register(worker, handler);
  return queues;
}

describe('the local queue journal', () => {
  it('keeps a message before send returns and deletes it once handled', async () => {
    const bodies: string[] = [];
    const queues = queuesWith(async (event) => {
      bodies.push(...event.Records.map((record) => record.body));
      return { batchItemFailures: [] };
    });
    queues.send('jobs', '{"n":1}', { CorrelationId: 'c-1' });
    // Not started yet: the message is only kept, as SQS holds it until a consumer polls.
    expect(kept()).toHaveLength(1);
    expect(kept()[0]).toMatch(/^[0-9a-f-]{36}\.json$/);
    expect(keptMessage(kept()[0] as string)).toMatchObject({
      body: '{"n":1}',
      attributes: { CorrelationId: 'c-1' },
      receiveCount: 0,
    });
    queues.start();
    await queues.drain(5000);
    queues.stop();
    expect(bodies).toEqual(['{"n":1}']);
    expect(kept()).toEqual([]);
  });

  it('gives a restarted queue every message the killed one had not finished, torn writes ignored', async () => {
    // The first process: two messages sent, one of them in flight when it "dies".
    let release: (() => void) | undefined;
    const first = queuesWith(
      () =>
        new Promise<SQSBatchResponse>((resolve) => {
          release = () => resolve({ batchItemFailures: [] });
        }),
    );
    first.send('jobs', 'a');
    first.start();
    await vi.waitFor(() => expect(release).toBeDefined());
    first.send('jobs', 'b');
    first.stop();
    expect(kept()).toHaveLength(2);
    // A write cut short by the kill, and a file that is no message: ignored and removed.
    writeFileSync(join(journal(), 'jobs', 'cut-short.json.tmp'), '{"id":"cut-sh');
    writeFileSync(join(journal(), 'jobs', 'garbage.json'), 'not json');
    mkdirSync(join(journal(), 'other-queue'), { recursive: true });
    writeFileSync(join(journal(), 'other-queue', 'x.json'), '{}');

    const bodies: string[] = [];
    const second = queuesWith(async (event) => {
      bodies.push(...event.Records.map((record) => record.body));
      return { batchItemFailures: [] };
    });
    second.start();
    await second.drain(5000);
    second.stop();
    expect(bodies).toEqual(['a', 'b']);
    expect(kept()).toEqual([]);
    // A queue this runtime does not register keeps its files.
    expect(readdirSync(join(journal(), 'other-queue'))).toEqual(['x.json']);
    // The first process's handler ending late finds its message gone: nothing breaks.
    release?.();
  });

  it('keeps a failed message with its receive count until it is dead-lettered, then deletes it', async () => {
    const queues = queuesWith(async (event) => ({
      batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
    }));
    queues.send('jobs', 'doomed');
    queues.start();
    await vi.waitFor(() => expect(keptMessage(kept()[0] as string).receiveCount).toBe(1));
    await queues.drain(5000);
    queues.stop();
    expect(queues.deadLetters('jobs')).toEqual(['doomed']);
    expect(kept()).toEqual([]);
  });

  it('fails the send when the message cannot be kept (the sender sees it, as a refused SendMessage)', () => {
    const queues = queuesWith(async () => undefined);
    rmSync(join(journal(), 'jobs'), { recursive: true });
    writeFileSync(join(journal(), 'jobs'), '');
    expect(() => queues.send('jobs', 'x')).toThrow(/ENOTDIR/);
  });

  it('writes nothing without a journal directory (the tests’ in-memory runtime)', async () => {
    const queues = new LocalQueues();
    queues.register(worker, async () => ({ batchItemFailures: [] }));
    queues.send('jobs', 'x');
    queues.start();
    await queues.drain(5000);
    queues.stop();
    expect(existsSync(journal())).toBe(false);
  });
});

describe('the local stream checkpoint', () => {
  const ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/1';
  const change = (sequence: number): _Record => ({
    eventID: `e${sequence}`,
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: new Date(),
      Keys: { pk: { S: 'P' }, sk: { S: `NOTE#${sequence}` } },
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 10,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  });

  it('moves past a batch only once the consumer has resolved', async () => {
    const tables = mockClient(DynamoDBClient);
    const streamsApi = mockClient(DynamoDBStreamsClient);
    tables.on(DescribeTableCommand).resolves({
      Table: { LatestStreamArn: ARN, StreamSpecification: { StreamEnabled: true } },
    });
    streamsApi.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 's' }] } });
    streamsApi.on(GetShardIteratorCommand).resolves({ ShardIterator: 'first' });
    streamsApi
      .on(GetRecordsCommand)
      .callsFake((input) =>
        input.ShardIterator === 'first'
          ? { Records: [change(1), change(2)], NextShardIterator: 'next' }
          : { Records: [], NextShardIterator: 'next' },
      );
    let resolveHandler: (() => void) | undefined;
    const checkpointFile = join(dir, 'checkpoints.json');
    const streams = new LocalStreams({
      endpoint: 'http://127.0.0.1:1',
      tableName: 't',
      checkpointFile,
      idleMs: 5,
      shardRefreshMs: 60_000,
      consumers: [
        {
          definition: {
            name: 'hooks',
            entry: 'functions/workers/hook-events.ts',
            batchSize: 100,
            maxBatchingWindowSeconds: 0,
            retryAttempts: 1,
            maxRecordAgeSeconds: 60,
            bisectOnError: false,
            parallelizationFactor: 1,
            filters: [],
            timeout: 10,
            access: {},
          },
          handler: () =>
            new Promise((resolve) => {
              resolveHandler = () => resolve({ batchItemFailures: [] });
            }),
        },
      ],
    });
    const position = () =>
      existsSync(checkpointFile)
        ? (
            JSON.parse(readFileSync(checkpointFile, 'utf8')) as {
              positions: Record<string, Record<string, string>>;
            }
          ).positions.hooks?.s
        : undefined;
    try {
      await streams.start();
      await vi.waitFor(() => expect(resolveHandler).toBeDefined());
      // Longer than the checkpoint's write delay (500 ms): still nothing while the handler runs.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(position()).toBeUndefined();
      resolveHandler?.();
      await vi.waitFor(() => expect(position()).toBe('000000000000000000002'), { timeout: 3000 });
    } finally {
      await streams.stop();
      tables.restore();
      streamsApi.restore();
    }
  });
});
