/**
 * The table's lists: which index attribute and partition each is read through, the orders its
 * items sort by, and the sort attributes an item carries for them. Items are put in lists and
 * lists are read only through these names.
 */
import { padId } from './keys.ts';
import {
  type ListOrder,
  type ListPartitionAttribute,
  listPartitionAttributes,
  listSortAttributes,
} from './table.ts';

/**
 * A list: the index attribute it is read through (`l1` or `l2`), its partition and the orders its
 * items carry sort attributes for. Lists are only ever named through `lists`, so a list cannot be
 * read through another's index, nor (checked by the types and again when read) in an order its
 * items do not sort by, which would find nothing.
 */
export interface ListRef<O extends ListOrder = ListOrder> {
  attribute: ListPartitionAttribute;
  partition: string;
  orders: readonly O[];
}

/** A list by name only: enough to count it or to tell whether an item is in it. */
export type ListName = Pick<ListRef, 'attribute' | 'partition'>;

const listOf =
  <O extends ListOrder>(attribute: ListPartitionAttribute, orders: readonly ('id' | O)[]) =>
  (partition: string): ListRef<'id' | O> => ({ attribute, partition, orders });

/** The orders of each kind of list, as its items' sort attributes (see sortAttributes) allow. */
const everyOrder = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;
const named = ['id', 'name', 'path', 'created_at'] as const;
const dated = ['id', 'created_at'] as const;
const byId = ['id'] as const;
const timed = ['id', 'created_at', 'updated_at'] as const;

/** Every list of the table. */
export const lists = {
  users: listOf('l1', named)('USERS'),
  usersInState: (state: string) => listOf('l2', named)(`USERS#${state}`),
  accessTokens: listOf('l1', dated)('PATS'),
  accessTokensOfUser: (userId: number) => listOf('l2', dated)(`PATS#USER#${userId}`),
  groupsWithVisibility: (visibility: string) => listOf('l1', named)(`GROUPS#${visibility}`),
  /** Direct subgroups of a group, or top-level groups for `null`. */
  groupChildren: (parentId: number | null) => listOf('l2', named)(`GROUPS#CHILDREN#${parentId ?? 'ROOT'}`),
  /** Users' personal namespaces, by namespace id (groups are the other namespaces). */
  userNamespaces: listOf('l1', byId)('NAMESPACES#USER'),
  groupMembers: (groupId: number) => listOf('l1', dated)(`MEMBERS#GROUP#${groupId}`),
  groupMembershipsOfUser: (userId: number) => listOf('l2', dated)(`MEMBERSHIPS#GROUP#USER#${userId}`),
  projectsWithVisibility: (visibility: string) => listOf('l1', everyOrder)(`PROJECTS#${visibility}`),
  /** A namespace's projects of one visibility: callers who see only some read only those. */
  namespaceProjects: (namespaceId: number, visibility: string) =>
    listOf('l2', everyOrder)(`PROJECTS#NS#${namespaceId}#${visibility}`),
  projectMembers: (projectId: number) => listOf('l1', dated)(`MEMBERS#PROJECT#${projectId}`),
  projectMembershipsOfUser: (userId: number) => listOf('l2', dated)(`MEMBERSHIPS#PROJECT#USER#${userId}`),
  projectStars: (projectId: number) => listOf('l1', byId)(`STARS#PROJECT#${projectId}`),
  starredByUser: (userId: number) => listOf('l2', byId)(`STARRED#USER#${userId}`),
  /** Projects listed under a search key. */
  searchPostings: (searchKey: string) => listOf('l1', byId)(`SEARCH#${searchKey}`),
  /** Projects waiting for their search postings. */
  searchPending: listOf('l1', byId)('SEARCH#PENDING'),
  /** Groups listed under a search key. */
  groupSearchPostings: (searchKey: string) => listOf('l1', byId)(`GSEARCH#${searchKey}`),
  /** Groups waiting for their search postings. */
  groupSearchPending: listOf('l1', byId)('GSEARCH#PENDING'),
  /** Projects shared with a group. */
  sharedWithGroup: (groupId: number) => listOf('l1', byId)(`SHARES#GROUP#${groupId}`),
  /** Groups shared with a group. */
  groupsSharedWithGroup: (groupId: number) => listOf('l1', byId)(`GROUPSHARES#GROUP#${groupId}`),
  /** A project's issues, and those in one state. */
  projectIssues: (projectId: number) => listOf('l1', timed)(`ISSUES#PROJECT#${projectId}`),
  projectIssuesInState: (projectId: number, state: string) =>
    listOf('l2', timed)(`ISSUES#PROJECT#${projectId}#${state}`),
  projectMergeRequests: (projectId: number) => listOf('l1', timed)(`MRS#PROJECT#${projectId}`),
  projectMergeRequestsInState: (projectId: number, state: string) =>
    listOf('l2', timed)(`MRS#PROJECT#${projectId}#${state}`),
  projectSnippets: (projectId: number) => listOf('l1', timed)(`SNIPPETS#PROJECT#${projectId}`),
  /** A user's personal snippets. */
  personalSnippetsOfUser: (userId: number) => listOf('l1', timed)(`SNIPPETS#USER#${userId}`),
  /** Personal snippets of one visibility (a snippet moves between these when it changes). */
  personalSnippetsWithVisibility: (visibility: string) =>
    listOf('l2', timed)(`SNIPPETS#PERSONAL#${visibility}`),
  groupEpics: (groupId: number) => listOf('l1', timed)(`EPICS#GROUP#${groupId}`),
  /**
   * The notes of an issue, merge request, snippet or epic (its partition key names it), in created
   * and updated order only; its total is the parent's `notes_count` (store/table/counters.ts).
   */
  notesOf: (parentPk: string) =>
    listOf<'created_at' | 'updated_at'>('l1', ['created_at', 'updated_at'])(`NOTES#${parentPk}`),
  /**
   * The replies of a parent's threads (each thread's notes after its first), in the orders of
   * `notesOf`: the two together are every note, `notesOf` alone one note per discussion.
   */
  threadRepliesOf: (parentPk: string) =>
    listOf<'created_at' | 'updated_at'>('l1', ['created_at', 'updated_at'])(`REPLIES#${parentPk}`),
  /** The notes of one thread of a parent, in created order. */
  threadNotesOf: (parentPk: string, discussionId: string) =>
    listOf<'created_at'>('l2', ['created_at'])(`THREAD#${parentPk}#${discussionId}`),
  /**
   * A user's awards on the issues and merge requests (not their notes) of one project, by award id:
   * what the `my_reaction_emoji` filter reads.
   */
  awardsOfUserInProject: (projectId: number, userId: number) =>
    listOf('l1', byId)(`AWARDS#PROJECT#${projectId}#USER#${userId}`),
  groupEpicsInState: (groupId: number, state: string) =>
    listOf('l2', timed)(`EPICS#GROUP#${groupId}#${state}`),
  /** Pull mirrors, for the schedule that updates them. */
  pullMirrors: listOf('l1', byId)('MIRRORS'),
  /** Every LDAP group link, by its group's id: the groups the hourly LDAP sync visits. */
  ldapGroupLinks: listOf('l1', byId)('LDAPLINKS'),
  /** A hook's delivery attempts of one kind of outcome (successful, client_failure, server_failure). */
  hookLogsOfOutcome: (hookId: number, outcome: string) =>
    listOf('l1', dated)(`HOOKLOGS#${hookId}#${outcome}`),
  /** A hook's delivery attempts that got one response status. */
  hookLogsWithStatus: (hookId: number, status: string) =>
    listOf('l2', dated)(`HOOKLOGS#${hookId}#STATUS#${status}`),
  /**
   * Webhook deliveries not settled yet, in one of PENDING_DELIVERY_SHARDS partitions (by a hash of
   * the delivery's id, so no partition is hot), by created time only (a delivery's id is no number):
   * what the delivery sweep reads.
   */
  pendingDeliveries: (shard: number) =>
    listOf<'created_at'>('l1', ['created_at'])(`DELIVERIES#PENDING#${shard}`),
};

