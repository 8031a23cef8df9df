/**
 * B5's measuring process (started by b5-list-cost.ts): its own local runtime on a fresh in-memory
 * table, so the row counts are the table's and nothing else's, and its own DocumentClient.
 *
 * 1. Seeds ≈ `small` rows through the store's create functions (createUser, createAccessToken,
 *    createGroup, addGroupMember, createProject in a group namespace) and measures page 1 of each
 *    list with ReturnConsumedCapacity TOTAL on every read the request sends.
 * 2. Grows the table to ≈ `large` rows: more groups, then projects, written with BatchWriteItem
 *    (25 items a request, several requests in flight) — a group's item, route, owner membership
 *    and search postings laid out as createGroup and the search worker write them, a project's
 *    item, route item, name item and postings as createProject and the worker do
 *    (test/support/project-filler.ts; each checked item for item against store-written ones
 *    before the first write), ids from the store's nextId, list counters moved with the store's
 *    listCountChange. Through the store a group costs ≈ 12 requests and a project about as many
 *    (one transaction each, then the search worker's reads and one counter write per posting),
 *    which would not reach 100k rows in the time the bench has on 2 cores. The projects' filler starts once the groups are in and runs
 *    beside the growth of notes, labels and the rest, until the table holds `large` rows or the
 *    seeding deadline (seconds from the growth's start) passes; the size reached is what is
 *    reported, with the seconds each step took.
 * 3. Measures the same lists again, then pages 1, 5 and 10 at per_page 20 against what a Query
 *    skipping the same keys costs, then GET /projects by keyset (order_by=id): page 1 against the
 *    deepest full page, reached by walking the cursors unmeasured.
 *
 * Notes: a private project of its own group holds an issue with a page and a half of notes (the
 * list measured at both sizes) and other issues with 10 notes between them at the small size —
 * all through createIssue and createNoteBy. Before the projects grow, the other issues grow to
 * 10,000 notes: an issue of 210 notes through createNoteBy (its pages 1, 5 and 10 are measured
 * against skipping) and the rest written with BatchWriteItem as createNoteBy lays them out
 * (checked item for item against store-written notes first), the issues' note counters moved as
 * createNoteBy moves them.
 *
 * Labels, milestones, award emoji and discussions: the notes' project and group hold a page and a
 * bit of labels and of milestones each, and another issue of the project a page and a bit of
 * discussions (threads with replies among them) and of awards, on itself and on its first note —
 * all through the store (createLabel, createMilestone, startThread, replyToDiscussion,
 * createNoteBy, addAward). Before the projects grow, the same partitions grow (other users'
 * label subscriptions in the project and the group, awards on the issue's other notes) and so
 * does the rest of the table: labels and milestones of other projects and groups, threads with
 * replies and awards on the project's other issues, and an issue with ten pages of discussions
 * (its pages 1, 5 and 10 are measured against skipping).
 *
 * argv: one JSON object (see Options). Prints one JSON line (B5ChildResult) last.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ACCESS, type Visibility, visibilityLevel } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import { HOOK_LOG_DAYS } from '#domain/hook-deliveries.ts';
import { type Note, newNote } from '#domain/notes.ts';
import type { Project } from '#domain/projects.ts';
import { groupSearchColumns } from '#domain/search.ts';
import { groupOwnerItem } from '#store/access/members.ts';
import { groupItem, groupRouteItem } from '#store/groups/group-items.ts';
import { hookLogNow, logPeriodsBack } from '#store/hooks/hook-log.ts';
import { issueAsParent, type StoredIssue } from '#store/issuables/issues.ts';
import { subscribeToLabel } from '#store/labels/labels.ts';
import { groupNamespace } from '#store/projects/namespace-lookup.ts';
import { groupSearchIndex, postingItems, searchPostingItems } from '#store/search/search-index.ts';
import { batchWriteItems } from '#store/table/batch.ts';
import { documentClient, tableName } from '#store/table/client.ts';
import { itemCounterChanges } from '#store/table/counters.ts';
import { HOOK_LOG_PREFIX, hookLogPartition } from '#store/table/hook-delivery-keys.ts';
import { nextId } from '#store/table/ids.ts';
import { keys } from '#store/table/keys.ts';
import { inLists, type ListRef, lists, sortAttributes } from '#store/table/list-keys.ts';
import { indexName, keyAttributes, type ListOrder, listSortAttributes } from '#store/table/table.ts';
import { commit } from '#store/table/transaction.ts';
import {
  canonical,
  checkProjectLayout,
  fillerProject,
  fillerProjectItems,
  getRaw,
  ListCountTally,
} from '../support/project-filler.ts';
import { median, round } from './common.ts';
import { type BenchRuntime, READ_COMMANDS, type SendRecord, startBenchRuntime } from './runtime.ts';
import {
  AWARD_NAMES,
  groupFields,
  noteBody,
  personalNamespace,
  seedAwards,
  seedDiscussions,
  seedGroup,
  seedGroupProjects,
  seedHook,
  seedHookLogs,
  seedIssue,
  seedIssueNotes,
  seedLabels,
  seedMember,
  seedMilestones,
  seedProject,
  seedRepository,
  seedToken,
  VISIBILITY_CYCLE,
} from './seed.ts';

/** The fixed subtree whose descendants are listed: children and grandchildren of one group. */
const TREE_CHILDREN = 10;
const TREE_GRANDCHILDREN = 20;

export interface Options {
  small: number;
  large: number;
  /**
   * Seconds the growth to the large size may take, from its start (the small size measured),
   * after which it stops wherever it is.
   */
  seedDeadlineSec: number;
  repetitions: number;
  perPage: number;
  pages: number[];
}

export type Who = 'anon' | 'user' | 'admin';

export interface ListScenario {
  key: string;
  label: string;
  who: Who;
  /** Decides B5 (the others are controls and information). */
  verdict: boolean;
  path: string;
  /** What skipping keys of this list costs: the same index and partitions the list reads. */
  skip?: SkipSpec;
  /** The caller's token when not the one `who` names (a member of another group). */
  token?: string;
}

/**
 * The keys a page skips: of lists on a global index (each partition, as a merge must read them;
 * a parent's notes are such a list), or of a hook's delivery log (its days' partitions, newest
 * first from today's, on the table's own key, read consistently as the events list reads them).
 */
export type SkipSpec =
  | { order: ListOrder; sort: 'asc' | 'desc'; lists: ListRef[] }
  | { hookLog: number; since: string };

/** How the hooks' delivery logs were seeded (information for the report). */
export interface HookLogSeeding {
  /** Attempts in the log of the hook whose page 1 is compared between the sizes. */
  onTarget: number;
  /** Attempts in another hook's log, added for the large size (its pages are measured). */
  deep: number;
  seconds: number;
  sanity: string[];
}

/** How the notes were seeded at each size (information for the report). */
export interface NotesSeeding {
  /** Notes on the issue whose list is compared between the sizes. */
  onTarget: number;
  otherIssues: number;
  /** Notes on the project's other issues at each size. */
  otherSmall: number;
  otherLarge: number;
  /** Of the large size's: on the deep issue (through createNoteBy) and written by BatchWriteItem. */
  deep: number;
  filler: number;
  fillerSeconds: number;
  layoutChecked: string[];
  sanity: string[];
}

/** How the labels, milestones, awards and discussions were seeded (information for the report). */
export interface IssueExtrasSeeding {
  /** Labels and milestones of the listed project and of its group, at both sizes. */
  labels: number;
  milestones: number;
  /** Discussions on the listed issue (every THREAD_EVERY-th a thread with replies), and its awards (on it and on its first note, each). */
  discussions: number;
  awards: number;
  /** What the large size adds, item kind by item kind. */
  grown: string[];
  smallSeconds: number;
  largeSeconds: number;
  /** Discussions on the issue whose pages 1, 5, 10 are measured. */
  deepDiscussions: number;
}

export interface Measurement {
  status: number;
  returned: number;
  total: string | null;
  /** Median over repetitions of the read capacity of all the request's reads. */
  rcu: number;
  itemsRead: number;
  sends: number;
  rcuRange: [number, number];
  /** Read capacity and items per command kind and target (first repetition). */
  breakdown: { target: string; sends: number; rcu: number; items: number }[];
}

