/**
 * Counters kept off the items they count. A counter is a number spread over a few shard items
 * (`<pk>` / `COUNT#<n>`), which are in no list; a write adds its delta to one shard, chosen at
 * random, in the same transaction as the change it counts, so the sum is exact under any
 * concurrency, retries (a transaction's token makes its retry a no-op) and crashes; and writers
 * collide on a shard only when they draw the same one. Readers add the shards up in the batch
 * that reads the counted item.
 *
 * Two kinds: a list's total (`LISTCOUNT#<list>`, attribute `count`), and the counters of an item
 * a client sees with its counts (a project's stars, forks and open issues; an issue's, merge
 * request's, snippet's or epic's notes), whose shards sit in the item's partition and whose sums
 * are merged into the item wherever it is read by key (store/table/batch.ts, store/table/items.ts) or as a
 * page (`withCounters`).
 */
import { NOTEABLE_ITEMS } from './noteable-keys.ts';
import type { Raw } from './raw.ts';
import { check, type TransactItem, update } from './transaction.ts';

type Key = { pk: string; sk: string };
/** The sort key prefix of counter shards. */
export const COUNT_PREFIX = 'COUNT#';

/** One counter: the partition of its shards, the attribute it adds to, and how many shards. */
export interface CounterRef {
  pk: string;
  attribute: string;
  shards: number;
  /**
   * The counter of an item that can be deleted (a project, an issue, …): a change that adds to it
   * is refused once the item is marked deleted, its shards carrying the mark (`shardTombstones`).
   * The creating transaction needs no check on the item itself, which every writer would share.
   */
  live?: boolean;
}

/** A shard of a live item: not marked deleted. */
export const LIVE_SHARD = 'attribute_not_exists(deleting)';

/** How long a deleted item's shards keep refusing late writers before TTL removes them. */
const TOMBSTONE_SECONDS = 7 * 86_400;

/** Shards of a list or an item only many writers of one parent change at once. */
export const PARENT_SHARDS = 4;
/** Shards of an instance-wide list total (every project of a visibility, every user, …). */
export const WIDE_SHARDS = 16;
/** Shards of a note parent's counts: a thread's notes come from people, a few a second at most. */
export const THREAD_SHARDS = 2;

export const shardKey = (pk: string, shard: number): Key => ({ pk, sk: `${COUNT_PREFIX}${shard}` });

export const shardKeys = (pk: string, shards: number): Key[] =>
  Array.from({ length: shards }, (_, shard) => shardKey(pk, shard));

/**
 * The change of one counter, on a shard drawn at random, for the transaction of what it counts.
 * An increase of a live item's counter is refused once the item is marked deleted; a decrease
 * (something leaving it) never is.
 */
export function counterChange(counter: CounterRef, delta: number): TransactItem {
  return counterChanges(
    counter.pk,
    counter.shards,
    { [counter.attribute]: delta },
    counter.live && delta > 0,
  );
}

/** Changes of several counters of one item's shards, in one update of one shard. */
export function counterChanges(
  pk: string,
  shards: number,
  deltas: Record<string, number>,
  live = false,
): TransactItem {
  const entries = Object.entries(deltas);
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds = entries.map(([attribute, delta], index) => {
    names[`#c${index}`] = attribute;
    values[`:c${index}`] = delta;
    return `#c${index} :c${index}`;
  });
  return update(shardKey(pk, Math.floor(Math.random() * shards)), `ADD ${adds.join(', ')}`, {
    names,
    values,
    ...(live ? { condition: LIVE_SHARD } : {}),
  });
}

/** The sum of an attribute over the shard items read (any extra items are ignored). */
export function sumOf(items: Raw[], pk: string, attribute: string): number {
  let sum = 0;
  for (const item of items) {
    if (item.pk !== pk || typeof item.sk !== 'string' || !item.sk.startsWith(COUNT_PREFIX)) continue;
    const value = Number(item[attribute] ?? 0);
    if (Number.isFinite(value)) sum += value;
  }
  return Math.max(0, sum);
}

/** What jobs record about a project beside it (set on shard 0, never summed). */
export const PROJECT_RECORDED = [
  'import_status',
  'import_error',
  'last_update_started_at',
  'last_update_at',
  'last_successful_update_at',
  'commit_count',
  'repository_size',
] as const;

/** A project's summed counters. */
export const PROJECT_COUNTERS = ['star_count', 'forks_count', 'open_issues_count', 'uploads_size'] as const;