/** The list attributes of an item that belongs to the given lists (at most one per attribute). */
export function inLists(...refs: ListName[]): Partial<Record<ListPartitionAttribute, string>> {
  const attributes: Partial<Record<ListPartitionAttribute, string>> = {};
  for (const ref of refs) {
    if (attributes[ref.attribute] !== undefined) throw new Error(`two lists on ${ref.attribute}`);
    attributes[ref.attribute] = ref.partition;
  }
  return attributes;
}

/** The lists a stored item belongs to, as its list attributes say. */
export const listsOfItem = (item: Record<string, unknown>): ListName[] =>
  listPartitionAttributes.flatMap((attribute) =>
    item[attribute] === undefined ? [] : [{ attribute, partition: String(item[attribute]) }],
  );

export interface SortSource {
  id: number;
  name?: string;
  path?: string;
  created_at?: string;
  updated_at?: string;
  last_activity_at?: string;
}

/**
 * The sort attributes of an item: each value ends with the padded id so order is total. The
 * separator is U+0000, below every printable character, so a value sorts before its
 * extensions ("John" before "John Smith"; with `#` the space, `!` and `"` sorted first).
 */
export const SORT_SEPARATOR = '\u0000';

/** Index sort keys are limited to 1024 bytes: 200 characters (≤ 800 bytes) decide the order. */
const SORT_PREFIX_CHARS = 200;
const sortText = (text: string) => Array.from(text.toLowerCase()).slice(0, SORT_PREFIX_CHARS).join('');

export function sortAttributes(source: SortSource): Record<string, string> {
  const suffix = `${SORT_SEPARATOR}${padId(source.id)}`;
  const values: Partial<Record<ListOrder, string | undefined>> = {
    id: padId(source.id),
    name: source.name === undefined ? undefined : sortText(source.name) + suffix,
    path: source.path === undefined ? undefined : sortText(source.path) + suffix,
    created_at: source.created_at === undefined ? undefined : source.created_at + suffix,
    updated_at: source.updated_at === undefined ? undefined : source.updated_at + suffix,
    last_activity_at: source.last_activity_at === undefined ? undefined : source.last_activity_at + suffix,
  };
  const attributes: Record<string, string> = {};
  for (const [order, value] of Object.entries(values)) {
    if (value !== undefined) attributes[listSortAttributes[order as ListOrder]] = value;
  }
  return attributes;
}
