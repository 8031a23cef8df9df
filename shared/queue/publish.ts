import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { config } from '#config/env.ts';
import { correlationId } from '#observability/log.ts';
import { captureClient } from '#observability/tracing.ts';
import { MAX_MESSAGE_BYTES, type QueueMessage, type QueueName, queueMessages } from './messages.ts';

/**
 * The local runtime registers an in-process dispatcher here; in AWS messages go to SQS. Handlers
 * call `publish` either way and never know which.
 */
export type LocalDispatch = (queue: string, body: string, attributes: MessageAttributes) => void;

/** String message attributes, by name, as a message carries them beside its body. */
export type MessageAttributes = Record<string, string>;

/**
 * The message attribute carrying the correlation id of the request (or job) that queued the
 * message, so the worker logs under it too.
 */
export const CORRELATION_ATTRIBUTE = 'CorrelationId';

/** The correlation id a record's message carries; its own message id when it carries none. */
export function correlationIdOf(record: SQSRecord): string {
  return record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue ?? record.messageId;
}

function attributesToSend(): MessageAttributes {
  const id = correlationId();
  return id === undefined ? {} : { [CORRELATION_ATTRIBUTE]: id };
}

const toSqsAttributes = (attributes: MessageAttributes) =>
  Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, { DataType: 'String', StringValue: value }]),
  );

/** What a worker did with a record besides handling it: the worker wrapper counts it by this. */
type Settlement = 'deferred' | 'dead-lettered';
const settlements = new WeakMap<SQSRecord, Settlement>();

/** What the worker did with `record` while handling it, forgotten once asked (a record is handled once). */
export function takeSettlement(record: SQSRecord): Settlement | undefined {
  const settlement = settlements.get(record);
  settlements.delete(record);
  return settlement;
}
const LOCAL_DISPATCH = Symbol.for('gitlab-api.local-dispatch');

export function registerLocalDispatch(dispatch: LocalDispatch | undefined): void {
  (globalThis as Record<symbol, unknown>)[LOCAL_DISPATCH] = dispatch;
}

/** What a worker may do to the message it is handling, in the local dispatcher (see deferMessage). */
export interface LocalQueueControl {
  defer(queue: string, receiptHandle: string, seconds: number): void;
  deadLetter(queue: string, record: { messageId: string; body: string; attributes: MessageAttributes }): void;
}
const LOCAL_CONTROL = Symbol.for('gitlab-api.local-queue-control');

export function registerLocalQueueControl(control: LocalQueueControl | undefined): void {
  (globalThis as Record<symbol, unknown>)[LOCAL_CONTROL] = control;
}

function localControl(): LocalQueueControl {
  const control = (globalThis as Record<symbol, unknown>)[LOCAL_CONTROL] as LocalQueueControl | undefined;
  if (!control) throw new Error('QUEUE_MODE=local but no local dispatcher is running');
  return control;
}

let sqs: SQSClient | undefined;
const sqsClient = () => {
  sqs ??= captureClient(new SQSClient({}));
  return sqs;
};

export async function publish<Q extends QueueName>(queue: Q, message: QueueMessage<Q>): Promise<void> {
  const body = JSON.stringify(v.parse(queueMessages[queue], message));
  if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES) throw new Error(`message for ${queue} exceeds 256 KB`);
  if (config.queueMode === 'local') {
    const dispatch = (globalThis as Record<symbol, unknown>)[LOCAL_DISPATCH] as LocalDispatch | undefined;
    if (!dispatch) throw new Error('QUEUE_MODE=local but no local dispatcher is running');
    dispatch(queue, body, attributesToSend());
    return;
  }
  const queueUrl = config.queueUrl(queue);
  if (!queueUrl) throw new Error(`no queue URL configured for ${queue}`);
  const attributes = attributesToSend();
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      ...(Object.keys(attributes).length > 0 ? { MessageAttributes: toSqsAttributes(attributes) } : {}),
    }),
  );
}

/** SQS's longest visibility timeout: 12 hours. */
export const MAX_DEFER_SECONDS = 43_200;

/**
 * Keeps `record` out of sight for `seconds` (0 to 12 hours): its next receive comes then instead
 * of after the queue's visibility timeout. The worker must also report the record in
 * `batchItemFailures` (else the message is deleted as done). Only for a worker with `ownsRetries`
 * (its queue's URL is in its environment).
 */
export async function deferMessage(queue: QueueName, record: SQSRecord, seconds: number): Promise<void> {
  const delay = Math.min(MAX_DEFER_SECONDS, Math.max(0, Math.ceil(seconds)));
  if (!Number.isFinite(delay)) throw new Error(`cannot defer a message by ${seconds} seconds`);
  settlements.set(record, 'deferred');
  if (config.queueMode === 'local') {
    localControl().defer(queue, record.receiptHandle, delay);
    return;
  }
  const queueUrl = config.queueUrl(queue);
  if (!queueUrl) throw new Error(`no queue URL configured for ${queue}`);
  await sqsClient().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: delay,
    }),
  );
}

/**
 * Moves `record` to its queue's dead-letter queue now (its body, sent there), for a worker that
 * counts its own attempts. The worker then reports the record as done, which deletes the original.
 * Only for a worker with `ownsRetries` (its dead-letter queue's URL is in its environment).
 */
export async function deadLetter(queue: QueueName, record: SQSRecord): Promise<void> {
  settlements.set(record, 'dead-lettered');
  // The dead letter keeps the correlation id, so the failure can be followed back to its request.
  const attributes = { [CORRELATION_ATTRIBUTE]: correlationIdOf(record) };
  if (config.queueMode === 'local') {
    localControl().deadLetter(queue, { messageId: record.messageId, body: record.body, attributes });
    return;
  }
  const queueUrl = config.queueDlqUrl(queue);
  if (!queueUrl) throw new Error(`no dead-letter queue URL configured for ${queue}`);
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: record.body,
      MessageAttributes: toSqsAttributes(attributes),
    }),
  );
}