export interface SizeResult {
  rows: number;
  projects: number;
  groups: number;
  growingGroupProjects: number;
  seedSeconds: number;
  measurements: Record<string, Measurement>;
}

export interface PageResult {
  key: string;
  page: number;
  rcu: number;
  itemsRead: number;
  /** A Query over the same index and partitions reading (page − 1) × per_page keys (each partition). */
  skipRcu: number;
  skipItems: number;
}

/** A keyset list's page 1 and its deepest full page, reached by cursor. */
export interface KeysetResult {
  key: string;
  label: string;
  who: Who;
  /** Items the list holds for the caller, walked by cursor (per_page 100) before measuring. */
  listed: number;
  /** Items before the deep page: it is page before / per_page + 1 of the list. */
  before: number;
  first: Measurement;
  deep: Measurement;
  /** Seconds the unmeasured walk to the deep page's cursor took, and its page size. */
  walkSeconds: number;
  walkPerPage: number;
}

export interface B5ChildResult {
  options: Options;
  scenarios: ListScenario[];
  /** Lists measured only at the large size, for their pages (page 1 too). */
  pageScenarios: ListScenario[];
  notes: NotesSeeding;
  hookLogs: HookLogSeeding;
  extras: IssueExtrasSeeding;
  small: SizeResult;
  large: SizeResult;
  reachedLarge: boolean;
  fillerProjects: number;
  /** Rows the projects' filler wrote per second. */
  fillerRowsPerSecond: number;
  /** The groups added for the large size: the first through createGroup, the rest by BatchWriteItem. */
  groupFiller: { byStore: number; byBatchWrite: number; seconds: number; layoutChecked: string[] };
  layoutChecked: string[];
  sanity: string[];
  pages: PageResult[];
  /** Keyset pages: page 1 against the deepest full page, per caller. */
  keyset: KeysetResult[];
  /** Seconds spent waiting for the table's stream to reach its consumer before each measurement. */
  streamWaits: number[];
  /** Seconds each step of the run took, in order. */
  phases: { name: string; seconds: number }[];
  commandCounts: Record<string, number>;
  seconds: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const processStart = performance.now();
/** Seconds each step of the run took, in order; also written to stderr as it goes (shown if the run fails). */
const phases: { name: string; seconds: number }[] = [];
let phaseStart = processStart;
const phaseDone = (name: string) => {
  const now = performance.now();
  phases.push({ name, seconds: round((now - phaseStart) / 1000, 1) });
  phaseStart = now;
  process.stderr.write(`B5 ${round((now - processStart) / 1000, 1)} s: ${name} done\n`);
};
process.env.LOG_LEVEL = 'silent';
const MEMBER_TOKEN = 'bench-b5-member-token-0123456789';
/** A developer of the notes' group only, so the member's reach (and its lists) stay as they were. */
const NOTES_MEMBER_TOKEN = 'bench-b5-notes-member-token-0123456789';
/** The control group keeps this many projects at both sizes. */
const FIXED_PROJECTS = 30;
/**
 * Every this many projects, one goes into the growing group (1/3 of all projects): enough that
 * at the small size it already holds more than a page of each visibility, so page 1 is a full
 * page at both sizes and the sizes compare like with like.
 */
const GROWING_EVERY = 3;
/** Enough that every visibility list holds more than a page of groups at the small size too. */
const OTHER_GROUPS_SMALL = 66;
const GROUPS_ADDED = 1000;
const PERSONAL_PROJECTS = 5;
/** BatchWriteItem requests of 25 items: a filler keeps this many batches of them in flight. */
const FILLER_CONCURRENCY = 8;
const PROJECTS_PER_BATCH = 8;
const GROUPS_PER_BATCH = 8;
/** The notes list compared between the sizes: more than a page, the same notes at both. */
const NOTES_ON_TARGET = 30;
const OTHER_ISSUES = 10;
const OTHER_NOTES_SMALL = 10;
const OTHER_NOTES_LARGE = 10_000;
const NOTES_PER_BATCH = 100;
/** The delivery log compared between the sizes: more than a page (GitLab pages events 20 at most). */
const HOOK_LOGS_ON_TARGET = 50;
const MAX_EVENTS_PER_PAGE = 20;
/** Hooks are never delivered to here (no events switched on): the url is only stored. */
const HOOK_URL = 'http://127.0.0.1:9/bench-b5';
/** Labels and milestones of the listed project and group, and discussions on the listed issue: a page and a bit. */
const LABELS_ON_TARGET = 25;
const MILESTONES_ON_TARGET = 25;
const DISCUSSIONS_ON_TARGET = 25;
/** The notes project's repository: a page and a bit of commits and of branches. */
const REPOSITORY_COMMITS = 25;
const REPOSITORY_BRANCHES = 25;
const THREAD_EVERY = 3;
const THREAD_REPLIES = 2;
/** Names each awarder awards on the listed issue and on its first note: 3 awarders, 24 awards each. */
const AWARD_NAMES_ON_TARGET = AWARD_NAMES.slice(0, 8);
/**
 * Growth for the large size, through the store (see the header): kept small, as each is a
 * transaction of its own and the time it takes is taken from the projects' growth.
 */
const OTHER_LABEL_SUBSCRIBERS = 100;
const OTHER_OWNERS = 5;
const PER_OTHER_OWNER = 5;
const THREADS_PER_OTHER_ISSUE = 2;
const AWARDED_OTHER_NOTES = 5;
const AWARD_NAMES_ON_OTHERS = AWARD_NAMES.slice(0, 5);
const DEEP_THREAD_EVERY = 5;
/** The deep issue's discussions (and the subscriptions) are seeded in this many chunks side by side. */
const DEEP_CHUNKS = 3;
const EXTRAS_CONCURRENCY = 6;

type Raw = Record<string, unknown>;
const pad = (n: number, width = 6) => String(n).padStart(width, '0');
const visibilityOf = (i: number) => VISIBILITY_CYCLE[i % VISIBILITY_CYCLE.length] ?? 'public';
/** The n-th project's visibility: cycling within the growing group's share and within the rest. */
const projectVisibility = (index: number) => visibilityOf(index + Math.floor(index / GROWING_EVERY));
/** A project is at most as visible as its group (GitLab refuses more). */
const capped = (visibility: Visibility, group: Group): Visibility =>
  visibilityLevel[visibility] > visibilityLevel[group.visibility] ? group.visibility : visibility;

let describeClient: DynamoDBClient | undefined;

/** The table's item count as DynamoDB Local reports it (DescribeTable, a control-plane call). */
async function tableRows(): Promise<number> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint?.startsWith('http://127.0.0.1:'))
    throw new Error('B5 talks to DynamoDB Local on loopback only');
  describeClient ??= new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const result = await describeClient.send(new DescribeTableCommand({ TableName: tableName() }));
  return Number(result.Table?.ItemCount ?? 0);
}

async function measure(bench: BenchRuntime, path: string, token: string | undefined): Promise<Measurement> {
  const reps: { status: number; returned: number; total: string | null; sends: SendRecord[] }[] = [];
  for (let rep = 0; rep < options.repetitions; rep++) {
    const recorded = await bench.record(async () => {
      const response = await fetch(`${bench.runtime.apiUrl}${path}`, {
        headers: token ? { 'PRIVATE-TOKEN': token } : {},
        signal: AbortSignal.timeout(60_000),
      });
      const body = (await response.json()) as unknown;
      return {
        status: response.status,
        returned: Array.isArray(body) ? body.length : -1,
        total: response.headers.get('x-total'),
      };
    });
    reps.push({ ...recorded.value, sends: recorded.sends });
  }
  const reads = (sends: SendRecord[]) => sends.filter((send) => READ_COMMANDS.has(send.command));
  const rcus = reps.map((rep) => reads(rep.sends).reduce((sum, send) => sum + send.capacity, 0));
  const items = reps.map((rep) => reads(rep.sends).reduce((sum, send) => sum + send.itemsRead, 0));
  const first = reps[0];
  const breakdown = new Map<string, { target: string; sends: number; rcu: number; items: number }>();
  for (const send of first?.sends ?? []) {
    const target = `${send.command.replace(/Command$/, '')} ${send.target}`;
    const entry = breakdown.get(target) ?? { target, sends: 0, rcu: 0, items: 0 };
    entry.sends++;
    entry.rcu = round(entry.rcu + send.capacity, 1);
    entry.items += send.itemsRead;
    breakdown.set(target, entry);
  }
  return {
    status: first?.status ?? 0,
    returned: first?.returned ?? 0,
    total: first?.total ?? null,
    rcu: round(median(rcus), 1),
    itemsRead: median(items),
    sends: first?.sends.length ?? 0,
    rcuRange: [round(Math.min(...rcus), 1), round(Math.max(...rcus), 1)],
    breakdown: [...breakdown.values()].sort((a, b) => b.rcu - a.rcu),
  };
}

