/**
 * Merge requests. A merge request heads its own partition (`MR#<project>#<iid>`), where its notes
 * live too; it joins its project's list of merge requests (`l1`) and the list of its state (`l2`).
 * Its iid comes from the project's iid counter item by one atomic add (store/table/ids.ts), so iids are
 * unique and, but for a crash between the add and the write, gapless however many are created at once.
 *
 * GitLab lets one open merge request exist per source and target branch of a project: an open
 * merge request holds an item in its project's partition named after its two branches, taken and
 * released in the same transactions as it opens, closes, retargets and goes, so a second one is
 * refused by the database ("Another open merge request already exists ...").
 *
 * A description longer than an item comfortably holds (1,000,000 characters may be 4 MB) is stored
 * gzipped, and when even that is too long, in parts in the merge request's partition, written
 * before the item that names them (see long-text.ts); a change of description is made on the
 * condition that the item still names the parts read, which then go.
 */

import { notFound } from '#domain/errors.ts';
import { stateFields } from '#domain/issuables.ts';
import {
  branchesTaken,
  filtersMergeRequests,
  type MergeRequest,
  type MergeRequestFilter,
  mergeRequestMatches,
  mergeRequestUserIds,
  type NewMergeRequest,
} from '#domain/merge-requests.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { nextId, withNextIid } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { inLists, keys, lists, sortAttributes } from '../table/keys.ts';
import { type ListPage, listCountChange, queryList } from '../table/lists.ts';
import { longText, removeDropped, type StoredText } from '../table/long-text.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  retrying,
  type Step,
  type TransactItem,
} from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import {
  changeState,
  changeSteps,
  type Guard,
  type IssuableKind,
  removeIssuable,
  STILL_AS_READ,
} from './issuables.ts';
import { decodeNoteParent } from './notes.ts';

/** A merge request as stored, with the count of all its notes (system ones too) for the notes list. */
export interface StoredMergeRequest extends MergeRequest {
  notes_count: number;
  /** Where a long description's parts are (see long-text.ts). */
  description_parts?: { generation: string; count: number };
}

/**
 * Descriptions up to this many bytes (plain or gzipped) are stored in the item: an item holds
 * 400 KB in all, and its other fields (255-character strings, at most 100 labels and assignees)
 * take up to 110 KB.
 */
const DESCRIPTION = longText({
  plain: 'description',
  gzipped: 'description_gz',
  inlineBytes: 200_000,
  parts: {
    attribute: 'description_parts',
    versionBytes: 4,
    kind: 'description_part',
    key: keys.mergeRequestDescriptionPart,
  },
});

const keyOf = (mr: MergeRequest) => keys.mergeRequest(mr.project_id, mr.iid);

/** A merge request as an item stores it; its description when the item holds it. */
const decodeItem = (item: Raw) => decodeNoteParent<StoredMergeRequest>(DESCRIPTION.decodeInline(item));

/** The merge request's item read again, its description as the item holds it (undefined when gone). */
async function readItem(projectId: number, iid: number): Promise<StoredMergeRequest | undefined> {
  const item = await getItem(keys.mergeRequest(projectId, iid));
  return item?.kind === 'merge_request' && !item.deleting ? decodeItem(item) : undefined;
}

/**
 * Merge requests from their items, long descriptions put together from their parts (one batch).
 * Until then such a description reads as null (a search does not see into it).
 */
const decodeAll = (items: StoredMergeRequest[]): Promise<StoredMergeRequest[]> =>
  DESCRIPTION.read(items, {
    key: keyOf,
    reread: (mr) => readItem(mr.project_id, mr.iid),
    decode: (mr, text) => ({ ...mr, description: text }),
  });

/** Merge requests from raw items (a stream's images, say), long descriptions put together. */
export const decodeMergeRequestItems = (items: Raw[]) => decodeAll(items.map(decodeItem));
/** A merge request from a raw item, its description only when the item holds it (else null). */
export const decodeMergeRequestItemInline = decodeItem;

function mergeRequestItem(mr: StoredMergeRequest, description: StoredText): Raw {
  const { description: _text, description_parts: _parts, ...fields } = mr;
  return {
    ...keyOf(mr),
    ...fields,
    ...description.fields,
    kind: 'merge_request',
    ...inLists(
      lists.projectMergeRequests(mr.project_id),
      lists.projectMergeRequestsInState(mr.project_id, mr.state),
    ),
    ...sortAttributes({ id: mr.id, created_at: mr.created_at, updated_at: mr.updated_at }),
  };
}

/** The parent a note on this merge request records. */
export const mergeRequestAsParent = (mr: MergeRequest): NoteParent => ({
  type: 'MergeRequest',
  id: mr.id,
  iid: mr.iid,
  project_id: mr.project_id,
});

/** A project's merge request by iid, or undefined. */
export async function readMergeRequest(
  projectId: number,
  iid: number,
): Promise<StoredMergeRequest | undefined> {
  const mr = await readItem(projectId, iid);
  const [read] = mr ? await decodeAll([mr]) : [];
  return read;
}

