/**
 * The wrapper every SQS consumer uses: each record is validated, handled on its own, and reported
 * in `batchItemFailures` when it fails, so only failed records are retried (and end in the DLQ
 * after the queue's maxReceiveCount).
 */
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { log } from '#http/log.ts';
import { type QueueMessage, type QueueName, queueMessages } from './messages.ts';

export function defineWorker<Q extends QueueName>(
  queue: Q,
  handle: (message: QueueMessage<Q>, record: SQSRecord) => Promise<void>,
) {
  const schema = queueMessages[queue];
  const base = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        let body: unknown;
        try {
          body = JSON.parse(record.body);
        } catch {
          throw new Error('message body is not JSON');
        }
        const message = v.parse(schema, body) as QueueMessage<Q>;
        await handle(message, record);
        log('info', 'job done', { queue, messageId: record.messageId });
      } catch (error) {
        log('warn', 'job failed', {
          queue,
          messageId: record.messageId,
          receiveCount: record.attributes?.ApproximateReceiveCount,
          error: error instanceof Error ? error.message : String(error),
        });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
  return middy<SQSEvent, SQSBatchResponse>(base);
}
