/**
 * The wrapper every DynamoDB stream consumer uses (functions/stream-consumers.ts): each record
 * becomes a `StreamChange` with its images unmarshalled as the store reads items. The records of
 * one item are handled one by one in stream order, those of different items side by side (up to
 * ITEMS_AT_ONCE; a busy issue's notes are different items), as a mapping's parallelization keeps
 * order per key. A failure stops its item's records; the first failed record and every later one
 * in the batch are reported in `batchItemFailures`, so the event source retries from there (records
 * after it that were handled are handled again: consumers are idempotent). The invocation's request
 * id is the correlation id of its log lines and of the messages it queues (records of different
 * items are handled side by side, so a per-record id could not be told apart); each line names its
 * record. Records are counted (`JobsSucceeded`, `JobsFailed`, dimension `worker`: the consumer).
 */
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type {
  AttributeValue,
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { log, logContext, setCorrelationId } from '#observability/log.ts';
import { count, countJobsOf, publishMetrics } from '#observability/metrics.ts';
import { handlerTracing } from '#observability/tracing.ts';

type Image = Record<string, unknown>;

/** One committed change of one item. */
export interface StreamChange {
  eventId: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  sequenceNumber: string;
  keys: { pk: string; sk: string };
  /** The item after the change (absent for REMOVE), as the store reads it: numbers, Sets, Uint8Array. */
  newImage?: Image;
  /** The item before the change (absent for INSERT). */
  oldImage?: Image;
  /** When the change was written, in epoch seconds (the record's ApproximateCreationDateTime). */
  approximateCreationTime?: number;
}

/** Items whose records are handled at once (each item's own records stay in order). */
const ITEMS_AT_ONCE = 10;

export interface StreamWorkerOptions {
  /**
   * Only the last record of each partition in a batch is handled (it covers the others): for a
   * consumer that reads the partition's current state whatever the record says. A failure
   * reports the partition's first record, so the event source retries all of them.
   */
  latestPerPartition?: boolean;
}

export function defineStreamWorker(
  name: string,
  handle: (change: StreamChange) => Promise<void>,
  options: StreamWorkerOptions = {},
) {
  const base = async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    setCorrelationId(context.awsRequestId);
    const records = event.Records ?? [];
    // The records of each item (or partition), in stream order.
    const byItem = new Map<string, number[]>();
    records.forEach((record, index) => {
      const keys = record.dynamodb?.Keys;
      const item = !keys
        ? `record ${index}`
        : options.latestPerPartition
          ? JSON.stringify(keys.pk ?? keys)
          : JSON.stringify(keys);
      byItem.set(item, [...(byItem.get(item) ?? []), index]);
    });
    const failed: number[] = [];
    const handleItem = async (all: number[]) => {
      const indexes = options.latestPerPartition ? all.slice(-1) : all;
      for (const index of indexes) {
        const record = records[index] as DynamoDBRecord;
        const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
        try {
          const change = streamChange(record);
          await handle(change);
          log('info', 'stream record done', { consumer: name, eventId: change.eventId, sequenceNumber });
          count('JobsSucceeded');
        } catch (error) {
          log('warn', 'stream record failed', {
            consumer: name,
            eventId: record.eventID,
            sequenceNumber,
            error: error instanceof Error ? error.message : String(error),
          });
          count('JobsFailed');
          failed.push(options.latestPerPartition ? (all[0] as number) : index);
          return;
        }
      }
    };
    countJobsOf(name);
    const waiting = [...byItem.values()];
    await Promise.all(
      Array.from({ length: Math.min(ITEMS_AT_ONCE, waiting.length) }, async () => {
        for (let next = waiting.shift(); next; next = waiting.shift()) await handleItem(next);
      }),
    );
    publishMetrics();
    if (failed.length === 0) return { batchItemFailures: [] };
    return {
      batchItemFailures: records.slice(Math.min(...failed)).map((record) => ({
        itemIdentifier: record.dynamodb?.SequenceNumber ?? '',
      })),
    };
  };
  return middy<DynamoDBStreamEvent, DynamoDBBatchResponse>(base).use([...handlerTracing(), logContext()]);
}

/** The change a stream record describes; throws on a record that lacks what every change has. */
export function streamChange(record: DynamoDBRecord): StreamChange {
  const { eventName, eventID, dynamodb } = record;
  if (eventName !== 'INSERT' && eventName !== 'MODIFY' && eventName !== 'REMOVE') {
    throw new Error(`unknown stream event ${String(eventName)}`);
  }
  const sequenceNumber = dynamodb?.SequenceNumber;
  if (!eventID || !sequenceNumber) throw new Error('stream record without event id or sequence number');
  const keys = dynamodb.Keys ? image(dynamodb.Keys) : {};
  if (typeof keys.pk !== 'string' || typeof keys.sk !== 'string') {
    throw new Error('stream record without string pk and sk');
  }
  return {
    eventId: eventID,
    eventName,
    sequenceNumber,
    keys: { pk: keys.pk, sk: keys.sk },
    ...(dynamodb.NewImage ? { newImage: image(dynamodb.NewImage) } : {}),
    ...(dynamodb.OldImage ? { oldImage: image(dynamodb.OldImage) } : {}),
    ...(dynamodb.ApproximateCreationDateTime !== undefined
      ? { approximateCreationTime: dynamodb.ApproximateCreationDateTime }
      : {}),
  };
}

/**
 * An image in the event's JSON (binary as base64) as the DocumentClient would read the item:
 * binary as Uint8Array, sets as Sets, numbers as numbers.
 */
function image(attributes: Record<string, AttributeValue>): Image {
  return unmarshall(
    Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, sdkValue(value)])),
  );
}

function sdkValue(value: AttributeValue): SdkAttributeValue {
  if (value.B !== undefined) return { B: fromBase64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(fromBase64) };
  if (value.M !== undefined) {
    return { M: Object.fromEntries(Object.entries(value.M).map(([key, entry]) => [key, sdkValue(entry)])) };
  }
  if (value.L !== undefined) return { L: value.L.map(sdkValue) };
  return value as SdkAttributeValue;
}

/** Lambda's JSON carries binary as base64; a caller that built the event by hand may pass bytes. */
function fromBase64(value: string | Uint8Array): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const bytes = Buffer.from(value, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