/** Read capacity of Queries that only skip `count` keys of each partition (what offset paging must read). */
async function skipCost(
  bench: BenchRuntime,
  skip: SkipSpec,
  count: number,
): Promise<{ rcu: number; items: number }> {
  if (count <= 0) return { rcu: 0, items: 0 };
  // The log's day partitions and retention bound as listHookLogs computes them for this moment.
  const now = hookLogNow();
  const recorded = await bench.record(async () => {
    if ('hookLog' in skip) {
      const from = `${HOOK_LOG_PREFIX}${new Date(now.getTime() - HOOK_LOG_DAYS * 86_400_000).toISOString()}`;
      let read = 0;
      for (const period of logPeriodsBack(now, skip.since)) {
        let startKey: Raw | undefined;
        do {
          const result: QueryCommandOutput = await documentClient().send(
            new QueryCommand({
              TableName: tableName(),
              KeyConditionExpression: '#pk = :partition AND #sk >= :from',
              ExpressionAttributeNames: { '#pk': keyAttributes.partition, '#sk': keyAttributes.sort },
              ExpressionAttributeValues: {
                ':partition': hookLogPartition(skip.hookLog, period),
                ':from': from,
              },
              ScanIndexForward: false,
              ConsistentRead: true,
              Limit: count - read,
              ExclusiveStartKey: startKey,
            }),
          );
          read += result.Count ?? 0;
          startKey = result.LastEvaluatedKey;
        } while (startKey && read < count);
        if (read >= count) break;
      }
      return;
    }
    for (const list of skip.lists) {
      let read = 0;
      let startKey: Raw | undefined;
      do {
        const result: QueryCommandOutput = await documentClient().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: indexName(list.attribute, skip.order),
            KeyConditionExpression: '#list = :partition',
            ExpressionAttributeNames: { '#list': list.attribute },
            ExpressionAttributeValues: { ':partition': list.partition },
            ScanIndexForward: skip.sort === 'asc',
            Limit: count - read,
            ExclusiveStartKey: startKey,
          }),
        );
        read += result.Count ?? 0;
        startKey = result.LastEvaluatedKey;
      } while (startKey && read < count);
    }
  });
  return {
    rcu: round(
      recorded.sends.reduce((sum, send) => sum + send.capacity, 0),
      1,
    ),
    items: recorded.sends.reduce((sum, send) => sum + send.itemsRead, 0),
  };
}

// Filler groups: the items createGroup and the search worker write, checked against store-written ones

/** A top-level group as createGroup makes it from the same fields, id and time. */
const fillerGroup = (fields: ReturnType<typeof groupFields>, id: number, at: string): Group => ({
  ...fields,
  id,
  full_path: fields.path,
  full_name: fields.name,
  ancestor_ids: [],
  created_at: at,
  updated_at: at,
});

/** The group's item, its route, its creator's owner membership and its search postings. */
const groupItems = (group: Group, creatorId: number): Raw[] => [
  groupItem(group),
  groupRouteItem(group),
  groupOwnerItem(group, creatorId, group.created_at),
  ...searchPostingItems(groupSearchIndex, group.id, groupSearchColumns(group)),
];

/** Throws unless the filler's group items equal what createGroup (and the search worker) stored for the same groups. */
async function checkGroupLayout(stored: Group[], creatorId: number): Promise<string[]> {
  const checked: string[] = [];
  for (const group of stored) {
    const fields = groupFields(group.path, group.visibility);
    const mine = groupItems(fillerGroup(fields, group.id, group.created_at), creatorId);
    for (const item of mine) {
      const theirs = await getRaw({ pk: String(item.pk), sk: String(item.sk) });
      if (canonical(item) !== canonical(theirs)) {
        const names = new Set([...Object.keys(item), ...Object.keys(theirs ?? {})]);
        const differing = [...names].filter((name) => canonical(item[name]) !== canonical(theirs?.[name]));
        throw new Error(
          `B5 filler group item ${String(item.sk)} differs from what createGroup stores (attributes: ${differing.join(', ')}); update b5-child.ts to the store's layout`,
        );
      }
    }
    checked.push(`${mine.length} items of a group (${group.visibility})`);
  }
  return checked;
}

// Filler notes: the item createNoteBy writes, checked against store-written ones ---------------------

/** A note in its parent's partition, in the parent's notes list (l1) by created and updated time only. */
function noteItem(parentPk: string, note: Note): Raw {
  const { body, ...fields } = note;
  const sorts = sortAttributes({ id: note.id, created_at: note.created_at, updated_at: note.updated_at });
  return {
    ...keys.note(parentPk, note.id),
    ...fields,
    body,
    kind: 'note',
    ...inLists(lists.notesOf(parentPk)),
    [listSortAttributes.created_at]: sorts[listSortAttributes.created_at],
    [listSortAttributes.updated_at]: sorts[listSortAttributes.updated_at],
  };
}

/** Throws unless the filler's note items equal what createNoteBy stored for the same notes. */
async function checkNoteLayout(stored: { issue: StoredIssue; note: Note | undefined }[]): Promise<string[]> {
  const checked: string[] = [];
  for (const { issue, note } of stored) {
    if (!note) throw new Error('no store-written note to check the filler against');
    const parentPk = keys.issue(issue.project_id, issue.iid).pk;
    const mine = noteItem(parentPk, note);
    const theirs = await getRaw(keys.note(parentPk, note.id));
    if (canonical(mine) !== canonical(theirs)) {
      const names = new Set([...Object.keys(mine), ...Object.keys(theirs ?? {})]);
      const differing = [...names].filter((name) => canonical(mine[name]) !== canonical(theirs?.[name]));
      throw new Error(
        `B5 filler note item differs from what createNoteBy stores (attributes: ${differing.join(', ')}); update b5-child.ts to the store's layout`,
      );
    }
    checked.push(`note item on issue #${issue.iid} by user ${note.author_id}`);
  }
  return checked;
}

/**
 * The change createNoteBy makes on a note's issue, for `count` notes at once (countOnParent's): its
 * notes_count and user_notes_count on one of the issue's counter shards. The issue's updated time
 * is moved by the table's stream (note-touches) for each note written, BatchWrite ones included.
 */
const countedOnIssue = (issue: StoredIssue, count: number) =>
  itemCounterChanges(keys.issue(issue.project_id, issue.iid), {
    notes_count: count,
    user_notes_count: count,
  });

/** Walked by cursor per WALK_PER_PAGE (a cursor holds no page size): fewer requests to the deep end. */
const WALK_PER_PAGE = 100;

/**
 * Walks a keyset list to its end by its Link headers, unmeasured, `walkPerPage` items a request,
 * and gives the cursor of the latest page start with a full page of `options.perPage` items after
 * it: the deepest full page (none when no page start but the first has one after it).
 */
async function deepestCursor(
  path: string,
  token: string | undefined,
  walkPerPage: number,
): Promise<
  { cursor: string; before: number; listed: number; seconds: number; walkPerPage: number } | undefined