// The open merge request of two branches ---------------------------------------------------------------

const openBranchesItem = (mr: MergeRequest, target: string): Raw => ({
  ...keys.openMergeRequestBranches(mr.project_id, mr.source_branch, target),
  kind: 'merge_request_branches',
  iid: mr.iid,
  source_branch: mr.source_branch,
  target_branch: target,
});

/**
 * A number of an item a refused transaction returned: those come as DynamoDB writes them
 * (`{N: "7"}`), not as the document client reads them.
 */
const returnedNumber = (value: unknown) =>
  Number(typeof value === 'object' && value !== null && 'N' in value ? (value as { N: string }).N : value);

/** Takes the branches for an open merge request; `refusal` says what another's hold means. */
const takeBranches = (mr: MergeRequest, target: string, refusal: (holder: number) => Error): Step =>
  refusedReading(put(openBranchesItem(mr, target), NEW_ITEM), (stored) =>
    stored ? refusal(returnedNumber(stored.iid)) : new BranchesMoved(),
  );

/** Releases the branches a merge request held (only while it is the one holding them). */
const releaseBranches = (mr: MergeRequest, target: string) =>
  remove(
    keys.openMergeRequestBranches(mr.project_id, mr.source_branch, target),
    'attribute_not_exists(pk) OR iid = :iid',
    { ':iid': mr.iid },
  );

/** The branches' item was released between the refusal and its reading: try again. */
class BranchesMoved extends Error {}

// Creating ---------------------------------------------------------------------------------------------

/** Attempts at a change racing others; each loses only to a write that won. */
const ATTEMPTS = 200;

/**
 * Creates a merge request with the project's next iid, its assignees those of the named users who
 * exist (GitLab drops an assignee it cannot find); 409 when an open merge request has its branches.
 * Returns it with the users it shows.
 */
export async function createMergeRequest(
  project: Project,
  fields: NewMergeRequest,
): Promise<{ mergeRequest: StoredMergeRequest; users: Map<number, User> }> {
  const [id, users] = await Promise.all([
    nextId('merge_request'),
    getUsers([fields.author_id, ...fields.assignee_ids]),
  ]);
  const assignees = fields.assignee_ids.filter((assignee) => users.has(assignee));
  // The iid is taken once (store/table/ids.ts); only a race on the branches' item is tried again.
  const mergeRequest = await withNextIid(keys.projectIids(project.id), 'merge_request', (iid) =>
    retrying(
      { times: ATTEMPTS, retry: (error) => error instanceof BranchesMoved, backoff: true },
      iid,
      async () => {
        const now = new Date().toISOString();
        const mr: StoredMergeRequest = {
          ...fields,
          assignee_ids: assignees,
          id,
          iid,
          created_at: now,
          updated_at: now,
          notes_count: 0,
        };
        const key = keyOf(mr);
        const description = DESCRIPTION.store(key, mr.description);
        // Parts written under an iid another merge request took are nobody's: they go.
        return DESCRIPTION.replace(key, description, async () => {
          await commit([
            refusedWith(check(keys.project(project.id), LIVE_ITEM), notFound('Project')),
            put(mergeRequestItem(mr, description), NEW_ITEM),
            takeBranches(mr, mr.target_branch, branchesTaken),
            listCountChange(lists.projectMergeRequests(project.id), 1),
            listCountChange(lists.projectMergeRequestsInState(project.id, 'opened'), 1),
          ]);
          return { value: mr };
        });
      },
      async (iid) => iid,
    ),
  );
  return { mergeRequest, users };
}

// Listing ------------------------------------------------------------------------------------------------

export interface MergeRequestListQuery {
  filter: MergeRequestFilter;
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The caller, for the `created_by_me` and `assigned_to_me` scopes. */
  viewerId: number;
}

/**
 * A page of a project's merge requests with the users they show: the list of the asked state
 * (all of them by default, as GitLab), filtered as asked.
 */
export async function listMergeRequests(
  projectId: number,
  query: MergeRequestListQuery,
): Promise<ListPage<StoredMergeRequest> & { users: Map<number, User> }> {
  const state = query.filter.state;
  const list =
    state === undefined || state === 'all'
      ? lists.projectMergeRequests(projectId)
      : lists.projectMergeRequestsInState(projectId, state);
  const page = await queryList({
    list,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeItem,
    filter: filtersMergeRequests(query.filter)
      ? (mr) => mergeRequestMatches(mr, query.filter, query.viewerId)
      : undefined,
  });
  const items = await decodeAll(page.items);
  return {
    items,
    total: page.total,
    users: await getUsers([...new Set(items.flatMap(mergeRequestUserIds))]),
  };
}

// Changing ------------------------------------------------------------------------------------------------

/** Reopening found another open merge request on the branches: GitLab leaves this one closed. */
class ReopenRefused extends Error {}

/** The merge request is still there, in the state and with the target it was read with. */
const stillAsRead: Guard<MergeRequest> = {
  condition: `${STILL_AS_READ} AND #target = :previousTarget`,
  names: { '#state': 'state', '#target': 'target_branch' },
  values: (mr) => ({ ':previous': mr.state, ':previousTarget': mr.target_branch }),
};

