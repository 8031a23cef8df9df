/**
 * Issues. An issue heads its own partition (`ISSUE#<project>#<iid>`), where its notes live too; it
 * joins its project's list of issues (`l1`) and the list of its state (`l2`). Its iid comes from
 * the project's iid counter item by one atomic add (store/table/ids.ts), so iids are unique and, but for
 * a crash between the add and the write, gapless however many are created at once; the open list's
 * total is the project's `open_issues_count` (store/table/counters.ts), moved in the same transactions as
 * each opening, closing and removal.
 */

import { notFound, validationFailed } from '#domain/errors.ts';
import { stateFields } from '#domain/issuables.ts';
import {
  filtersIssues,
  type Issue,
  type IssueFilter,
  issueMatches,
  issueUserIds,
  type NewIssue,
} from '#domain/issues.ts';
import { projectMilestoneOwners } from '#domain/milestones.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import type { UserAgentDetail } from '#domain/user-agent-details.ts';
import type { User } from '#domain/users.ts';
import { nextId, withNextIid } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { type ListPage, type ListQuery, listCountChange, listCountKeys, queryList } from '../table/lists.ts';
import { longText, removeDropped } from '../table/long-text.ts';
import type { Raw } from '../table/raw.ts';
import type { ListOrder } from '../table/table.ts';
import { commit, NEW_ITEM, put, refusedWith } from '../table/transaction.ts';
import { getUsers, usersFrom } from '../users/users.ts';
import {
  changeState,
  changeSteps,
  type IssuableKind,
  removeIssuable,
  STILL_AS_READ,
  stateGuard,
} from './issuables.ts';
import { readMilestonesById } from './milestones.ts';
import { decodeNoteParent } from './notes.ts';

/**
 * An issue as stored, with the count of all its notes (system ones too) for the notes list, and
 * the client of the request that created it (none for issues created before it was recorded).
 */
export interface StoredIssue extends Issue {
  notes_count: number;
  user_agent_detail?: UserAgentDetail;
}

/**
 * Descriptions up to this many bytes are stored as they are, longer ones gzipped (a description
 * of 1,000,000 characters may be 4 MB; an item holds 400 KB in all: see checkFits).
 */
const DESCRIPTION = longText({
  plain: 'description',
  gzipped: 'description_gz',
  inlineBytes: 100_000,
});

export const decodeIssue = (item: Raw) => decodeNoteParent<StoredIssue>(DESCRIPTION.decodeInline(item));

function issueItem(issue: StoredIssue): Raw {
  const { description, ...fields } = issue;
  const key = keys.issue(issue.project_id, issue.iid);
  return {
    ...key,
    ...fields,
    ...DESCRIPTION.store(key, description).fields,
    kind: 'issue',
    ...inLists(
      lists.projectIssues(issue.project_id),
      lists.projectIssuesInState(issue.project_id, issue.state),
    ),
    ...sortAttributes({ id: issue.id, created_at: issue.created_at, updated_at: issue.updated_at }),
  };
}

/** DynamoDB's size of a value (names and values in UTF-8, numbers at most 21 bytes, containers 3 more). */
function storedSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.length;
  if (typeof value === 'number') return 21;
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, entry) => sum + 1 + storedSize(entry), 0);
  if (value !== null && typeof value === 'object')
    return (
      3 +
      Object.entries(value).reduce(
        (sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + storedSize(entry),
        0,
      )
    );
  return 1;
}

/** Room an issue item may take (an item holds 400 KB; the margin covers the counters that grow). */
const MAX_ISSUE_ITEM_BYTES = 380_000;

/** The attributes of an issue that can grow, by the name GitLab reports them under. */
const GROWING = {
  description_gz: 'description',
  description: 'description',
  labels: 'labels',
  assignee_ids: 'assignees',
};

/**
 * Refuses an issue whose item would not fit (a long, incompressible description, thousands of
 * labels or assignees): `{"message": {"<field>": ["is too long"]}}` for the largest of them.
 */
function checkFits(issue: StoredIssue): void {
  const item = issueItem(issue);
  if (storedSize(item) <= MAX_ISSUE_ITEM_BYTES) return;
  const [largest] = Object.entries(GROWING)
    .map(([attribute, field]) => ({ field, size: storedSize(item[attribute]) }))
    .sort((a, b) => b.size - a.size);
  throw validationFailed({ [largest?.field ?? 'base']: ['is too long'] });
}