/** A note parent's counts (every noteable parent's: store/table/noteable-keys.ts), and its votes (award emoji). */
const NOTE_COUNTERS = {
  shards: THREAD_SHARDS,
  attributes: ['notes_count', 'user_notes_count', 'upvotes', 'downvotes'],
} as const;

/**
 * Items that carry counters, by their sort key: how many shards and which attributes are summed;
 * `recorded` attributes are not summed but set on shard 0 alone (what jobs record about a project:
 * its import state and repository statistics), and read from there over the item's own value.
 */
const COUNTED: Record<
  string,
  { shards: number; attributes: readonly string[]; recorded?: readonly string[] }
> = {
  PROJECT: { shards: PARENT_SHARDS, attributes: PROJECT_COUNTERS, recorded: PROJECT_RECORDED },
  ...Object.fromEntries(NOTEABLE_ITEMS.map(({ sk }) => [sk, NOTE_COUNTERS])),
};

/** The counters of a counted item, one attribute (a project's `star_count`, …). */
export function itemCounter(key: Key, attribute: string): CounterRef {
  const counted = COUNTED[key.sk];
  if (!counted?.attributes.includes(attribute)) throw new Error(`${key.sk} has no counter ${attribute}`);
  return { pk: key.pk, attribute, shards: counted.shards, live: true };
}

/**
 * Changes of a counted item's counters in one shard write, refused once the item is marked
 * deleted unless every delta is a decrease.
 */
export function itemCounterChanges(key: Key, deltas: Record<string, number>): TransactItem {
  const counted = COUNTED[key.sk];
  if (!counted) throw new Error(`${key.sk} carries no counters`);
  return counterChanges(
    key.pk,
    counted.shards,
    deltas,
    Object.values(deltas).some((delta) => delta > 0),
  );
}

/**
 * A check that a counted item is not marked deleted, on a shard drawn at random, for a change in its
 * partition that counts nothing (the item itself, which every writer would share, stays unread).
 */
export function liveCountedItemCheck(key: Key): TransactItem {
  const counted = COUNTED[key.sk];
  if (!counted) throw new Error(`${key.sk} carries no counters`);
  return check(shardKey(key.pk, Math.floor(Math.random() * counted.shards)), LIVE_SHARD);
}

/**
 * Marks every shard of a counted item deleted, for the transaction that marks the item: from then
 * on no change counts on it (a late note, star or issue is refused as the item itself would have
 * been), until TTL removes the marks a week later.
 */
export function shardTombstones(key: Key): TransactItem[] {
  const counted = COUNTED[key.sk];
  if (!counted) return [];
  const expires = Math.ceil(Date.now() / 1000) + TOMBSTONE_SECONDS;
  return shardKeys(key.pk, counted.shards).map((shard) =>
    update(shard, 'SET deleting = :true, expires = :expires', {
      values: { ':true': true, ':expires': expires },
    }),
  );
}

/** The same marks as whole items, for a purge that writes them in batches outside a transaction. */
export function shardTombstoneItems(key: Key): Raw[] {
  const counted = COUNTED[key.sk];
  if (!counted) return [];
  const expires = Math.ceil(Date.now() / 1000) + TOMBSTONE_SECONDS;
  return shardKeys(key.pk, counted.shards).map((shard) => ({ ...shard, deleting: true, expires }));
}

/** The shard keys of a counted item (none for an item without counters). */
export const shardKeysOf = (item: Key): Key[] => {
  const counted = COUNTED[item.sk];
  return counted ? shardKeys(item.pk, counted.shards) : [];
};

/** The shard keys to read beside these item keys (those of counted items). */
export const counterKeysOf = (itemKeys: Key[]): Key[] => itemKeys.flatMap(shardKeysOf);

export const isCounterShard = (item: Raw) => typeof item.sk === 'string' && item.sk.startsWith(COUNT_PREFIX);

/** A counted item's counters from its shards read: the sums, and what jobs recorded on shard 0. */
function countersFrom(
  counted: { attributes: readonly string[]; recorded?: readonly string[] },
  pk: string,
  shards: Raw[],
): Raw {
  const sums = Object.fromEntries(counted.attributes.map((name) => [name, sumOf(shards, pk, name)]));
  const first = shards.find((shard) => shard.pk === pk && shard.sk === shardKey(pk, 0).sk);
  const recorded = Object.fromEntries(
    (counted.recorded ?? []).flatMap((name) => (first && name in first ? [[name, first[name]]] : [])),
  );
  return { ...sums, ...recorded };
}

