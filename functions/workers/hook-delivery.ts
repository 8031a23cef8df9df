import { deliverOnce } from '#delivery/deliver.ts';
import { deadLetter, deferMessage } from '#queue/publish.ts';
import { defineWorker } from '#queue/worker.ts';

/** Tried again later: the message is deferred, not lost (reported as a batch item failure). */
class RetryLater extends Error {}

/**
 * A batch's deliveries all at once (its batchSize in functions/workers.ts): each attempt may wait
 * 10 s on its receiver, and one slow receiver must not hold up, or time out, the others.
 */
const DELIVERIES_AT_ONCE = 10;

/**
 * One attempt of a webhook delivery. A retriable failure defers this same message (SQS visibility,
 * no sleeping Lambda) by the backoff or the receiver's Retry-After; after the last attempt the
 * message goes to the dead-letter queue.
 */
export const handler = defineWorker(
  'hook-delivery',
  async ({ deliveryId }, record) => {
    const step = await deliverOnce(deliveryId);
    if (step.kind === 'retry') {
      await deferMessage('hook-delivery', record, step.afterSeconds);
      throw new RetryLater(`delivery ${deliveryId} retried in ${step.afterSeconds} s`);
    }
    if (step.kind === 'exhausted') await deadLetter('hook-delivery', record);
  },
  { concurrency: DELIVERIES_AT_ONCE },
);