/** The parent a note on this issue records. */
export const issueAsParent = (issue: Issue): NoteParent => ({
  type: 'Issue',
  id: issue.id,
  iid: issue.iid,
  project_id: issue.project_id,
});

/** A project's issue by iid, or undefined. */
export async function readIssue(projectId: number, iid: number): Promise<StoredIssue | undefined> {
  const item = await getItem(keys.issue(projectId, iid));
  return item && item.kind === 'issue' && !item.deleting ? decodeIssue(item) : undefined;
}

// Creating ------------------------------------------------------------------------------------------

/**
 * Creates an issue with the project's next iid (taken alone, see withNextIid); it counts in its
 * lists, the open ones being the project's open_issues_count, whose shard refuses it once the
 * project is marked deleted. The creating request's client is kept on the item.
 */
export async function createIssue(
  project: Project,
  fields: NewIssue,
  createdAt?: string,
  client?: UserAgentDetail,
): Promise<StoredIssue> {
  const draft: StoredIssue = {
    ...fields,
    id: 0,
    iid: 0,
    created_at: '',
    updated_at: '',
    notes_count: 0,
    ...(client && { user_agent_detail: client }),
  };
  // Refused before an iid is taken: a refusal costs no iid.
  checkFits(draft);
  return withNextIid(keys.projectIids(project.id), 'issue', async (iid) => {
    // Id and time are taken after the iid, so creations in one process list in iid order.
    const id = await nextId('issue');
    const now = createdAt ?? new Date().toISOString();
    const issue: StoredIssue = { ...draft, id, iid, created_at: now, updated_at: now };
    await commit([
      put(issueItem(issue), NEW_ITEM),
      listCountChange(lists.projectIssues(project.id), 1),
      // The open list's total is a counter of the project, refused once it is marked deleted.
      refusedWith(listCountChange(lists.projectIssuesInState(project.id, 'opened'), 1), notFound('Project')),
    ]);
    return issue;
  });
}

// Listing ---------------------------------------------------------------------------------------

export interface IssueListQuery {
  filter: IssueFilter;
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
  /**
   * Confidential issues the reader may not see are left out: all of them for an anonymous reader,
   * else all but their own (authored or assigned).
   */
  hidesConfidentialFrom?: number | 'anonymous';
  /** Handed the page before its counters are read (see ListQuery). */
  onPage?: (issues: StoredIssue[]) => void;
  /** The list's counter shards read ahead (`issueListCountKeys`), among other items. */
  countRead?: Raw[];
  /** What the page shows besides, read with its counters (see ListQuery). */
  besidePage?: ListQuery<StoredIssue, ListOrder>['besidePage'];
}

/** The list of a project's issues in a state (all of them without one). */
const issueList = (projectId: number, state: string | undefined) =>
  state === 'opened' || state === 'closed'
    ? lists.projectIssuesInState(projectId, state)
    : lists.projectIssues(projectId);

/** The keys holding the total of a project's issues in a state, to read with the project. */
export const issueListCountKeys = (projectId: number, state: string | undefined) =>
  listCountKeys(issueList(projectId, state));

/** A page of a project's issues: the list of the asked state, filtered as asked. */
export function listIssues(projectId: number, query: IssueListQuery): Promise<ListPage<StoredIssue>> {
  const list = issueList(projectId, query.filter.state);
  const viewer = query.hidesConfidentialFrom;
  const hides = viewer !== undefined;
  const filter =
    filtersIssues(query.filter) || hides
      ? (issue: StoredIssue) =>
          issueMatches(issue, query.filter) &&
          (!hides ||
            !issue.confidential ||
            (viewer !== 'anonymous' && (issue.author_id === viewer || issue.assignee_ids.includes(viewer))))
      : undefined;
  return queryList({
    list,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeIssue,
    filter,
    onPage: query.onPage,
    countRead: query.countRead,
    besidePage: query.besidePage,
  });
}

// Changing ----------------------------------------------------------------------------------------

/** Whether a change may make the item grow past what it holds. */
const grows = (changes: Partial<Issue>) =>
  changes.description !== undefined || changes.labels !== undefined || changes.assignee_ids !== undefined;

/**
 * A change is written only over an older updated time, so changes (and the system notes of state
 * changes) are stamped in the order they commit: one that lost the race is decided again, later.
 */
