/**
 * What issues, merge requests and epics share when they change: a write on the condition that the
 * item is still as read (else decided again on a fresh read, or 404 when it is gone); a close or
 * reopen with its system note and the move between the state lists in the same transaction, the
 * note counted on the item's counters; the removal counted off its lists, then its partition. Each
 * owner adds its own rules (its key, lists, guard and the writes beside these).
 */

import { recordNotFound } from '#domain/errors.ts';
import { stateAfter, stateNote } from '#domain/issuables.ts';
import type { NoteParent } from '#domain/notes.ts';
import { itemCounterChanges, shardTombstones } from '../table/counters.ts';
import { type ListName, sortAttributes } from '../table/keys.ts';
import { listCountChange } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { listSortAttributes } from '../table/table.ts';
import {
  commit,
  refusedReading,
  remove,
  retrying,
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { removeParentPartition } from './noteable-purge.ts';
import { noteSteps } from './notes.ts';

type Key = { pk: string; sk: string };

/** The item changed since it was read (its state, or what else its guard names): read it again. */
class StateChanged extends Error {}

/** Attempts at a write racing others; each loses only to a write that won. */
const ATTEMPTS = 200;

/** The item is still there, in the state it was read in. */
export const STILL_AS_READ = 'attribute_exists(pk) AND attribute_not_exists(deleting) AND #state = :previous';

/** What a write's condition names and compares to the item as read. */
export interface Guard<T> {
  condition: string;
  names: Record<string, string>;
  values: (item: T) => Raw;
}

/** The guard of an item read in a state. */
export const stateGuard: Guard<{ state: string }> = {
  condition: STILL_AS_READ,
  names: { '#state': 'state' },
  values: (item) => ({ ':previous': item.state }),
};

/** A refused write: the item is gone (404) or changed since it was read (decided again). */
const asRead = (item: TransactItem): Step =>
  refusedReading(item, (stored) => (stored ? new StateChanged() : recordNotFound()));

/**
 * Runs `attempt` again on the item read afresh while it loses a race (to a change of state, or to
 * what `alsoRetry` accepts); 404 once the item is gone.
 */
function retryingChange<T, R>(
  item: T,
  attempt: (current: T) => Promise<R>,
  read: (item: T) => Promise<T | undefined>,
  alsoRetry: (error: unknown) => boolean = () => false,
): Promise<R> {
  return retrying(
    { times: ATTEMPTS, retry: (error) => error instanceof StateChanged || alsoRetry(error), backoff: true },
    item,
    attempt,
    async (current) => {
      const fresh = await read(current);
      if (!fresh) throw recordNotFound();
      return fresh;
    },
  );
}

/**
 * Changes an item, its state on `close` or `reopen` (see stateAfter) as `write` makes it, decided
 * again on the item read afresh while the write loses a race.
 */
export const changeState = <T extends { state: string }, R>(
  item: T,
  event: 'close' | 'reopen' | undefined,
  read: (item: T) => Promise<T | undefined>,
  write: (current: T, next: 'opened' | 'closed' | undefined) => Promise<R>,
  alsoRetry?: (error: unknown) => boolean,
): Promise<R> =>
  retryingChange(item, (current) => write(current, stateAfter(current.state, event)), read, alsoRetry);

/** A state change: the lists the item moves between and the system note it gets. */
interface StateMove {
  from: ListName;
  to: ListName;
  parent: NoteParent;
  body: string;
  actorId: number;
}

/**
 * The move of a close or reopen to `next` between an owner's state lists (`inState`), with its
 * system note by the actor; none when the state stays.
 */
export const stateMove = (
  inState: (state: string) => ListName,
  from: string,
  next: 'opened' | 'closed' | undefined,
  parent: NoteParent,
  actorId: number,
): StateMove | undefined =>
  next && { from: inState(from), to: inState(next), parent, body: stateNote(next), actorId };

/**
 * The writes of a change: the item's update (SET `fields`, the updated time and its sort value,
 * then `removing`) on `condition`, refused as `asRead`; on a state move also its list attribute and
 * the count of the system note, with the note and the two list counts beside it.
 */
export async function changeSteps(change: {
  key: Key;
  id: number;
  now: string;
  fields: Raw;
  condition: string;
  names: Record<string, string>;
  values: Raw;
  removing?: string;
  move?: StateMove;
}): Promise<{ update: Step; moves: TransactItem[] }> {
  const { key, id, now, condition, move } = change;
  const names = { ...change.names };
  const values = { ...change.values };
  const updatedSort = listSortAttributes.updated_at;
  const sets = Object.entries({
    ...change.fields,
    updated_at: now,
    [updatedSort]: sortAttributes({ id, updated_at: now })[updatedSort],
  }).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  const moves: TransactItem[] = [];
  if (move) {
    names['#list'] = move.to.attribute;
    values[':list'] = move.to.partition;
    sets.push('#list = :list');
    const note = await noteSteps(
      key,
      move.parent,
      { body: move.body, author_id: move.actorId, system: true },
      now,
    );
    moves.push(
      note.put,
      // The system note counts on the item's counters; the item's own write is its live check.
      itemCounterChanges(key, { notes_count: 1, user_notes_count: 0 }),
      listCountChange(move.from, -1),
      listCountChange(move.to, 1),
    );
  }
  const expression = `SET ${sets.join(', ')}${change.removing ?? ''}`;
  return { update: asRead(update(key, expression, { condition, names, values })), moves };
}

/**
 * Removes an item read as `item` under `guard` with `others` (its list counts and the owner's own
 * writes) in one transaction, decided again on a fresh read while it races a change; then the
 * rest of its partition (its notes).
 */
export async function removeIssuable<T>(
  item: T,
  key: Key,
  guard: Guard<T>,
  read: (item: T) => Promise<T | undefined>,
  others: (current: T) => TransactItem[],
): Promise<void> {
  await retryingChange(
    item,
    (current) =>
      commit([
        asRead(remove(key, guard.condition, guard.values(current), guard.names)),
        ...others(current),
        // A late note is refused by the shards from now on (store/table/counters.ts).
        ...shardTombstones(key),
      ]),
    read,
  );
  await removeParentPartition(key.pk);
}
