/**
 * The wrapper every SQS consumer uses: each record is validated, handled on its own, and reported
 * in `batchItemFailures` when it fails, so only failed records are retried (and end in the DLQ
 * after the queue's maxReceiveCount). Each record is logged under the correlation id its message
 * carries (the request's that queued it) and counted: `JobsSucceeded`; `JobsRetried` when its
 * worker deferred it to try again later; `JobsFailed` when it failed (the queue receives it again
 * until its maxReceiveCount, then its DLQ) or its worker moved it to the DLQ.
 */
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { log, logContext, setCorrelationId } from '#http/log.ts';
import { count, countJobsOf, publishMetrics } from '#http/metrics.ts';
import { handlerTracing } from '#http/tracing.ts';
import { type QueueMessage, type QueueName, queueMessages } from './messages.ts';
import { correlationIdOf, takeSettlement } from './publish.ts';

export function defineWorker<Q extends QueueName>(
  queue: Q,
  handle: (message: QueueMessage<Q>, record: SQSRecord) => Promise<void>,
) {
  const schema = queueMessages[queue];
  const base = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    countJobsOf(queue);
    for (const record of event.Records) {
      setCorrelationId(correlationIdOf(record));
      try {
        let body: unknown;
        try {
          body = JSON.parse(record.body);
        } catch {
          throw new Error('message body is not JSON');
        }
        const message = v.parse(schema, body) as QueueMessage<Q>;
        await handle(message, record);
        if (takeSettlement(record) === 'dead-lettered') {
          log('warn', 'job dead-lettered by its worker', { queue, messageId: record.messageId });
          count('JobsFailed');
        } else {
          log('info', 'job done', { queue, messageId: record.messageId });
          count('JobsSucceeded');
        }
      } catch (error) {
        const deferred = takeSettlement(record) === 'deferred';
        log(deferred ? 'info' : 'warn', deferred ? 'job deferred' : 'job failed', {
          queue,
          messageId: record.messageId,
          receiveCount: record.attributes?.ApproximateReceiveCount,
          error: error instanceof Error ? error.message : String(error),
        });
        count(deferred ? 'JobsRetried' : 'JobsFailed');
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    publishMetrics();
    return { batchItemFailures: failures };
  };
  return middy<SQSEvent, SQSBatchResponse>(base).use([...handlerTracing(), logContext()]);
}