const CHANGE_CONDITION = `${STILL_AS_READ} AND #updated < :now`;

/** Now, or just after the issue's updated time when that is later (a clock behind, a future date). */
function changeTime(issue: StoredIssue): string {
  const now = Date.now();
  const last = Date.parse(issue.updated_at);
  return new Date(Number.isNaN(last) || now > last ? now : last + 1).toISOString();
}

/** What the shared change and removal writes need of an issue. */
const ISSUE: IssuableKind<StoredIssue> = {
  key: (issue) => keys.issue(issue.project_id, issue.iid),
  read: (issue) => readIssue(issue.project_id, issue.iid),
  all: (issue) => lists.projectIssues(issue.project_id),
  inState: (issue, state) => lists.projectIssuesInState(issue.project_id, state),
  asParent: (issue) => issueAsParent(issue),
};

/**
 * Changes an issue: the fields sent and, on `close` or `reopen`, its state with a system note
 * ("closed", "reopened"), its move between the state lists and open_issues_count, all in one
 * transaction on the condition that the issue is still in the state read. A close racing a
 * reopen is decided again on the state the winner left.
 */
export function changeIssue(
  issue: StoredIssue,
  changes: Partial<Issue>,
  event: 'close' | 'reopen' | undefined,
  actorId: number,
): Promise<StoredIssue> {
  return changeState(ISSUE, issue, event, async (current, nextState) => {
    const now = changeTime(current);
    // Who changed it last: the actor of the change's webhook event (see store/hooks/hook-changes.ts).
    const all: Partial<Issue> = {
      ...changes,
      ...(nextState && stateFields(nextState, now, actorId)),
      updated_by_id: actorId,
    };
    if (grows(changes)) checkFits({ ...current, ...all, updated_at: now });
    const key = ISSUE.key(current);
    // A description is written in its stored form, the other form removed.
    const { description, ...rest } = all;
    const stored = description === undefined ? undefined : DESCRIPTION.store(key, description);
    const names: Record<string, string> = { '#state': 'state', '#updated': 'updated_at' };
    const { update: write, moves } = await changeSteps(ISSUE, current, {
      now,
      fields: { ...rest, ...stored?.fields },
      condition: CHANGE_CONDITION,
      names,
      values: { ':previous': current.state, ':now': now },
      removing: removeDropped(stored, names),
      next: nextState,
      actorId,
    });
    if (nextState === undefined) {
      await commit([write]);
      return { ...current, ...all, updated_at: now };
    }
    // The moves count the issue off one state list and onto the other: the open list's total is
    // the project's open_issues_count.
    await commit([write, ...moves]);
    return { ...current, ...all, updated_at: now, notes_count: current.notes_count + 1 };
  });
}

/**
 * Removes an issue, counted off its lists (when open, off open_issues_count) in the same
 * transaction, then its notes.
 */
export const deleteIssue = (issue: StoredIssue): Promise<void> => removeIssuable(ISSUE, issue, stateGuard);

/** The users an issue shows, by id. */
export const issueUsers = (issue: Issue) => getUsers(issueUserIds(issue));

/**
 * A page of a project's issues with the users and milestones they show: the users read in one
 * batch with the page's counters, the milestones after.
 */
export async function listIssuesWithUsers(project: Project, query: IssueListQuery) {
  let shown = new Map<number, User>();
  const page = await listIssues(project.id, {
    ...query,
    besidePage: {
      keys: (issues) => [...new Set(issues.flatMap(issueUserIds))].map((id) => keys.user(id)),
      found: (items) => {
        shown = usersFrom(items);
      },
    },
  });
  const milestones = await readMilestonesById(
    projectMilestoneOwners(project, true),
    page.items.map((issue) => issue.milestone_id),
  );
  return { ...page, users: shown, milestones };
}

/**
 * The users a page of issues shows, read as soon as the page is known (beside its counters):
 * `onPage` starts the read, `users` awaits it (or reads them then, for a page never handed over).
 */
export function usersOfPage() {
  let started: Promise<Map<number, User>> | undefined;
  const read = (issues: Issue[]) => getUsers([...new Set(issues.flatMap(issueUserIds))]);
  return {
    onPage: (issues: Issue[]) => {
      started = read(issues);
      started.catch(() => undefined);
    },
    users: (issues: Issue[]) => started ?? read(issues),
  };
}
