/**
 * The stream-consumer wrapper: records become changes with their images read as the store reads
 * items; one item's records are handled one by one in stream order, different items' side by side;
 * a failure stops its item, and the first failed record and every later one are reported, so the
 * event source retries from there.
 */
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { defineStreamWorker, type StreamChange } from '#queue/stream-worker.ts';
import { NOTE_PREFIX, keys as storeKeys } from '#store/table/keys.ts';
import { lambdaContext } from '../support/events.ts';

const ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab/stream/2026-01-01T00:00:00.000';

function streamRecord(sequence: number, overrides: Partial<DynamoDBRecord> = {}): DynamoDBRecord {
  const keys = { pk: { S: storeKeys.issue(7, 1).pk }, sk: { S: storeKeys.issue(7, 1).sk } };
  return {
    eventID: `event-${sequence}`,
    eventName: 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_767_225_600,
      Keys: keys,
      NewImage: { ...keys, title: { S: `after ${sequence}` } },
      OldImage: { ...keys, title: { S: `before ${sequence}` } },
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: ARN,
    ...overrides,
  };
}

const sequenceOf = (n: number) => String(n).padStart(21, '0');
const run = (handler: ReturnType<typeof defineStreamWorker>, records: DynamoDBRecord[]) =>
  handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext('hook-events'));