> {
  const since = performance.now();
  const starts: { cursor: string; before: number }[] = [];
  let listed = 0;
  let next: string | undefined = `${bench.runtime.apiUrl}${path}&per_page=${walkPerPage}`;
  while (next) {
    const response: Response = await fetch(next, {
      headers: token ? { 'PRIVATE-TOKEN': token } : {},
      signal: AbortSignal.timeout(60_000),
    });
    const page = (await response.json()) as unknown[];
    if (response.status !== 200 || !Array.isArray(page))
      throw new Error(`B5 keyset walk: ${response.status} at ${listed} items`);
    listed += page.length;
    const link = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    const linked = link ? new URL(link) : undefined;
    const cursor = linked?.searchParams.get('cursor');
    if (cursor) starts.push({ cursor, before: listed });
    // This runtime, whatever address the environment gave Link URLs.
    next = linked ? `${bench.runtime.url}${linked.pathname}${linked.search}` : undefined;
  }
  const deepest = starts.filter((start) => listed - start.before >= options.perPage).at(-1);
  return (
    deepest && { ...deepest, listed, walkPerPage, seconds: round((performance.now() - since) / 1000, 1) }
  );
}

// The run ---------------------------------------------------------------------------------------------

const bench = await startBenchRuntime();
phaseDone('runtime start');
try {
  const rootResponse = await fetch(`${bench.runtime.apiUrl}/user`, {
    headers: { 'PRIVATE-TOKEN': bench.runtime.rootToken },
  });
  const root = (await rootResponse.json()) as { id: number };
  const tokens: Record<Who, string | undefined> = {
    anon: undefined,
    user: MEMBER_TOKEN,
    admin: bench.runtime.rootToken,
  };

  // Size 1: everything through the store's create functions.
  const smallStart = performance.now();
  const [member, seeder, notesMember] = await bench.seedUsers(3);
  if (!member || !seeder || !notesMember) throw new Error('no member seeded');
  await seedToken(notesMember, NOTES_MEMBER_TOKEN);
  await seedToken(member, MEMBER_TOKEN);
  const fixed = await seedGroup('grp-fixed', 'public', root.id);
  const growing = await seedGroup('grp-grows', 'public', root.id);
  await seedMember(growing, member.id, ACCESS.developer);
  // A subtree of a fixed size, for GET /groups/:id/descendant_groups at both sizes.
  const tree = await seedGroup('grp-tree', 'public', root.id);
  const treeChildren: Group[] = [];
  for (let i = 0; i < TREE_CHILDREN; i++)
    treeChildren.push(await seedGroup(`tree-${i}`, visibilityOf(i), root.id, tree));
  for (let i = 0; i < TREE_GRANDCHILDREN; i++)
    await seedGroup(`leaf-${i}`, visibilityOf(i), root.id, treeChildren[i % TREE_CHILDREN]);
  const others: Group[] = [];
  for (let i = 0; i < OTHER_GROUPS_SMALL; i++)
    others.push(await seedGroup(`grp-${pad(i, 5)}`, visibilityOf(i), root.id));
  // Projects are created in one interleaved order at both sizes — every third into the growing
  // group, the rest round-robin over the other groups — so a page of the newest projects spans
  // as many groups at 1k rows as at 100k (the permission batch reads one key per group on a page).
  // The others take turns over the projects the growing group leaves, so every group gets some.
  const groupFor = (index: number, pool: Group[], growingLeft: boolean) =>
    !growingLeft
      ? (pool[index % pool.length] as Group)
      : index % GROWING_EVERY === 0
        ? growing
        : (pool[(index - Math.floor(index / GROWING_EVERY) - 1) % pool.length] as Group);
  const fixedProjects = await seedGroupProjects(fixed, FIXED_PROJECTS, {
    prefix: 'fixed',
    creatorId: root.id,
    visibilityOf: (i) => visibilityOf(i),
  });
  // The member's personal projects for GET /users/:id/projects: the same few at both sizes.
  const own = await personalNamespace(member);
  for (let i = 0; i < PERSONAL_PROJECTS; i++) await seedProject(own, `u${i}`, 'public', member.id);
  let projectsMade = fixedProjects.length + PERSONAL_PROJECTS;
  // The notes: a private project of a private group whose developer is a user of its own (the
  // list is for signed-in callers only; the member's reach stays as it was), an issue with a page
  // and a half of notes by that user and root, and other issues with 10 notes between them — all
  // through createIssue and createNoteBy.
  const notesGroup = await seedGroup('grp-notes', 'private', root.id);
  await seedMember(notesGroup, notesMember.id, ACCESS.developer);
  const notesProject = await seedProject(groupNamespace(notesGroup), 'notes', 'private', root.id);
  projectsMade++;
  const P = notesProject.id;
  const target = await seedIssue(notesProject, 'the issue whose notes are listed', notesMember.id);
  const targetNotes = await seedIssueNotes(target, NOTES_ON_TARGET, { authorIds: [notesMember.id, root.id] });
  const otherIssues: StoredIssue[] = [];
  for (let i = 0; i < OTHER_ISSUES; i++)
    otherIssues.push(await seedIssue(notesProject, `other ${i}`, root.id));
  const otherNotes: Note[] = [];
  for (let i = 0; i < OTHER_NOTES_SMALL; i++) {
    const issue = otherIssues[i % OTHER_ISSUES] as StoredIssue;
    otherNotes.push(...(await seedIssueNotes(issue, 1, { authorIds: [root.id], first: 1000 + i })));
  }
  // A hook's delivery log: a private project of the notes' group with a hook (no events) whose
  // log holds HOOK_LOGS_ON_TARGET attempts at both sizes, written by appendHookLog as the
  // delivery worker writes them.
  const hookLogsStart = performance.now();
  const hooksProject = await seedProject(groupNamespace(notesGroup), 'hooks', 'private', root.id);
  projectsMade++;
  const targetHook = await seedHook(hooksProject, `${HOOK_URL}/target`);
  await seedHookLogs(targetHook, HOOK_LOGS_ON_TARGET);
  let hookLogSeconds = (performance.now() - hookLogsStart) / 1000;
  // Labels and milestones of the notes' project and group, and an issue of the project with
  // discussions and awards on it and on its first note: the lists compared between the sizes.
  const extrasStart = performance.now();
  const projectOwner = { kind: 'project', id: notesProject.id } as const;
  const groupOwner = { kind: 'group', id: notesGroup.id } as const;
  const [targetLabel] = await seedLabels(projectOwner, LABELS_ON_TARGET);
  const [targetGroupLabel] = await seedLabels(groupOwner, LABELS_ON_TARGET, 'group-label');
  await seedMilestones(projectOwner, MILESTONES_ON_TARGET);
  await seedMilestones(groupOwner, MILESTONES_ON_TARGET);
  const discussed = await seedIssue(notesProject, 'the issue whose discussions are listed', notesMember.id);
  const { notes: discussedNotes } = await seedDiscussions(discussed, DISCUSSIONS_ON_TARGET, {
    authorIds: [notesMember.id, root.id],
    threadEvery: THREAD_EVERY,
    replies: THREAD_REPLIES,
  });
  const awarders = [root.id, seeder.id, member.id];
  const awardedNote = discussedNotes[0];
  if (!targetLabel || !targetGroupLabel || !awardedNote) throw new Error('labels or discussions not seeded');
  await seedAwards(discussed, { userIds: awarders, names: AWARD_NAMES_ON_TARGET });
  await seedAwards(discussed, { userIds: awarders, names: AWARD_NAMES_ON_TARGET, noteId: awardedNote.id });
  // The project's repository: its lists read the project and the repository pointer, nothing that grows.
  await seedRepository(notesProject, { commits: REPOSITORY_COMMITS, branches: REPOSITORY_BRANCHES });
  const extrasSmallSeconds = (performance.now() - extrasStart) / 1000;
  // A project adds three rows (project, route, name) and its search postings; a group's first
  // project a counter row. Names are short at this size (few postings) so the 1k-row table holds
  // a full page of each visibility in the growing group, which takes its first projects.
  const growingFirst = VISIBILITY_CYCLE.length * (options.perPage + 1);
  const smallName = (index: number) => `s${index.toString(36)}`;
  // Each posting may also start its key's counter row.
  const rowsOf = (name: string) => 3 + 2 * postingItems(0, [name, name, '']).length;
  let room = Math.max(0, options.small - (await tableRows()) - others.length - 1);
  let smallProjects = 0;
  // The growing group takes its first page of each visibility whatever room the rest left.
  while (smallProjects < growingFirst || room >= rowsOf(smallName(smallProjects)))
    room -= rowsOf(smallName(smallProjects++));
  let growingSmall = 0;
  let nextSmall = 0;
  const smallWorker = async () => {
    for (let index = nextSmall++; index < smallProjects; index = nextSmall++) {
      const first = index < growingFirst;
      const group = first ? growing : groupFor(index - growingFirst, others, true);
      if (group === growing) growingSmall++;
      const visibility = first ? visibilityOf(index) : projectVisibility(index - growingFirst);
      await seedProject(groupNamespace(group), smallName(index), capped(visibility, group), root.id);
    }
  };
  await Promise.all(Array.from({ length: 4 }, smallWorker));
  // Counter rows are hard to foresee exactly: top up one project at a time to the size asked for.
  while ((await tableRows()) < options.small) {
    nextSmall = smallProjects++;
    await smallWorker();
  }
  projectsMade += smallProjects;
  const layoutChecked = await checkProjectLayout(
    [fixedProjects[0], fixedProjects[1], fixedProjects[2]].filter(
      (project): project is Project => project !== undefined,
    ),
  );
  const noteLayoutChecked = await checkNoteLayout([
    { issue: target, note: targetNotes[0] },
    { issue: target, note: targetNotes[1] },
    { issue: otherIssues[0] as StoredIssue, note: otherNotes[0] },
  ]);

  /** A list of the notes' project or group, as that group's developer (only) and as root. */
  const extrasList = (key: string, label: string, path: string): ListScenario[] =>
    (['user', 'admin'] as const).map((who) => ({
      key: `${key}-${who}`,
      label,
      who,
      verdict: true,
      token: who === 'user' ? NOTES_MEMBER_TOKEN : undefined,
      path: `${path}?per_page=${options.perPage}`,
    }));
  const G = growing.id;
  const F = fixed.id;
  const allVisibilities = ['public', 'internal', 'private'];
  const scenarios: ListScenario[] = [
    ...(['anon', 'admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `projects-${who}`,
        label: 'GET /projects',
        who,
        verdict: who !== 'user',
        path: `/projects?per_page=${options.perPage}`,
        skip:
          who === 'user'
            ? undefined
            : {
                order: 'created_at',
                sort: 'desc',
                lists: (who === 'anon' ? ['public'] : allVisibilities).map(lists.projectsWithVisibility),
              },
      }),
    ),
    ...(['anon', 'admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `growing-${who}`,
        label: 'GET /groups/:id/projects (growing group)',
        who,
        verdict: who !== 'user',
        path: `/groups/${G}/projects?per_page=${options.perPage}`,
        skip:
          who === 'user'
            ? undefined
            : {
                order: 'created_at',
                sort: 'desc',
                lists:
                  who === 'anon'
                    ? [lists.namespaceProjects(G, 'public')]
                    : (['private', 'internal', 'public'] as const).map((visibility) =>
                        lists.namespaceProjects(G, visibility),
                      ),
              },
      }),
    ),
    ...(['anon', 'admin'] as const).map(
      (who): ListScenario => ({
        key: `fixed-${who}`,
        label: `GET /groups/:id/projects (${FIXED_PROJECTS}-project group)`,
        who,
        verdict: false,
        path: `/groups/${F}/projects?per_page=${options.perPage}`,
      }),
    ),
    ...(['anon', 'admin'] as const).map(
      (who): ListScenario => ({
        key: `detail-${who}`,
        label: 'GET /groups/:id (growing group; embeds ≤ 100 projects)',
        who,
        verdict: false,
        path: `/groups/${G}`,
      }),
    ),
    ...(['anon', 'admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `search-${who}`,
        label: 'GET /projects?search= (matches 11 of the control group)',
        who,
        verdict: who !== 'user',
        path: `/projects?search=fixed-1&per_page=${options.perPage}`,
      }),
    ),
    ...(['anon', 'admin'] as const).map(
      (who): ListScenario => ({
        key: `user-projects-${who}`,
        label: 'GET /users/:id/projects',
        who,
        verdict: true,
        path: `/users/${member.id}/projects?per_page=${options.perPage}`,
      }),
    ),
    ...(['anon', 'admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `groups-${who}`,
        label: 'GET /groups',
        who,
        verdict: who !== 'user',
        path: `/groups?per_page=${options.perPage}`,
        skip:
          who === 'user'
            ? undefined
            : {
                order: 'name',
                sort: 'asc',
                lists: (who === 'anon' ? ['public'] : allVisibilities).map(lists.groupsWithVisibility),
              },
      }),
    ),
    ...(['user', 'admin'] as const).map(
      (who): ListScenario => ({
        key: `notes-${who}`,
        label: `GET /projects/:id/issues/:iid/notes (${NOTES_ON_TARGET} notes; ${OTHER_NOTES_SMALL} → ${OTHER_NOTES_LARGE} on other issues)`,
        who,
        verdict: true,
        token: who === 'user' ? NOTES_MEMBER_TOKEN : undefined,
        path: `/projects/${P}/issues/${target.iid}/notes?per_page=${options.perPage}`,
      }),
    ),
    ...(['anon', 'admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `descendants-${who}`,
        label: `GET /groups/:id/descendant_groups (${TREE_CHILDREN + TREE_GRANDCHILDREN} descendants)`,
        who,
        verdict: true,
        path: `/groups/${tree.id}/descendant_groups?per_page=${options.perPage}`,
      }),
    ),
    ...(['admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `members-all-${who}`,
        label: 'GET /groups/:id/members/all (growing group)',
        who,
        verdict: true,
        path: `/groups/${G}/members/all?per_page=${options.perPage}`,
      }),
    ),
    ...(['admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `namespaces-${who}`,
        label: 'GET /namespaces',
        who,
        verdict: true,
        path: `/namespaces?per_page=${options.perPage}`,
      }),
    ),
    ...(['admin', 'user'] as const).map(
      (who): ListScenario => ({
        key: `search-projects-${who}`,
        label: 'GET /search?scope=projects (matches 11 of the control group)',
        who,
        // As GET /projects?search: the member's reach grows with the growing group.
        verdict: who === 'admin',
        path: `/search?scope=projects&search=fixed-1&per_page=${options.perPage}`,
      }),
    ),
    {
      key: 'search-groups-admin',
      label: 'GET /search?scope=groups',
      who: 'admin',
      verdict: true,
      path: `/search?scope=groups&search=tree&per_page=${options.perPage}`,
    },
    {
      key: 'search-users-admin',
      label: 'GET /search?scope=users',
      who: 'admin',
      verdict: true,
      path: `/search?scope=users&search=bench&per_page=${options.perPage}`,
    },
    {
      key: 'hook-events-admin',
      label: `GET /projects/:id/hooks/:hook_id/events (${HOOK_LOGS_ON_TARGET} attempts)`,
      who: 'admin',
      verdict: true,
      path: `/projects/${hooksProject.id}/hooks/${targetHook.id}/events?per_page=${options.perPage}`,
    },
    ...extrasList(
      'project-labels',
      `GET /projects/:id/labels (${LABELS_ON_TARGET} + the group's ${LABELS_ON_TARGET})`,
      `/projects/${P}/labels`,
    ),
    ...extrasList(
      'group-labels',
      `GET /groups/:id/labels (${LABELS_ON_TARGET})`,
      `/groups/${notesGroup.id}/labels`,
    ),
    ...extrasList(
      'project-milestones',
      `GET /projects/:id/milestones (${MILESTONES_ON_TARGET})`,
      `/projects/${P}/milestones`,
    ),
    ...extrasList(
      'group-milestones',
      `GET /groups/:id/milestones (${MILESTONES_ON_TARGET})`,
      `/groups/${notesGroup.id}/milestones`,
    ),
    ...extrasList(
      'issue-awards',
      `GET /projects/:id/issues/:iid/award_emoji (${awarders.length * AWARD_NAMES_ON_TARGET.length})`,
      `/projects/${P}/issues/${discussed.iid}/award_emoji`,
    ),
    ...extrasList(
      'note-awards',
      `GET /projects/:id/issues/:iid/notes/:note_id/award_emoji (${awarders.length * AWARD_NAMES_ON_TARGET.length})`,
      `/projects/${P}/issues/${discussed.iid}/notes/${awardedNote.id}/award_emoji`,
    ),
    ...extrasList(
      'discussions',
      `GET /projects/:id/issues/:iid/discussions (${DISCUSSIONS_ON_TARGET})`,
      `/projects/${P}/issues/${discussed.iid}/discussions`,
    ),
    ...extrasList(
      'branches',
      `GET /projects/:id/repository/branches (${REPOSITORY_BRANCHES + 1})`,
      `/projects/${P}/repository/branches`,
    ),
    ...extrasList('tree', 'GET /projects/:id/repository/tree', `/projects/${P}/repository/tree`),
    ...extrasList(
      'commits',
      `GET /projects/:id/repository/commits (${REPOSITORY_COMMITS})`,
      `/projects/${P}/repository/commits`,
    ),
  ];
  // The table's stream feeds the webhook consumer in this process, whose reads go through the same
  // DocumentClient: every change seeded so far reaches it before anything is measured, so none of
  // its reads falls into a request's.
  const streamWaits: number[] = [];
  const quiet = async () => {
    const since = performance.now();
    await bench.runtime.streams.drain(240_000);
    await bench.runtime.queues.drain(60_000);
    streamWaits.push(round((performance.now() - since) / 1000, 1));
  };
  const measureAll = async () => {
    await quiet();
    const out: Record<string, Measurement> = {};
    for (const scenario of scenarios)
      out[scenario.key] = await measure(bench, scenario.path, scenario.token ?? tokens[scenario.who]);
    return out;
  };

  const small: SizeResult = {
    rows: await tableRows(),
    projects: projectsMade,
    groups: 3 + others.length,
    growingGroupProjects: growingSmall,
    seedSeconds: round((performance.now() - smallStart) / 1000, 1),
    measurements: {},
  };
  phaseDone('small size seeded');
  small.measurements = await measureAll();
  phaseDone('small size measured');

  // Size 2: more groups, then filler projects, beside the growth of notes, labels and the rest.
  // The groups are another user's, so no caller's own memberships differ between the sizes (a
  // group's creator becomes its owner): what grows is the rest of the table.
  const largeStart = performance.now();
  const deadline = largeStart + options.seedDeadlineSec * 1000;
  // Ids in blocks of 1000 while growing (one ADD per thousand fillers instead of per ten).
  process.env.ID_BLOCK_SIZE = '1000';
  // The list counters the fillers' items join, moved once at the end with the change the store's
  // transactions make per item (listCountChange).
  const counters = new ListCountTally();
  // The first groups through createGroup (and the search worker's step), each visibility once; the
  // rest by BatchWriteItem laid out as those were (checked first), beside the steps that follow:
  // it only adds rows, and the projects' filler waits for it.
  const groupName = (i: number) => `grp-${pad(OTHER_GROUPS_SMALL + i, 5)}`;
  const storeGroups: Group[] = [];
  for (let i = 0; i < VISIBILITY_CYCLE.length; i++)
    storeGroups.push(await seedGroup(groupName(i), visibilityOf(i), seeder.id));
  others.push(...storeGroups);
  const groupLayoutChecked = await checkGroupLayout(storeGroups, seeder.id);
  const groupsStart = performance.now();
  let groupsFilled = storeGroups.length;
  const groupsBase = Date.now();
  const groupFillerWorker = async () => {
    while (groupsFilled < GROUPS_ADDED && performance.now() < deadline) {
      const items: Raw[] = [];
      for (let k = 0; k < GROUPS_PER_BATCH && groupsFilled < GROUPS_ADDED; k++) {
        const i = groupsFilled++;
        const group = fillerGroup(
          groupFields(groupName(i), visibilityOf(i)),
          await nextId('namespace'),
          new Date(groupsBase + i).toISOString(),
        );
        others.push(group);
        items.push(...groupItems(group, seeder.id));
      }
      counters.addItems(items);
      if (items.length) await batchWriteItems(items);
    }
  };
  const groupsGrown = Promise.all(Array.from({ length: FILLER_CONCURRENCY }, groupFillerWorker)).then(() =>
    round((performance.now() - groupsStart) / 1000, 1),
  );
  // Another hook of the same project with a log deep enough for its pages 1, 5 and 10: one
  // attempt after another, beside the steps that follow.
  const eventsPerPage = Math.min(options.perPage, MAX_EVENTS_PER_PAGE);
  const deepLogs = Math.max(...options.pages) * eventsPerPage + eventsPerPage / 2;
  const deepLogsSeeded = (async () => {
    const since = performance.now();
    const hook = await seedHook(hooksProject, `${HOOK_URL}/deep`);
    await seedHookLogs(hook, deepLogs, { first: 1000 });
    return { hook, seconds: (performance.now() - since) / 1000 };
  })();
  // The projects: once the groups are in (they go round-robin over them), beside the steps that
  // follow, until the table holds `large` rows (DescribeTable, read at most every 5 s) or the
  // deadline. The target from the rows now is an upper bound (the other steps add rows too), so
  // the growing group takes every third project to the end, as at the small size.
  const projectsGrown = (async () => {
    await groupsGrown;
    // Rows per filler project on average (its postings depend on the digits of its name).
    const sample = Array.from({ length: 1000 }, (_, k) => `f${pad(k * 37)}`);
    const fillerRows =
      3 + sample.reduce((sum, name) => sum + postingItems(0, [name, name, '']).length, 0) / sample.length;
    const fillerTarget = Math.max(0, Math.ceil((options.large - (await tableRows())) / fillerRows));
    const growingTarget = Math.round((projectsMade + fillerTarget) / GROWING_EVERY) - growingSmall;
    const namespaces = new Map<number, ReturnType<typeof groupNamespace>>();
    const namespaceOf = (group: Group) => {
      let namespace = namespaces.get(group.id);
      if (!namespace) {
        namespace = groupNamespace(group);
        namespaces.set(group.id, namespace);
      }
      return namespace;
    };
    let filled = 0;
    let fillerItems = 0;
    let growingFilled = 0;
    const base = Date.now();
    const fillerStart = performance.now();
    let rowsSeen = 0;
    let rowsReadAt = Number.NEGATIVE_INFINITY;
    let rowsReading: Promise<void> | undefined;
    const rowsNow = async () => {
      if (performance.now() - rowsReadAt > 5000) {
        rowsReading ??= tableRows().then((rows) => {
          rowsSeen = rows;
          rowsReadAt = performance.now();
          rowsReading = undefined;
        });
        await rowsReading;
      }
      return rowsSeen;
    };
    const fillerWorker = async () => {
      while (filled < fillerTarget && performance.now() < deadline && (await rowsNow()) < options.large) {
        const items: Raw[] = [];
        for (let k = 0; k < PROJECTS_PER_BATCH && filled < fillerTarget; k++) {
          const index = filled++;
          const group = groupFor(index, others, growingFilled < growingTarget);
          if (group === growing) growingFilled++;
          const path = `f${pad(index)}`;
          const at = new Date(base + index).toISOString();
          const project = fillerProject(
            namespaceOf(group),
            { path, visibility: capped(projectVisibility(index), group), id: await nextId('project'), at },
            root.id,
          );
          items.push(...fillerProjectItems(project));
        }
        counters.addItems(items);
        fillerItems += items.length;
        if (items.length) await batchWriteItems(items);
      }
    };
    await Promise.all(Array.from({ length: FILLER_CONCURRENCY }, fillerWorker));
    return { filled, fillerItems, fillerSeconds: (performance.now() - fillerStart) / 1000, growingFilled };
  })();
  // Awaited below; a failure meanwhile must not end the process as an unhandled rejection.
  for (const running of [groupsGrown, deepLogsSeeded, projectsGrown]) running.catch(() => undefined);

  // Labels, milestones, awards and discussions grow around the listed ones (see the header):
  // small tasks, EXTRAS_CONCURRENCY at a time, the deep issue's (the longest) first; before the
  // notes' filler, so the newest note of another issue is still a BatchWrite one (sanity below).
  const extrasLargeStart = performance.now();
  const deepDiscussions = Math.max(...options.pages) * options.perPage + options.perPage / 2;
  const deepDiscussed = await seedIssue(notesProject, 'an issue with many discussions', root.id);
  const otherProjects = fixedProjects.slice(0, OTHER_OWNERS);
  const otherGroups = others.slice(0, OTHER_OWNERS);
  const deepChunk = Math.ceil(deepDiscussions / DEEP_CHUNKS);
  const subscriberChunk = Math.ceil(OTHER_LABEL_SUBSCRIBERS / DEEP_CHUNKS);
  const tasks: (() => Promise<unknown>)[] = [
    ...Array.from(
      { length: DEEP_CHUNKS },
      (_, chunk) => () =>
        seedDiscussions(deepDiscussed, Math.min(deepChunk, deepDiscussions - chunk * deepChunk), {
          authorIds: [notesMember.id, root.id],
          threadEvery: DEEP_THREAD_EVERY,
          replies: 1,
          first: 4000 + chunk * deepChunk,
        }),
    ),
    // Other users' subscriptions in the listed project's and group's partitions.
    ...Array.from({ length: DEEP_CHUNKS }, (_, chunk) => async () => {
      const from = chunk * subscriberChunk;
      for (let i = from; i < Math.min(from + subscriberChunk, OTHER_LABEL_SUBSCRIBERS); i++) {
        await subscribeToLabel(targetLabel, 1_000_000 + i);
        await subscribeToLabel(targetGroupLabel, 1_000_000 + i);
      }
    }),
    // Awards on the listed issue's other notes, in its partition.
    ...discussedNotes
      .slice(1, 1 + AWARDED_OTHER_NOTES)
      .map(
        (note) => () =>
          seedAwards(discussed, { userIds: awarders, names: AWARD_NAMES_ON_OTHERS, noteId: note.id }),
      ),
    ...[
      ...otherProjects.map((project) => ({ kind: 'project' as const, id: project.id })),
      ...otherGroups.map((group) => ({ kind: 'group' as const, id: group.id })),
    ].map((owner) => async () => {
      await seedLabels(owner, PER_OTHER_OWNER, 'other');
      await seedMilestones(owner, PER_OTHER_OWNER, 'other');
    }),
    ...otherIssues.map((issue) => async () => {
      await seedDiscussions(issue, THREADS_PER_OTHER_ISSUE, {
        authorIds: [root.id, notesMember.id],
        threadEvery: 1,
        replies: THREAD_REPLIES,
        first: 3000,
      });
      await seedAwards(issue, { userIds: [root.id], names: AWARD_NAMES_ON_OTHERS });
    }),
  ];
  let nextTask = 0;
  const extrasWorker = async () => {
    for (let task = tasks[nextTask++]; task; task = tasks[nextTask++]) await task();
  };
  await Promise.all(Array.from({ length: EXTRAS_CONCURRENCY }, extrasWorker));
  const extrasGrown = [
    `${OTHER_LABEL_SUBSCRIBERS} other users' subscriptions to a label of the listed project and of its group (subscribeToLabel)`,
    `${awarders.length * AWARD_NAMES_ON_OTHERS.length * AWARDED_OTHER_NOTES} awards on ${AWARDED_OTHER_NOTES} other notes of the listed issue`,
    `${PER_OTHER_OWNER} labels and ${PER_OTHER_OWNER} milestones in each of ${otherProjects.length} other projects and ${otherGroups.length} other groups`,
    `${THREADS_PER_OTHER_ISSUE} threads with ${THREAD_REPLIES} replies and ${AWARD_NAMES_ON_OTHERS.length} awards on each of the project's ${otherIssues.length} other issues`,
    `an issue with ${deepDiscussions} discussions (every ${DEEP_THREAD_EVERY}th a thread with a reply)`,
  ];
  const extrasLargeSeconds = (performance.now() - extrasLargeStart) / 1000;
  phaseDone('labels, milestones, awards, discussions grown');
  // The notes on the project's other issues grow to OTHER_NOTES_LARGE: an issue whose own pages
  // are measured, through createNoteBy, and the rest by BatchWriteItem, round-robin over the
  // other issues, newer than the listed issue's notes; each issue's counters moved once after.
  const deepNotes = Math.max(...options.pages) * options.perPage + options.perPage / 2;
  const deep = await seedIssue(notesProject, 'an issue with many notes', root.id);
  await seedIssueNotes(deep, deepNotes, { authorIds: [notesMember.id, root.id], first: 2000 });
  phaseDone('deep issue notes (createNoteBy)');
  const notesFillerTarget = Math.max(0, OTHER_NOTES_LARGE - OTHER_NOTES_SMALL - deepNotes);
  const notesFillerStart = performance.now();
  const notesBase = Date.now();
  const perIssue = new Map<number, number>();
  let notesFilled = 0;
  // Ids and times rise with the index, as one createNoteBy after another would give them; the
  // batches go newest first, so the stream's note-touches moves each issue's updated time once
  // (to its newest note) and the older notes' touches are refused by its condition, as they would
  // be refused had they come late: the same end state without ten thousand issue rewrites.
  const noteItems: Raw[] = [];
  for (let index = 0; index < notesFillerTarget; index++) {
    const issue = otherIssues[index % OTHER_ISSUES] as StoredIssue;
    const at = new Date(notesBase + index).toISOString();
    const note: Note = {
      ...newNote(issueAsParent(issue), {
        body: noteBody(10_000 + index),
        author_id: index % 2 ? root.id : notesMember.id,
      }),
      id: await nextId('note'),
      created_at: at,
      updated_at: at,
    };
    noteItems.push(noteItem(keys.issue(P, issue.iid).pk, note));
    perIssue.set(issue.iid, (perIssue.get(issue.iid) ?? 0) + 1);
  }
  let notesLeft = noteItems.length;
  const noteFillerWorker = async () => {
    while (notesLeft > 0) {
      const items = noteItems.slice(Math.max(0, notesLeft - NOTES_PER_BATCH), notesLeft);
      notesLeft -= items.length;
      notesFilled += items.length;
      await batchWriteItems(items);
    }
  };
  await Promise.all(Array.from({ length: FILLER_CONCURRENCY }, noteFillerWorker));
  await commit(
    otherIssues
      .filter((issue) => perIssue.has(issue.iid))
      .map((issue) => countedOnIssue(issue, perIssue.get(issue.iid) ?? 0)),
  );
  const notesFillerSeconds = (performance.now() - notesFillerStart) / 1000;
  phaseDone('notes filler (BatchWriteItem)');
  const groupsSeconds = await groupsGrown;
  const { hook: deepHook, seconds: deepLogsSeconds } = await deepLogsSeeded;
  hookLogSeconds += deepLogsSeconds;
  const { filled, fillerItems, fillerSeconds, growingFilled } = await projectsGrown;
  delete process.env.ID_BLOCK_SIZE;
  phaseDone(
    `waiting for what ran beside: groups ${groupsSeconds} s, deep hook log ${round(deepLogsSeconds, 1)} s, projects ${round(fillerSeconds, 1)} s`,
  );
  // The list counters createGroup, createProject and the search worker would have moved, with the
  // same change they put in their writes.
  await counters.commit();
  projectsMade += filled;
  phaseDone('list counters of the fillers');

  const large: SizeResult = {
    rows: await tableRows(),
    projects: projectsMade,
    groups: 3 + others.length,
    growingGroupProjects: growingSmall + growingFilled,
    seedSeconds: round((performance.now() - largeStart) / 1000, 1),
    measurements: {},
  };

  // Sanity: a filler project reads back through the API; the growing group's total is right.
  const sanity: string[] = [];
  const probe = await fetch(
    `${bench.runtime.apiUrl}/projects/${encodeURIComponent(`grp-grows/f${pad(0)}`)}`,
    {
      headers: { 'PRIVATE-TOKEN': bench.runtime.rootToken },
    },
  );
  const probeBody = (await probe.json()) as { path_with_namespace?: string };
  sanity.push(
    `GET /projects/grp-grows%2Ff${pad(0)} (a BatchWrite project, by path) → ${probe.status} ${probeBody.path_with_namespace ?? ''}`,
  );
  // Sanity: the other issues' notes read back through the API with the counts moved.
  const notesSanity: string[] = [];
  const firstOther = otherIssues[0] as StoredIssue;
  const otherList = await fetch(
    `${bench.runtime.apiUrl}/projects/${P}/issues/${firstOther.iid}/notes?per_page=1`,
    {
      headers: { 'PRIVATE-TOKEN': bench.runtime.rootToken },
    },
  );
  const [newest] = (await otherList.json()) as { id?: number; body?: string }[];
  const fillerRead = await fetch(
    `${bench.runtime.apiUrl}/projects/${P}/issues/${firstOther.iid}/notes/${newest?.id ?? 0}`,
    { headers: { 'PRIVATE-TOKEN': NOTES_MEMBER_TOKEN } },
  );
  notesSanity.push(
    `GET …/issues/${firstOther.iid}/notes → ${otherList.status}, X-Total ${otherList.headers.get('x-total')} for ${(perIssue.get(firstOther.iid) ?? 0) + OTHER_NOTES_SMALL / OTHER_ISSUES + THREADS_PER_OTHER_ISSUE * (1 + THREAD_REPLIES)} notes seeded; its newest (a BatchWrite note) by id as the notes' user → ${fillerRead.status}`,
  );
  large.measurements = await measureAll();
  phaseDone('large size measured');
  const targetTotals = (['small', 'large'] as const).map(
    (size) => (size === 'small' ? small : large).measurements['notes-admin']?.total,
  );
  notesSanity.push(`listed issue: X-Total ${targetTotals.join(' → ')} for ${NOTES_ON_TARGET} notes`);
  const pageScenarios: ListScenario[] = [
    // Its skip reads the issue's notes list (one note per discussion) on the index the page reads.
    ...(['user', 'admin'] as const).map((who) => ({
      key: `discussions-deep-${who}`,
      label: `GET /projects/:id/issues/:iid/discussions (${deepDiscussions} discussions)`,
      who,
      verdict: true,
      token: who === 'user' ? NOTES_MEMBER_TOKEN : undefined,
      path: `/projects/${P}/issues/${deepDiscussed.iid}/discussions?per_page=${options.perPage}`,
      skip: {
        order: 'created_at',
        sort: 'asc',
        lists: [lists.notesOf(keys.issue(P, deepDiscussed.iid).pk)],
      } satisfies SkipSpec,
    })),
    // Its skip reads the issue's notes list on the same global index as the page (readNotesPage).
    ...(['user', 'admin'] as const).map((who) => ({
      key: `notes-deep-${who}`,
      label: `GET /projects/:id/issues/:iid/notes (${deepNotes} notes)`,
      who,
      verdict: true,
      token: who === 'user' ? NOTES_MEMBER_TOKEN : undefined,
      path: `/projects/${P}/issues/${deep.iid}/notes?per_page=${options.perPage}`,
      skip: {
        order: 'created_at',
        sort: 'desc',
        lists: [lists.notesOf(keys.issue(P, deep.iid).pk)],
      } satisfies SkipSpec,
    })),
    // Its skip reads the hook's day partitions newest first, consistently as the events list reads
    // them (listHookLogs); only comparable while a page of events is a page of keys (per_page ≤ 20).
    ...(options.perPage <= MAX_EVENTS_PER_PAGE
      ? [
          {
            key: 'hook-events-deep-admin',
            label: `GET /projects/:id/hooks/:hook_id/events (${deepLogs} attempts)`,
            who: 'admin' as const,
            verdict: true,
            path: `/projects/${hooksProject.id}/hooks/${deepHook.id}/events?per_page=${options.perPage}`,
            skip: { hookLog: deepHook.id, since: deepHook.created_at } satisfies SkipSpec,
          },
        ]
      : []),
  ];
  const eventsTarget = large.measurements['hook-events-admin'];
  const hookLogSanity = [
    `listed hook's events page 1: ${small.measurements['hook-events-admin']?.returned} → ${eventsTarget?.returned} of ${HOOK_LOGS_ON_TARGET} attempts returned (statuses ${small.measurements['hook-events-admin']?.status}/${eventsTarget?.status})`,
  ];
  const growingAdmin = large.measurements['growing-admin'];
  sanity.push(
    `growing group: X-Total ${growingAdmin?.total} for ${large.growingGroupProjects} projects seeded (admin view)`,
  );

  const pages: PageResult[] = [];
  await quiet();
  for (const scenario of [...scenarios, ...pageScenarios].filter((s) => s.skip)) {
    for (const page of options.pages) {
      const m =
        page === 1
          ? (large.measurements[scenario.key] ??
            (await measure(bench, scenario.path, scenario.token ?? tokens[scenario.who])))
          : await measure(bench, `${scenario.path}&page=${page}`, scenario.token ?? tokens[scenario.who]);
      const skip = await skipCost(bench, scenario.skip as SkipSpec, (page - 1) * options.perPage);
      pages.push({
        key: scenario.key,
        page,
        rcu: m?.rcu ?? Number.NaN,
        itemsRead: m?.itemsRead ?? Number.NaN,
        skipRcu: skip.rcu,
        skipItems: skip.items,
      });
    }
  }

  phaseDone('pages measured');
  const keyset: KeysetResult[] = [];
  for (const who of ['anon', 'admin'] as const) {
    const path = `/projects?pagination=keyset&order_by=id&sort=asc`;
    // A list shorter than a walking page and a measured one is walked again a measured page at a time.
    const walked =
      (await deepestCursor(path, tokens[who], WALK_PER_PAGE)) ??
      (await deepestCursor(path, tokens[who], options.perPage));
    if (!walked) throw new Error(`B5 keyset walk: GET ${path} as ${who} holds a page or less`);
    const paged = `${path}&per_page=${options.perPage}`;
    keyset.push({
      key: `keyset-projects-${who}`,
      label: 'GET /projects?pagination=keyset&order_by=id&sort=asc',
      who,
      listed: walked.listed,
      before: walked.before,
      first: await measure(bench, paged, tokens[who]),
      deep: await measure(bench, `${paged}&cursor=${encodeURIComponent(walked.cursor)}`, tokens[who]),
      walkSeconds: walked.seconds,
      walkPerPage: walked.walkPerPage,
    });
  }
  phaseDone('keyset pages measured');
  const result: B5ChildResult = {
    options,
    scenarios,
    pageScenarios,
    notes: {
      onTarget: NOTES_ON_TARGET,
      otherIssues: OTHER_ISSUES + 1,
      otherSmall: OTHER_NOTES_SMALL,
      otherLarge: OTHER_NOTES_SMALL + deepNotes + notesFilled,
      deep: deepNotes,
      filler: notesFilled,
      fillerSeconds: round(notesFillerSeconds, 1),
      layoutChecked: noteLayoutChecked,
      sanity: notesSanity,
    },
    extras: {
      labels: LABELS_ON_TARGET,
      milestones: MILESTONES_ON_TARGET,
      discussions: DISCUSSIONS_ON_TARGET,
      awards: awarders.length * AWARD_NAMES_ON_TARGET.length,
      grown: extrasGrown,
      smallSeconds: round(extrasSmallSeconds, 1),
      largeSeconds: round(extrasLargeSeconds, 1),
      deepDiscussions,
    },
    hookLogs: {
      onTarget: HOOK_LOGS_ON_TARGET,
      deep: deepLogs,
      seconds: round(hookLogSeconds, 1),
      sanity: hookLogSanity,
    },
    small,
    large,
    reachedLarge: large.rows >= options.large,
    fillerProjects: filled,
    fillerRowsPerSecond: round(fillerItems / fillerSeconds, 0),
    groupFiller: {
      byStore: storeGroups.length,
      byBatchWrite: groupsFilled - storeGroups.length,
      seconds: groupsSeconds,
      layoutChecked: groupLayoutChecked,
    },
    layoutChecked,
    sanity,
    pages,
    keyset,
    streamWaits,
    phases,
    commandCounts: bench.commandCounts(),
    seconds: round((performance.now() - processStart) / 1000, 1),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  describeClient?.destroy();
  await bench.stop();
}
