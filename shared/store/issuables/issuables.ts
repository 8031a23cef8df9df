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
import { type ListName, sortAttributes } from '../table/list-keys.ts';
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
import { DISCUSSIONS_COUNT, noteSteps } from './notes.ts';

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
  kind: IssuableKind<T>,
  item: T,
  event: 'close' | 'reopen' | undefined,
  write: (current: T, next: 'opened' | 'closed' | undefined) => Promise<R>,
  alsoRetry?: (error: unknown) => boolean,
): Promise<R> =>
  retryingChange(item, (current) => write(current, stateAfter(current.state, event)), kind.read, alsoRetry);

/** What the change and removal writes need of one kind of issuable, named once per kind. */
export interface IssuableKind<T> {
  key: (item: T) => Key;
  /** The item read afresh (consistently); undefined once it is gone. */
  read: (item: T) => Promise<T | undefined>;
  /** The owner's list of all its items. */
  all: (item: T) => ListName;
  /** The owner's list of its items in a state. */
  inState: (item: T, state: string) => ListName;
  /** The parent its system notes name. */
  asParent: (item: T) => NoteParent;
}

/** The change of one item: its fields, the condition on the item as read, its next state. */
interface Change {
  now: string;
  fields: Raw;
  condition: string;
  names: Record<string, string>;
  values: Raw;
  /** REMOVE clauses after the SETs (forms of a long text no longer used). */
  removing?: string;
  /** The state a close, reopen or merge moves it to; undefined when it stays. */
  next: 'opened' | 'closed' | 'merged' | undefined;
  actorId: number;
}

/**
 * The writes of a change: the item's update (SET `fields`, the updated time and its sort value,
 * then `removing`) on `condition`, refused as `asRead`; on a close or reopen also its state list
 * attribute and the count of its system note by the actor, with the note and the two list counts
 * beside it (`moves`, empty when the state stays).
 */
export async function changeSteps<T extends { id: number; state: string }>(
  kind: IssuableKind<T>,
  current: T,
  change: Change,
): Promise<{ update: Step; moves: TransactItem[] }> {
  const { now, next } = change;
  const key = kind.key(current);
  const names = { ...change.names };
  const values = { ...change.values };
  const updatedSort = listSortAttributes.updated_at;
  const sets = Object.entries({
    ...change.fields,
    updated_at: now,
    [updatedSort]: sortAttributes({ id: current.id, updated_at: now })[updatedSort],
  }).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  const moves: TransactItem[] = [];
  if (next) {
    const to = kind.inState(current, next);
    names['#list'] = to.attribute;
    values[':list'] = to.partition;
    sets.push('#list = :list');
    const note = await noteSteps(
      key,
      kind.asParent(current),
      { body: stateNote(next), author_id: change.actorId, system: true },
      now,
    );
    moves.push(
      note.put,
      // The system note counts on the item's counters; the item's own write is its live check.
      itemCounterChanges(key, { notes_count: 1, user_notes_count: 0, [DISCUSSIONS_COUNT]: 1 }),
      listCountChange(kind.inState(current, current.state), -1),
      listCountChange(to, 1),
    );
  }
  const expression = `SET ${sets.join(', ')}${change.removing ?? ''}`;
  return {
    update: asRead(update(key, expression, { condition: change.condition, names, values })),
    moves,
  };
}

/**
 * Removes an item read as `item` under `guard`, counted off its owner's lists, with `others` (the
 * owner's own writes) in one transaction, decided again on a fresh read while it races a change;
 * then the rest of its partition (its notes).
 */
export async function removeIssuable<T extends { state: string }>(
  kind: IssuableKind<T>,
  item: T,
  guard: Guard<T>,
  others: (current: T) => TransactItem[] = () => [],
): Promise<void> {
  const key = kind.key(item);
  await retryingChange(
    item,
    (current) =>
      commit([
        asRead(remove(key, guard.condition, guard.values(current), guard.names)),
        listCountChange(kind.all(current), -1),
        listCountChange(kind.inState(current, current.state), -1),
        ...others(current),
        // A late note is refused by the shards from now on (store/table/counters.ts).
        ...shardTombstones(key),
      ]),
    kind.read,
  );
  await removeParentPartition(key.pk);
}