describe('defineStreamWorker', () => {
  it('hands over each change with both images unmarshalled as the store reads them', async () => {
    const seen: StreamChange[] = [];
    const handler = defineStreamWorker('test', async (change) => {
      seen.push(change);
    });
    const keys = { pk: { S: storeKeys.issue(7, 1).pk }, sk: { S: `${NOTE_PREFIX}00000000000000000003` } };
    const result = await run(handler, [
      streamRecord(1, {
        eventName: 'INSERT',
        dynamodb: {
          ApproximateCreationDateTime: 1_767_225_600,
          Keys: keys,
          NewImage: {
            ...keys,
            id: { N: '3' },
            system: { BOOL: false },
            body_gz: { B: 'AQL/' },
            labels: { SS: ['bug', 'ui'] },
            weights: { NS: ['1', '2.5'] },
            author: { M: { id: { N: '1' }, name: { S: 'Root' }, avatar: { NULL: true } } },
            parts: { L: [{ S: 'a' }, { B: 'aGk=' }] },
          },
          SequenceNumber: sequenceOf(1),
          SizeBytes: 10,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      }),
      streamRecord(2, {
        eventName: 'REMOVE',
        dynamodb: { ...streamRecord(2).dynamodb, NewImage: undefined },
      }),
    ]);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([
      {
        eventId: 'event-1',
        eventName: 'INSERT',
        sequenceNumber: sequenceOf(1),
        keys: { pk: storeKeys.issue(7, 1).pk, sk: `${NOTE_PREFIX}00000000000000000003` },
        newImage: {
          pk: storeKeys.issue(7, 1).pk,
          sk: `${NOTE_PREFIX}00000000000000000003`,
          id: 3,
          system: false,
          body_gz: new Uint8Array([1, 2, 255]),
          labels: new Set(['bug', 'ui']),
          weights: new Set([1, 2.5]),
          author: { id: 1, name: 'Root', avatar: null },
          parts: ['a', new Uint8Array([104, 105])],
        },
        approximateCreationTime: 1_767_225_600,
      },
      {
        eventId: 'event-2',
        eventName: 'REMOVE',
        sequenceNumber: sequenceOf(2),
        keys: storeKeys.issue(7, 1),
        oldImage: { ...storeKeys.issue(7, 1), title: 'before 2' },
        approximateCreationTime: 1_767_225_600,
      },
    ]);
    const bytes = seen[0]!.newImage!.body_gz;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(bytes)).toBe(false);
  });

  it('handles records one at a time, in stream order', async () => {
    const order: string[] = [];
    let running = 0;
    const handler = defineStreamWorker('test', async (change) => {
      running++;
      expect(running).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 5 - order.length));
      order.push(change.sequenceNumber);
      running--;
    });
    const result = await run(
      handler,
      [1, 2, 3, 4].map((n) => streamRecord(n)),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(order).toEqual([1, 2, 3, 4].map(sequenceOf));
  });

  it('stops at the first failure and reports that record and every later one', async () => {
    const handled: string[] = [];
    const handler = defineStreamWorker('test', async (change) => {
      handled.push(change.sequenceNumber);
      if (change.sequenceNumber === sequenceOf(2)) throw new Error('table busy');
    });
    const result = await run(
      handler,
      [1, 2, 3, 4].map((n) => streamRecord(n)),
    );
    expect(result).toEqual({
      batchItemFailures: [2, 3, 4].map((n) => ({ itemIdentifier: sequenceOf(n) })),
    });
    expect(handled).toEqual([sequenceOf(1), sequenceOf(2)]);
  });

  it('reports the whole batch when its first record fails', async () => {
    const handler = defineStreamWorker('test', async () => {
      throw new Error('down');
    });
    const result = await run(
      handler,
      [5, 6].map((n) => streamRecord(n)),
    );
    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: sequenceOf(5) }, { itemIdentifier: sequenceOf(6) }],
    });
  });

  it('fails a record that lacks what every change has, without calling the handler for it', async () => {
    const handled: string[] = [];
    const handler = defineStreamWorker('test', async (change) => {
      handled.push(change.sequenceNumber);
    });
    const noKeys = streamRecord(2, { dynamodb: { ...streamRecord(2).dynamodb, Keys: { pk: { S: 'X' } } } });
    const result = await run(handler, [streamRecord(1), noKeys, streamRecord(3)]);
    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: sequenceOf(2) }, { itemIdentifier: sequenceOf(3) }],
    });
    // Record 3 is another item's (its keys differ from the broken record's): handled, and reported again.
    expect(handled).toEqual([sequenceOf(1), sequenceOf(3)]);

    const unknownEvent = streamRecord(4, { eventName: 'TRUNCATE' as 'REMOVE' });
    expect(await run(handler, [unknownEvent])).toEqual({
      batchItemFailures: [{ itemIdentifier: sequenceOf(4) }],
    });
    expect(handled).toEqual([sequenceOf(1), sequenceOf(3)]);
  });

  it("handles different items' records side by side, and reports from the first failure on", async () => {
    const itemKeys = (n: number) => ({ pk: { S: `NOTE-PARENT#${n}` }, sk: { S: `${NOTE_PREFIX}${n}` } });
    const ofItem = (sequence: number, item: number) =>
      streamRecord(sequence, { dynamodb: { ...streamRecord(sequence).dynamodb, Keys: itemKeys(item) } });
    let running = 0;
    let most = 0;
    const handled: string[] = [];
    const handler = defineStreamWorker('test', async (change) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      handled.push(change.sequenceNumber);
      running--;
      if (change.sequenceNumber === sequenceOf(3)) throw new Error('table busy');
    });
    // Items 1 and 2 alternate; record 3 (item 1) fails, so record 5 (item 1) is not handled.
    const result = await run(handler, [ofItem(1, 1), ofItem(2, 2), ofItem(3, 1), ofItem(4, 2), ofItem(5, 1)]);
    expect(most).toBe(2);
    expect(handled.sort()).toEqual([1, 2, 3, 4].map(sequenceOf));
    expect(result).toEqual({ batchItemFailures: [3, 4, 5].map((n) => ({ itemIdentifier: sequenceOf(n) })) });
  });

  it('answers an empty batch with no failures', async () => {
    const handler = defineStreamWorker('test', async () => {
      throw new Error('never called');
    });
    expect(await run(handler, [])).toEqual({ batchItemFailures: [] });
  });
});