/** What the shared change and removal writes need of a merge request. */
const MERGE_REQUEST: IssuableKind<StoredMergeRequest> = {
  key: keyOf,
  read: (mr) => readMergeRequest(mr.project_id, mr.iid),
  all: (mr) => lists.projectMergeRequests(mr.project_id),
  inState: (mr, state) => lists.projectMergeRequestsInState(mr.project_id, state),
  asParent: (mr) => mergeRequestAsParent(mr),
};

/**
 * Changes a merge request: the fields sent and, on `close` or `reopen`, its state with a system
 * note ("closed", "reopened") and its move between the state lists, all in one transaction on the
 * condition that it is still in the state and on the target it was read with (a race is decided
 * again on what the winner left). The open merge request's hold on its branches moves with it: a
 * new target another open one holds is refused (409); a reopening refused that way is left
 * undone and the other changes are made, as GitLab does. A new description is stored once, its
 * write made on the condition that the item still names the description parts read.
 */
export function changeMergeRequest(
  mr: StoredMergeRequest,
  changes: Partial<MergeRequest>,
  event: 'close' | 'reopen' | undefined,
  actorId: number,
): Promise<StoredMergeRequest> {
  const key = keyOf(mr);
  const stored = changes.description === undefined ? undefined : DESCRIPTION.store(key, changes.description);
  return DESCRIPTION.replace(key, stored, () =>
    changeState(
      MERGE_REQUEST,
      mr,
      event,
      async (current, next) => {
        // A new description replaces the one read: its parts go.
        const write = async (nextState: 'opened' | 'closed' | undefined) => ({
          value: await writeChange(current, changes, stored, nextState, actorId),
          ...(stored ? { replaced: current } : {}),
        });
        try {
          return await write(next);
        } catch (error) {
          if (!(error instanceof ReopenRefused)) throw error;
          return write(undefined);
        }
      },
      (error) => error instanceof BranchesMoved,
    ),
  );
}

async function writeChange(
  mr: StoredMergeRequest,
  changes: Partial<MergeRequest>,
  stored: StoredText | undefined,
  nextState: 'opened' | 'closed' | undefined,
  actorId: number,
): Promise<StoredMergeRequest> {
  const now = new Date().toISOString();
  const all: Partial<MergeRequest> = {
    ...changes,
    ...(nextState && stateFields(nextState, now, actorId)),
  };
  // Nothing to change (closing a closed one, say): GitLab saves nothing, so nothing moves.
  if (Object.keys(all).length === 0) return mr;
  // Who changed it last: the actor of the change's webhook event (see store/hooks/hook-changes.ts).
  all.updated_by_id = actorId;
  const changed: StoredMergeRequest = { ...mr, ...all, updated_at: now };

  // SET the changed fields (a description in the form its length asks for) and REMOVE the forms
  // of a description no longer used; a new description replaces the one read, or is decided again.
  const { description: _description, ...others } = all;
  const names: Record<string, string> = { ...stillAsRead.names };
  const values: Raw = stillAsRead.values(mr);
  let condition = stillAsRead.condition;
  if (stored) {
    const unchanged = DESCRIPTION.unchanged(mr);
    condition += ` AND ${unchanged.condition}`;
    Object.assign(names, unchanged.names);
    Object.assign(values, unchanged.values);
  }

  // The hold on the branches: released when it stops being open or changes target, taken when it
  // reopens or changes target while open.
  const wasOpen = mr.state === 'opened';
  const isOpen = changed.state === 'opened';
  const retargeted = changed.target_branch !== mr.target_branch;
  const branches: (Step | TransactItem)[] = [];
  if (wasOpen && (!isOpen || retargeted)) branches.push(releaseBranches(mr, mr.target_branch));
  if (isOpen && (!wasOpen || retargeted))
    branches.push(
      takeBranches(changed, changed.target_branch, wasOpen ? branchesTaken : () => new ReopenRefused()),
    );

  const { update: write, moves } = await changeSteps(MERGE_REQUEST, mr, {
    now,
    fields: { ...others, ...stored?.fields },
    condition,
    names,
    values,
    removing: removeDropped(stored, names),
    next: nextState,
    actorId,
  });
  await commit([write, ...branches, ...moves]);
  return {
    ...(stored ? DESCRIPTION.withStored(changed, stored) : changed),
    notes_count: mr.notes_count + (moves.length ? 1 : 0),
  };
}

// Removing -------------------------------------------------------------------------------------------------

/**
 * Removes a merge request, counted off its lists and releasing its branches (when open) in the
 * same transaction, then its notes and description parts.
 */
export function deleteMergeRequest(mr: StoredMergeRequest): Promise<void> {
  return removeIssuable(MERGE_REQUEST, mr, stillAsRead, (current) =>
    current.state === 'opened' ? [releaseBranches(current, current.target_branch)] : [],
  );
}

/** The users a merge request shows, by id. */
export const mergeRequestUsers = (mr: MergeRequest) => getUsers(mergeRequestUserIds(mr));
