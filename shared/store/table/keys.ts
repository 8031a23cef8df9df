/** Key builders: the only place that knows how items are addressed. */
import { createHash } from 'node:crypto';
import { HOOK_LOG_PREFIX, hookLogPartition, logPeriodOf } from './hook-delivery-keys.ts';
import { listPartitionAttributes, listSortAttributes, treeIndex } from './table.ts';

export const padId = (id: number) => id.toString().padStart(12, '0');

type Key = { pk: string; sk: string };

/** DynamoDB's key size limits (bytes): a longer key names no item and is never sent. */
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;
export const keyFits = (key: Key) =>
  Buffer.byteLength(key.pk) <= MAX_PARTITION_KEY_BYTES && Buffer.byteLength(key.sk) <= MAX_SORT_KEY_BYTES;

/** Notes sort first by id in their parent's partition. */
export const NOTE_PREFIX = 'NOTE#';

/** Award emoji sort under this prefix in their awardable's partition, those of one awardable together. */
export const AWARD_PREFIX = 'AWARD#';

/** Where in a parent's partition the awards of the parent itself, or of one of its notes, sort. */
export const awardOn = (noteId?: number) => (noteId === undefined ? 'ITEM' : `NOTE#${padId(noteId)}`);

/** The sort keys of an issue and of a merge request in their own partitions. */
export const ISSUE_SK = 'ISSUE';
export const MERGE_REQUEST_SK = 'MR';

/** The sort key of a project's own item in its partition. */
export const PROJECT_SK = 'PROJECT';

/** A project's hooks sort by id in its partition. */
export const HOOK_PREFIX = 'HOOK#';

/** What a group's LDAP links and its LDAP sync state share: one Query reads both. */
export const LDAP_PREFIX = 'LDAP';
/** A group's LDAP group links sort under this prefix in its partition. */
export const LDAP_LINK_PREFIX = `${LDAP_PREFIX}LINK#`;

/** A project's forks sort by id in its partition. */
export const FORK_PREFIX = 'FORK#';

/** A project's protected branches sort by name in its partition. */
export const PROTECTED_BRANCH_PREFIX = 'PROTBRANCH#';

/** The index of a part of a long text, in sort order (see store/table/long-text.ts). */
const partIndex = (index: number) => String(index).padStart(3, '0');

