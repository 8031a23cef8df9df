/** Message schemas, one per queue. Workers validate every message against these on receipt. */
import * as v from 'valibot';

export const queueMessages = {
  'user-cleanup': v.object({ userId: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  'search-index': v.object({ projectId: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  'group-delete': v.object({ groupId: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  'hook-delivery': v.object({ deliveryId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) }),
} as const;

export type QueueName = keyof typeof queueMessages;
export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof queueMessages)[Q]>;

/** SQS refuses bodies over 256 KB; large data travels by S3 key instead. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
