/** Message schemas, one per queue. Workers validate every message against these on receipt. */
import * as v from 'valibot';

const recordId = v.pipe(v.number(), v.integer(), v.minValue(1));

export const queueMessages = {
  'user-cleanup': v.object({ userId: recordId }),
  /** A project's or a group's search postings to write. */
  'search-index': v.union([v.object({ projectId: recordId }), v.object({ groupId: recordId })]),
  'group-delete': v.object({ groupId: recordId }),
  'project-delete': v.object({ projectId: recordId }),
  /** An import, or a mirror's update: the project's import_url is fetched into its repository. */
  'repository-import': v.object({ projectId: recordId }),
  /** A fork's repository copied from its source's. */
  'repository-fork': v.object({ projectId: recordId, sourceId: recordId }),
  /** Packs the repository into one pack and records its statistics again. */
  housekeeping: v.object({ projectId: recordId }),
  /** A group transfer to finish if its request was cut short: the group and the move's token. */
  'group-transfer': v.object({
    groupId: recordId,
    token: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  }),
  /** A group's membership made to follow its linked LDAP groups. */
  'ldap-sync': v.object({ groupId: recordId }),
  'hook-delivery': v.object({ deliveryId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) }),
} as const;

export type QueueName = keyof typeof queueMessages;
export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof queueMessages)[Q]>;

/** SQS refuses bodies over 256 KB; large data travels by S3 key instead. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