/**
 * The items with their counters summed from the shard items read beside them. The items are the
 * read's own, held by no one else: the counters are set on them, not on copies (a project item has
 * a hundred attributes; copying it cost more than summing its shards).
 */
export function mergeCounters(items: Raw[], shards: Raw[]): Raw[] {
  for (const item of items) {
    const counted = typeof item.sk === 'string' ? COUNTED[item.sk] : undefined;
    if (counted) Object.assign(item, countersFrom(counted, String(item.pk), shards));
  }
  return items;
}

// Rollups -----------------------------------------------------------------------------------------

/**
 * The sort key of a counted item's rollup: its counters summed from its shards by the
 * `counter-rollups` stream consumer after each change of a shard. A page reads one rollup per item
 * (one key, not all its shards); it trails the shards by the stream's lag. Reads by key and the
 * writers' own answers sum the shards and are exact.
 */
export const ROLLUP_SK = 'COUNTS';

export const rollupKey = (pk: string): Key => ({ pk, sk: ROLLUP_SK });

/** Counter shards and rollups: what a purge leaves for the marks it keeps. */
export const isCounterItem = (item: Raw) => isCounterShard(item) || item.sk === ROLLUP_SK;

/** The partitions whose shards count an item, by key prefix, with that item's sort key. */
const COUNTED_PARTITIONS: Record<string, string> = {
  'PROJECT#': 'PROJECT',
  ...Object.fromEntries(NOTEABLE_ITEMS.map(({ sk, partitionPrefix }) => [partitionPrefix, sk])),
};

export const COUNTED_PARTITION_PREFIXES = Object.keys(COUNTED_PARTITIONS);

/** The counted item whose shards partition `pk` holds; undefined for any other partition. */
export function countedItemOf(pk: string): Key | undefined {
  const prefix = COUNTED_PARTITION_PREFIXES.find((candidate) => pk.startsWith(candidate));
  return prefix ? { pk, sk: COUNTED_PARTITIONS[prefix] as string } : undefined;
}

/** The note parent (an issue, a snippet, …) heading partition `pk`, if any. */
export function noteParentOf(pk: string): Key | undefined {
  const item = countedItemOf(pk);
  return item && COUNTED[item.sk]?.attributes.includes('notes_count') ? item : undefined;
}

/**
 * The rollup of a counted item from its shards as read, up to stream position `position` (a
 * rollup is replaced only by one from a later position); once the item is marked deleted, a mark
 * no later rollup replaces, removed by TTL with the shards'.
 */
export function rollupOf(item: Key, shards: Raw[], position: string): Raw {
  const counted = COUNTED[item.sk];
  if (!counted) throw new Error(`${item.sk} carries no counters`);
  const mark = shards.find((shard) => shard.deleting === true);
  if (mark) return { ...rollupKey(item.pk), deleting: true, expires: mark.expires, position: LAST_POSITION };
  return { ...rollupKey(item.pk), ...countersFrom(counted, item.pk, shards), position };
}

/** Stream positions compare as strings of one width (sequence numbers are decimal, up to 40 digits). */
export const streamPosition = (sequenceNumber: string) => sequenceNumber.padStart(40, '0');
const LAST_POSITION = '9'.repeat(40);

/** The rollup keys to read for a page of these items (those of counted items). */
export const rollupKeysOf = (items: Key[]): Key[] =>
  items.filter((item) => COUNTED[item.sk]).map((item) => rollupKey(item.pk));

/**
 * The items of a page with their counters from the rollups read beside them; an item whose
 * rollup is not written yet (nothing counted so far) counts zero.
 */
export function mergeRollups(items: Raw[], rollups: Raw[]): Raw[] {
  const byPartition = new Map(rollups.map((rollup) => [String(rollup.pk), rollup]));
  return items.map((item) => {
    const counted = typeof item.sk === 'string' ? COUNTED[item.sk] : undefined;
    if (!counted) return item;
    const pk = String(item.pk);
    const rollup = byPartition.get(pk);
    // A rollup reads as the item's only shard: the same sums and recorded values.
    return { ...item, ...countersFrom(counted, pk, rollup ? [{ ...rollup, ...shardKey(pk, 0) }] : []) };
  });
}