export const keys = {
  idCounter: (kind: string): Key => ({ pk: `COUNTER#${kind}`, sk: 'COUNTER' }),
  /**
   * The last iid given to a project's issues (`issue`) or merge requests (`merge_request`): moved
   * by one atomic update before the creation's transaction, in no list.
   */
  projectIids: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'IIDS' }),
  user: (id: number): Key => ({ pk: `USER#${id}`, sk: 'USER' }),
  /** Full paths of users, groups and projects share one namespace, as in GitLab. */
  route: (fullPath: string): Key => ({ pk: `ROUTE#${fullPath.toLowerCase()}`, sk: 'ROUTE' }),
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  /**
   * The user an external identity belongs to: (provider, extern_uid) is unique, the uid without
   * regard to case as GitLab compares it. Hashed, so any provider and uid make a key that fits.
   */
  identity: (provider: string, externUid: string): Key => ({
    pk: `IDENTITY#${createHash('sha256')
      .update(JSON.stringify([provider, externUid.toLowerCase()]), 'utf8')
      .digest('hex')}`,
    sk: 'IDENTITY',
  }),
  accessToken: (id: number): Key => ({ pk: `PAT#${id}`, sk: 'PAT' }),
  accessTokenHash: (hash: string): Key => ({ pk: `TOKENHASH#${hash}`, sk: 'TOKENHASH' }),
  group: (id: number): Key => ({ pk: `GROUP#${id}`, sk: 'GROUP' }),
  groupMember: (groupId: number, userId: number): Key => ({ pk: `GROUP#${groupId}`, sk: `MEMBER#${userId}` }),
  /** A group's LDAP sync state: its own item, so whole-item group saves never carry it. */
  ldapSyncState: (groupId: number): Key => ({ pk: `GROUP#${groupId}`, sk: `${LDAP_PREFIX}SYNC` }),
  /** A group shared with another group (the link lives in the shared group's partition). */
  groupShare: (groupId: number, sharedWithId: number): Key => ({
    pk: `GROUP#${groupId}`,
    sk: `SHARE#${sharedWithId}`,
  }),
  /**
   * A group's LDAP group link, in the group's partition: one per provider and cn (or filter),
   * the name hashed so any provider and value make a key that fits.
   */
  ldapGroupLink: (groupId: number, provider: string, kind: 'cn' | 'filter', value: string): Key => ({
    pk: `GROUP#${groupId}`,
    sk: `${LDAP_LINK_PREFIX}${createHash('sha256')
      .update(JSON.stringify([provider, kind, value]), 'utf8')
      .digest('hex')}`,
  }),
  /** A user's personal namespace (group namespaces are the groups themselves). */
  userNamespace: (namespaceId: number): Key => ({ pk: `NAMESPACE#${namespaceId}`, sk: 'NAMESPACE' }),
  project: (id: number): Key => ({ pk: `PROJECT#${id}`, sk: PROJECT_SK }),
  projectMember: (projectId: number, userId: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `MEMBER#${userId}`,
  }),
  projectStar: (projectId: number, userId: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `STAR#${userId}`,
  }),
  projectShare: (projectId: number, groupId: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `SHARE#${groupId}`,
  }),
  /** A project listed under one key of the search index (see #domain/search.ts). */
  searchPosting: (projectId: number, searchKey: string): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `SEARCH#${searchKey}`,
  }),
  /** Marks a project whose search postings the worker has yet to write. */
  searchPending: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'SEARCHPENDING' }),
  /** A group listed under one key of the search index (see #domain/search.ts). */
  groupSearchPosting: (groupId: number, searchKey: string): Key => ({
    pk: `GROUP#${groupId}`,
    sk: `SEARCH#${searchKey}`,
  }),
  /** Marks a group whose search postings the worker has yet to write. */
  groupSearchPending: (groupId: number): Key => ({ pk: `GROUP#${groupId}`, sk: 'SEARCHPENDING' }),
  /** An issue (its partition also holds its notes). */
  issue: (projectId: number, iid: number): Key => ({ pk: `ISSUE#${projectId}#${iid}`, sk: ISSUE_SK }),
  mergeRequest: (projectId: number, iid: number): Key => ({
    pk: `MR#${projectId}#${iid}`,
    sk: MERGE_REQUEST_SK,
  }),
  /** A part of a merge request's long description, in its partition (a new version per write). */
  mergeRequestDescriptionPart: (mergeRequest: Key, version: string, index: number): Key => ({
    pk: mergeRequest.pk,
    sk: `DESCRIPTION#${version}#${partIndex(index)}`,
  }),
  /**
   * The item an open merge request holds for its two branches, in its (target) project's
   * partition; a source branch of another project (a fork's) is named with that project.
   */
  openMergeRequestBranches: (
    projectId: number,
    source: string,
    target: string,
    sourceProjectId = projectId,
  ): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `MROPEN#${createHash('sha256')
      .update(
        JSON.stringify(sourceProjectId === projectId ? [source, target] : [sourceProjectId, source, target]),
        'utf8',
      )
      .digest('hex')}`,
  }),
  snippet: (id: number): Key => ({ pk: `SNIPPET#${id}`, sk: 'SNIPPET' }),
  /** A part of a snippet's long content, in the snippet's partition (a new version per write). */
  snippetContentPart: (snippet: Key, version: string, index: number): Key => ({
    pk: snippet.pk,
    sk: `CONTENT#${version}#${partIndex(index)}`,
  }),
  epic: (id: number): Key => ({ pk: `EPIC#${id}`, sk: 'EPIC' }),
  /** An epic's iid within its group, naming the epic's id (iids are unique per group). */
  epicIid: (groupId: number, iid: number): Key => ({ pk: `EPICIID#${groupId}#${iid}`, sk: 'EPICIID' }),
  /** The last iid given to a group's epics (the group item is written whole, so not there). */
  epicIidCounter: (groupId: number): Key => ({ pk: `COUNTER#EPICIID#${groupId}`, sk: 'COUNTER' }),
  /** A note, in the partition of the issue, merge request, snippet or epic it hangs on. */
  note: (parentPk: string, id: number): Key => ({ pk: parentPk, sk: `${NOTE_PREFIX}${padId(id)}` }),
  /** A part of a note's long body, beside the note (a new version per write). */
  notePart: (note: Key, version: string, index: number): Key => ({
    pk: note.pk,
    sk: `${note.sk}#PART#${partIndex(index)}#${version}`,
  }),
  /**
   * An award emoji, by id, in the partition of the issue, merge request or snippet it (or the note
   * it is on) hangs on; `on` is `ITEM` or `NOTE#<note id>` (awardOn).
   */
  award: (parentPk: string, on: string, id: number): Key => ({
    pk: parentPk,
    sk: `${AWARD_PREFIX}${on}#ID#${padId(id)}`,
  }),
  /** A removed award's webhook event, read by the table's stream (gone with TTL). */
  awardRevoked: (parentPk: string, on: string, id: number): Key => ({
    pk: parentPk,
    sk: `${AWARD_PREFIX}${on}#REVOKED#${padId(id)}`,
  }),
  /** What makes one user's award of one emoji on one awardable unique: it names the award. */
  awardByUser: (parentPk: string, on: string, userId: number, name: string): Key => ({
    pk: parentPk,
    sk: `${AWARD_PREFIX}${on}#BY#${padId(userId)}#${name}`,
  }),
  /** One event's delivery to one hook (its payload, state and attempts; see store/hooks/hook-deliveries.ts). */
  hookDelivery: (deliveryId: string): Key => ({ pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /**
   * One attempt of a delivery to a hook: in the hook's log partition of its created day (UTC), so
   * no partition grows with the hook's age, sorted by created time, then id.
   */
  hookLog: (hookId: number, createdAt: string, logId: number): Key => ({
    pk: hookLogPartition(hookId, logPeriodOf(createdAt)),
    sk: `${HOOK_LOG_PREFIX}${createdAt}#${padId(logId)}`,
  }),
  /** Project names are unique within a namespace, like paths. */
  projectName: (namespaceId: number, name: string): Key => ({
    pk: `PROJECTNAME#${namespaceId}#${name.toLowerCase()}`,
    sk: 'PROJECTNAME',
  }),
  /**
   * Left by a deleted hook, in a partition of its own, for the delivery worker: a delivery fanned
   * out before the deletion is not sent (its target travels with it, the hook is not read).
   */
  hookGone: (hookId: number): Key => ({ pk: `HOOKGONE#${hookId}`, sk: 'HOOKGONE' }),
  /** An Idempotency-Key's record, in a partition of its own (the name is a hash; store/table/idempotency-store.ts). */
  idempotencyRecord: (name: string): Key => ({ pk: `IDEMPOTENCY#${name}`, sk: 'IDEMPOTENCY' }),
  /** A project hook, in its project's partition, in id order (see store/hooks/hooks.ts). */
  hook: (projectId: number, hookId: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `${HOOK_PREFIX}${padId(hookId)}`,
  }),
  /**
   * How many hooks a project has (see store/hooks/hooks.ts): its own item, moved in the transaction that
   * adds or removes a hook, so the limit is the database's condition.
   */
  hookCount: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'HOOKCOUNT' }),
  /** A project's push rule (at most one), in its project's partition. */
  pushRule: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'PUSHRULE' }),
  /** A fork of a project, in the source's partition (its forks list; see store/projects/forks.ts). */
  forkLink: (sourceId: number, forkId: number): Key => ({
    pk: `PROJECT#${sourceId}`,
    sk: `${FORK_PREFIX}${padId(forkId)}`,
  }),
  /** The one repository job (import, fork, mirror update, housekeeping, removal) running for a project. */
  repositoryLease: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'REPOLEASE' }),
  /**
   * A project's repository commit point: the key of its current refs document and that state's
   * version, moved only by a conditional update (store/projects/repository-pointer.ts).
   */
  repository: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'REPOSITORY' }),
  /** A protected branch (a name or a pattern) of a project, by name in its partition. */
  protectedBranch: (projectId: number, name: string): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `${PROTECTED_BRANCH_PREFIX}${name}`,
  }),
  /** The last housekeeping's lease: a second request within it is refused. */
  housekeepingLease: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'HOUSEKEEPING' }),
  /** Marks a pull mirror in the list the schedule reads (see store/projects/mirrors.ts). */
  pullMirror: (projectId: number): Key => ({ pk: `PROJECT#${projectId}`, sk: 'MIRROR' }),
  /** A label, in its project's or group's partition (`PROJECT#` / `GROUP#`), by id (store/labels/labels.ts). */
  label: (ownerPk: string, labelId: number): Key => ({ pk: ownerPk, sk: `${LABEL_PREFIX}${padId(labelId)}` }),
  /** A label's title, unique in its owner's partition; by hash, as a title may outgrow a sort key. */
  labelTitle: (ownerPk: string, title: string): Key => ({
    pk: ownerPk,
    sk: `LABELTITLE#${createHash('sha256').update(title).digest('hex')}`,
  }),
  /** A user's subscription to a label, beside the label: one Query reads a user's in an owner. */
  labelSubscription: (ownerPk: string, userId: number, labelId: number): Key => ({
    pk: ownerPk,
    sk: `${labelSubscriptionPrefix(userId)}${padId(labelId)}`,
  }),
  /** A milestone, in its project's or group's partition, by id (store/issuables/milestones.ts). */
  milestone: (ownerPk: string, milestoneId: number): Key => ({
    pk: ownerPk,
    sk: `${MILESTONE_PREFIX}${padId(milestoneId)}`,
  }),
  /** A milestone's title, unique in its owner's partition; by hash, as a title may outgrow a sort key. */
  milestoneTitle: (ownerPk: string, title: string): Key => ({
    pk: ownerPk,
    sk: `MILESTONETITLE#${createHash('sha256').update(title).digest('hex')}`,
  }),
  /** The last iid given to a group's milestones: moved by one atomic update before the creation. */
  groupIids: (groupId: number): Key => ({ pk: `GROUP#${groupId}`, sk: 'IIDS' }),
};

/** Milestones sort by id in their owner's partition (their titles under `MILESTONETITLE#`). */
export const MILESTONE_PREFIX = 'MILESTONE#';

/** Labels sort by id in their owner's partition. */
export const LABEL_PREFIX = 'LABEL#';
/** Where a user's label subscriptions sort in an owner's partition. */
export const labelSubscriptionPrefix = (userId: number) => `LABELSUB#${padId(userId)}#`;

/** Whether a stored item is the one at this key. */
export const isAt = (item: Record<string, unknown>, key: Key) => item.pk === key.pk && item.sk === key.sk;

/** Attributes that belong to the storage layout, never to an entity. */
export const storageAttributes = new Set<string>([
  'pk',
  'sk',
  ...listPartitionAttributes,
  ...Object.values(listSortAttributes),
  treeIndex.partitionKey,
  treeIndex.sortKey,
]);

export function stripStorage<T>(item: Record<string, unknown>): T {
  const entity: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!storageAttributes.has(name)) entity[name] = value;
  return entity as T;
}
