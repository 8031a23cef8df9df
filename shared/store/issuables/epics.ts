/**
 * Group epics. An epic heads its own partition (`EPIC#<id>`), where its notes live too; it joins
 * its group's list of epics (`l1`) and the list of its state (`l2`). Its iid is named by a pointer
 * item (`EPICIID#<group>#<iid>` → id) written in the same transaction as the epic, and comes from
 * the group's iid counter item, moved in that transaction under a condition on the value read
 * (not the group item, which group saves write whole), so iids are gapless and unique however
 * many are created at once.
 */

import {
  type Epic,
  type EpicFilter,
  epicMatches,
  epicUserIds,
  filtersEpics,
  type NewEpic,
} from '#domain/epics.ts';
import { notFound } from '#domain/errors.ts';
import { stateFields } from '#domain/issuables.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { batchGetItems } from '../table/batch.ts';
import { nextId, withNextIid } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { type ListPage, listCountChange, queryList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { check, commit, LIVE_ITEM, NEW_ITEM, put, refusedWith, remove } from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import { changeState, changeSteps, type IssuableKind, removeIssuable, stateGuard } from './issuables.ts';
import { decodeNoteParent } from './notes.ts';

/** An epic as stored, with the count of all its notes (system ones too) for the notes list. */
export interface StoredEpic extends Epic {
  notes_count: number;
}

export const decodeEpic = (item: Raw) => decodeNoteParent<StoredEpic>(item);

function epicItem(epic: StoredEpic): Raw {
  return {
    ...keys.epic(epic.id),
    ...epic,
    kind: 'epic',
    ...inLists(lists.groupEpics(epic.group_id), lists.groupEpicsInState(epic.group_id, epic.state)),
    ...sortAttributes({ id: epic.id, created_at: epic.created_at, updated_at: epic.updated_at }),
  };
}

const iidItem = (epic: Epic): Raw => ({
  ...keys.epicIid(epic.group_id, epic.iid),
  kind: 'epic_iid',
  id: epic.id,
  group_id: epic.group_id,
  iid: epic.iid,
});

/** The parent a note on this epic records (epic notes carry no iid in 10.x). */
export const epicAsParent = (epic: Epic): NoteParent => ({
  type: 'Epic',
  id: epic.id,
  iid: null,
  project_id: null,
});

// Reading ---------------------------------------------------------------------------------------

/** An epic item of this group, decoded; undefined for anything else. */
const epicOfGroup = (item: Raw | undefined, groupId: number) =>
  item && item.kind === 'epic' && !item.deleting && Number(item.group_id) === groupId
    ? decodeEpic(item)
    : undefined;

async function readEpicById(groupId: number, id: number): Promise<StoredEpic | undefined> {
  return epicOfGroup(await getItem(keys.epic(id)), groupId);
}

/** A group's epic by iid (its pointer, then the epic), or undefined. */
export async function readEpicByIid(groupId: number, iid: number): Promise<StoredEpic | undefined> {
  const pointer = await getItem(keys.epicIid(groupId, iid));
  if (pointer?.kind !== 'epic_iid') return undefined;
  return readEpicById(groupId, Number(pointer.id));
}

/**
 * The epic a note route names by `epic_id`. GitLab's notes API takes the epic's global id there
 * (python-gitlab sends `epic.id`), while other clients send the iid the epic routes use. The rule:
 * the value is first the global id of an epic of THIS group; only when no epic of this group has
 * that id is it the iid of an epic of this group. So a number that is one epic's id and another's
 * iid names the first. Both candidates are read in one batch, keyed by the group id alone.
 */
export async function readEpicForNotes(groupId: number, idOrIid: number): Promise<StoredEpic | undefined> {
  const found = await batchGetItems([keys.epic(idOrIid), keys.epicIid(groupId, idOrIid)]);
  const byId = epicOfGroup(
    found.find((item) => item.pk === keys.epic(idOrIid).pk),
    groupId,
  );
  if (byId) return byId;
  const pointer = found.find((item) => item.pk === keys.epicIid(groupId, idOrIid).pk);
  return pointer?.kind === 'epic_iid' ? readEpicById(groupId, Number(pointer.id)) : undefined;
}

// Creating ------------------------------------------------------------------------------------------

/**
 * Creates an epic with the group's next iid (taken alone, see withNextIid), its iid pointer and
 * its lists' counts in one transaction, on the condition that the group is still there and not
 * being deleted.
 */
export async function createEpic(fields: NewEpic): Promise<StoredEpic> {
  const groupId = fields.group_id;
  const id = await nextId('epic');
  return withNextIid(keys.epicIidCounter(groupId), 'last_iid', async (iid) => {
    const now = new Date().toISOString();
    const epic: StoredEpic = { ...fields, id, iid, created_at: now, updated_at: now, notes_count: 0 };
    await commit([
      refusedWith(check(keys.group(groupId), LIVE_ITEM), notFound('Group')),
      put(epicItem(epic), NEW_ITEM),
      put(iidItem(epic), NEW_ITEM),
      listCountChange(lists.groupEpics(groupId), 1),
      listCountChange(lists.groupEpicsInState(groupId, 'opened'), 1),
    ]);
    return epic;
  });
}

// Listing ---------------------------------------------------------------------------------------

export interface EpicListQuery {
  filter: EpicFilter;
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
}

/** A page of a group's epics: the list of the asked state, filtered as asked, with their authors. */
export async function listEpics(groupId: number, query: EpicListQuery) {
  const state = query.filter.state;
  const list =
    state === 'opened' || state === 'closed'
      ? lists.groupEpicsInState(groupId, state)
      : lists.groupEpics(groupId);
  const page: ListPage<StoredEpic> = await queryList({
    list,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeEpic,
    filter: filtersEpics(query.filter) ? (epic: StoredEpic) => epicMatches(epic, query.filter) : undefined,
  });
  return { ...page, users: await getUsers([...new Set(page.items.flatMap(epicUserIds))]) };
}

// Changing ----------------------------------------------------------------------------------------

/** What the shared change and removal writes need of an epic. */
const EPIC: IssuableKind<StoredEpic> = {
  key: (epic) => keys.epic(epic.id),
  read: (epic) => readEpicById(epic.group_id, epic.id),
  all: (epic) => lists.groupEpics(epic.group_id),
  inState: (epic, state) => lists.groupEpicsInState(epic.group_id, state),
  asParent: (epic) => epicAsParent(epic),
};

/**
 * Changes an epic: the fields sent and, on `close` or `reopen`, its state with a system note
 * ("closed", "reopened") and its move between the state lists, all in one transaction on the
 * condition that the epic is still in the state read. A close racing a reopen is decided again on
 * the state the winner left.
 */
export function changeEpic(
  epic: StoredEpic,
  changes: Partial<Epic>,
  event: 'close' | 'reopen' | undefined,
  actorId: number,
): Promise<StoredEpic> {
  return changeState(EPIC, epic, event, async (current, nextState) => {
    const now = new Date().toISOString();
    const all: Partial<Epic> = { ...changes, ...(nextState && stateFields(nextState, now, actorId)) };
    const { update, moves } = await changeSteps(EPIC, current, {
      now,
      fields: all,
      condition: stateGuard.condition,
      names: stateGuard.names,
      values: stateGuard.values(current),
      next: nextState,
      actorId,
    });
    await commit([update, ...moves]);
    return { ...current, ...all, updated_at: now, notes_count: current.notes_count + (nextState ? 1 : 0) };
  });
}

/**
 * Removes an epic with its iid pointer, counted off its lists in the same transaction, then its
 * notes.
 */
export const deleteEpic = (epic: StoredEpic): Promise<void> =>
  removeIssuable(EPIC, epic, stateGuard, (current) => [remove(keys.epicIid(current.group_id, current.iid))]);

/** The users an epic shows, by id. */
export const epicUsers = (epic: Epic) => getUsers(epicUserIds(epic));
