/** Message schemas, one per queue. Workers validate every message against these on receipt. */
import * as v from 'valibot';

const recordId = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * A label's title at most: GitLab's 255 characters, each up to two UTF-16 units (not imported, so
 * no worker bundles the labels' rules).
 */
const LABEL_TITLE_MAX_LENGTH = 510;

/** Groups in a chain from a root down, at most: far deeper than any tree GitLab allows (20 levels). */
const MAX_GROUP_CHAIN = 1_000;

/** A project's or a group's label or milestone. */
const referenceOwner = v.object({ kind: v.picklist(['project', 'group']), id: recordId });

/** Where a walk over an index stopped: a Query's LastEvaluatedKey (key attributes, all strings here). */
const listCursor = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64)), v.pipe(v.string(), v.maxLength(2048))),
  v.check((cursor) => Object.keys(cursor).length <= 8, 'a cursor names at most 8 attributes'),
);

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
  /**
   * A label renamed or removed, or a milestone removed, followed by the issues and merge requests
   * of its owner's projects (and a group label by the epics of its groups); `at` is where the job stands (absent: at the start), page by page.
   */
  'issuable-rewrite': v.object({
    change: v.variant('kind', [
      v.object({
        kind: v.literal('label'),
        owner: referenceOwner,
        labelId: recordId,
        title: v.pipe(v.string(), v.minLength(1), v.maxLength(LABEL_TITLE_MAX_LENGTH)),
      }),
      v.object({ kind: v.literal('milestone'), owner: referenceOwner, milestoneId: recordId }),
      /** A project moved out of a group: the group it left and its ancestors, root first. */
      v.object({
        kind: v.literal('project-moved'),
        owner: v.object({ kind: v.literal('project'), id: recordId }),
        fromGroupIds: v.pipe(v.array(recordId), v.minLength(1), v.maxLength(MAX_GROUP_CHAIN)),
      }),
    ]),
    at: v.optional(
      v.variant('step', [
        /** A group owner's projects, those of its whole tree, one visibility's partition after another. */
        v.object({
          step: v.literal('projects'),
          visibility: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2)),
          after: v.optional(listCursor),
        }),
        /** One project's issues, then its merge requests. */
        v.object({
          step: v.literal('issuables'),
          projectId: recordId,
          collection: v.picklist(['issues', 'merge_requests']),
          after: v.optional(listCursor),
        }),
        /** A group label's group and every subgroup below it, whose epics may carry the label. */
        v.object({ step: v.literal('groups'), after: v.optional(listCursor) }),
        /** One group's epics. */
        v.object({ step: v.literal('epics'), groupId: recordId, after: v.optional(listCursor) }),
      ]),
    ),
  }),
} as const;

export type QueueName = keyof typeof queueMessages;
export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof queueMessages)[Q]>;

/** SQS refuses bodies over 256 KB; large data travels by S3 key instead. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
