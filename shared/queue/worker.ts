/**
 * The wrapper every SQS consumer uses: each record is validated, handled on its own, and reported
 * in `batchItemFailures` when it fails, so only failed records are retried (and end in the DLQ
 * after the queue's maxReceiveCount). Each record is logged under the correlation id its message
 * carries (the request's that queued it) and counted: `JobsSucceeded`; `JobsRetried` when its
 * worker deferred it to try again later; `JobsFailed` when it failed (the queue receives it again
 * until its maxReceiveCount, then its DLQ) or its worker moved it to the DLQ.
 *
 * Records are handled one after another unless the worker asks for more at once (`concurrency`):
 * then up to that many run side by side, so a slow or failing record holds up none of the others
 * (each still settles and is reported alone).
 */
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { invocationScope, log, logContext, setCorrelationId } from '#observability/log.ts';
import { count, countJobsOf, publishMetrics } from '#observability/metrics.ts';
import { handlerTracing } from '#observability/tracing.ts';
import { type QueueMessage, type QueueName, queueMessages } from './messages.ts';
import { correlationIdOf, takeSettlement } from './publish.ts';

export interface WorkerOptions {
  /** Records of a batch handled at once (default 1: one after another). */
  concurrency?: number;
}

/**
 * Runs `run` for each item, at most `limit` at a time, in order of start; resolves once all have
 * ended (`run` must not throw).
 */
async function inPool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await run(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * A record of a batch handled side by side with others, under a correlation id of its own: on
 * Lambda (one invocation per container) a scope of its own; where one process runs many
 * invocations (the local runtime, Lambda Managed Instances) a new scope would be a new
 * invocation for Powertools, so the invocation's is shared and the wrapper's own lines name the
 * record's id explicitly.
 */
const apart = (run: () => Promise<void>): Promise<void> =>
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ? run() : invocationScope(run);

export function defineWorker<Q extends QueueName>(
  queue: Q,
  handle: (message: QueueMessage<Q>, record: SQSRecord) => Promise<void>,
  options: WorkerOptions = {},
) {
  const schema = queueMessages[queue];
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));

  /** Handles one record; true when it is to be reported failed. Never throws. */
  const handleRecord = async (record: SQSRecord): Promise<boolean> => {
    const correlation = correlationIdOf(record);
    setCorrelationId(correlation);
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
        log('warn', 'job dead-lettered by its worker', {
          correlation_id: correlation,
          queue,
          messageId: record.messageId,
        });
        count('JobsFailed');
      } else {
        log('info', 'job done', { correlation_id: correlation, queue, messageId: record.messageId });
        count('JobsSucceeded');
      }
      return false;
    } catch (error) {
      const deferred = takeSettlement(record) === 'deferred';
      log(deferred ? 'info' : 'warn', deferred ? 'job deferred' : 'job failed', {
        correlation_id: correlation,
        queue,
        messageId: record.messageId,
        receiveCount: record.attributes?.ApproximateReceiveCount,
        error: error instanceof Error ? error.message : String(error),
      });
      count(deferred ? 'JobsRetried' : 'JobsFailed');
      return true;
    }
  };

  const base = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    countJobsOf(queue);
    const records = event.Records;
    const failed = records.map(() => false);
    if (concurrency === 1 || records.length < 2) {
      for (const [index, record] of records.entries()) failed[index] = await handleRecord(record);
    } else {
      await inPool(records, concurrency, (record, index) =>
        apart(async () => {
          failed[index] = await handleRecord(record);
        }),
      );
    }
    publishMetrics();
    return {
      batchItemFailures: records
        .filter((_, index) => failed[index])
        .map((record) => ({ itemIdentifier: record.messageId })),
    };
  };
  return middy<SQSEvent, SQSBatchResponse>(base).use([...handlerTracing(), logContext()]);
}
