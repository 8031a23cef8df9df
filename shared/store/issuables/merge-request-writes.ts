/**
 * Creating, changing and removing merge requests (as stored and read: merge-request-items.ts). A
 * merge request's iid comes from the project's iid counter item by one atomic add
 * (store/table/ids.ts), so iids are unique and, but for a crash between the add and the write,
 * gapless however many are created at once.
 *
 * GitLab lets one open merge request exist per source and target branch of a project: an open
 * merge request holds an item in its project's partition named after its two branches, taken and
 * released in the same transactions as it opens, closes, retargets and goes, so a second one is
 * refused by the database ("Another open merge request already exists ...").
 *
 * A change of description is made on the condition that the item still names the description
 * parts read, which then go.
 */

import { notFound } from '#domain/errors.ts';
import { stateFields } from '#domain/issuables.ts';
import {
  branchesTaken,
  type MergeCheck,
  type MergeRequest,
  type NewMergeRequest,
} from '#domain/merge-requests.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { nextId, withNextIid } from '../table/ids.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChange } from '../table/lists.ts';
import { removeDropped, type StoredText } from '../table/long-text.ts';
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
  update,
  writeAlone,
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
import {
  MERGE_REQUEST_DESCRIPTION,
  mergeRequestAsParent,
  mergeRequestItem,
  mergeRequestKey,
  readMergeRequest,
  type StoredMergeRequest,
} from './merge-request-items.ts';

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
        const key = mergeRequestKey(mr);
        const description = MERGE_REQUEST_DESCRIPTION.store(key, mr.description);
        // Parts written under an iid another merge request took are nobody's: they go.
        return MERGE_REQUEST_DESCRIPTION.replace(key, description, async () => {
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
  key: mergeRequestKey,
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
  const key = mergeRequestKey(mr);
  const stored =
    changes.description === undefined ? undefined : MERGE_REQUEST_DESCRIPTION.store(key, changes.description);
  return MERGE_REQUEST_DESCRIPTION.replace(key, stored, () =>
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
    const unchanged = MERGE_REQUEST_DESCRIPTION.unchanged(mr);
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
    ...(stored ? MERGE_REQUEST_DESCRIPTION.withStored(changed, stored) : changed),
    notes_count: mr.notes_count + (moves.length ? 1 : 0),
  };
}

// Merging -------------------------------------------------------------------------------------------------

/**
 * Records a merge request merged by `actorId` (its code already merged): its state, who and when,
 * the commits made and the diff merged, with the "merged" system note, its move between the state
 * lists and the release of its branches, in one transaction on the condition that it is still
 * open on the target it was read with.
 */
export async function markMergeRequestMerged(
  mr: StoredMergeRequest,
  merged: Pick<MergeRequest, 'merge_commit_sha' | 'squash_commit_sha' | 'merged_diff'>,
  actorId: number,
): Promise<StoredMergeRequest> {
  const now = new Date().toISOString();
  const fields: Partial<MergeRequest> = {
    state: 'merged',
    merged_at: now,
    merged_by_id: actorId,
    ...merged,
    updated_by_id: actorId,
  };
  const { update: write, moves } = await changeSteps(MERGE_REQUEST, mr, {
    now,
    fields,
    condition: stillAsRead.condition,
    names: { ...stillAsRead.names },
    values: stillAsRead.values(mr),
    next: 'merged',
    actorId,
  });
  await commit([write, releaseBranches(mr, mr.target_branch), ...moves]);
  return { ...mr, ...fields, updated_at: now, notes_count: mr.notes_count + 1 };
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

/**
 * Keeps a merge check's verdict on the merge request, so reads of the same tips do not merge again.
 * The verdict is a fact about its two commits whatever else changed, so the only condition is that
 * the merge request is there; it replaces the verdict of another pair, which no read takes for
 * these tips. Updated time and the fields hooks follow stay as they are: no event is sent.
 */
export async function keepMergeCheck(mr: MergeRequest, check: MergeCheck): Promise<void> {
  await writeAlone(
    update(mergeRequestKey(mr), 'SET merge_check = :check', {
      condition: LIVE_ITEM,
      values: { ':check': check },
    }),
  );
}
