import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { type ItemPosition, keysetStart, offsetOf, type PageRequest } from '#domain/pagination.ts';
import { batchGetItems, type Key, keyString, withCounters, withCountersAnd } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { counterChange, shardKeys, sumOf } from './counters.ts';
import { listCounter } from './list-counters.ts';
import { type ListName, type ListRef, listsOfItem } from './list-keys.ts';
import { indexName, type ListOrder, listSortAttributes, treeIndex } from './table.ts';
import type { TransactItem } from './transaction.ts';

export interface ListQuery<T, O extends ListOrder> {
  list: ListRef<O>;
  order: NoInfer<O>;
  sort: 'asc' | 'desc';
  page: PageRequest;
  decode: (item: Record<string, unknown>) => T;
  /** A pure predicate (search, flags). Without one the total comes from the list's counter item. */
  filter?: (entity: T) => boolean;
  /**
   * Handed the page once it is known, before its counters are read: a read that needs only the
   * page (the users it shows) starts then, beside the counters', not after them.
   */
  onPage?: (items: T[]) => void;
  /**
   * The list's counter shards (`listCountKeys`) already read, with whatever else: an unfiltered
   * page's total is added up from them instead of read beside the page.
   */
  countRead?: Record<string, unknown>[];
  /**
   * What the page shows besides its items (the users it names): `keys` of the page, read in one
   * batch with the page's counters, and `found` handed what was read before the page is returned.
   */
  besidePage?: { keys: (items: T[]) => Key[]; found: (items: Record<string, unknown>[]) => void };
}

/** The page's items with their counters, and what `besidePage` asks read in the same batch. */
async function countedPage<T>(
  query: Pick<ListQuery<T, ListOrder>, 'decode' | 'onPage' | 'besidePage'>,
  page: Record<string, unknown>[],
): Promise<T[]> {
  const beside = query.besidePage;
  if (!beside && !query.onPage) return (await withCounters(page)).map(query.decode);
  const decoded = page.map(query.decode);
  query.onPage?.(decoded);
  if (!beside) return (await withCounters(page)).map(query.decode);
  const { items, others } = await withCountersAnd(page, beside.keys(decoded));
  beside.found(others);
  return items.map(query.decode);
}

export interface ListPage<T> {
  items: T[];
  /** Undefined when counting would mean reading more than `MAX_COUNTED_ITEMS` (GitLab omits it too). */
  total: number | undefined;
}

/** A filtered list reads at most this many items to count matches. */
export const MAX_COUNTED_ITEMS = 10_000;

/**
 * A filtered keyset page reads at most this many items past its cursor; when they hold fewer
 * matches than the page size the page is short and its cursor resumes after the last item read.
 */
export const KEYSET_READ_BOUND = 1_000;

/**
 * Bounds on a list's sort attribute (in its stored form), both inclusive, read as part of the key
 * condition so a bounded read touches only the items inside.
 */
export interface SortRange {
  from?: string;
  to?: string;
}

/** The key condition of a range: DynamoDB takes one operator on the sort key. */
function rangeCondition(range: SortRange | undefined): {
  expression: string;
  values: Record<string, string>;
} {
  if (range?.from !== undefined && range.to !== undefined) {
    return {
      expression: ' AND #sort BETWEEN :from AND :to',
      values: { ':from': range.from, ':to': range.to },
    };
  }
  if (range?.from !== undefined)
    return { expression: ' AND #sort >= :from', values: { ':from': range.from } };
  if (range?.to !== undefined) return { expression: ' AND #sort <= :to', values: { ':to': range.to } };
  return { expression: '', values: {} };
}

interface ChunkQuery {
  list: ListRef;
  order: ListOrder;
  sort: 'asc' | 'desc';
  projection?: string;
  /** Placeholders the projection uses (`#state`: a reserved word). */
  projectionNames?: Record<string, string>;
  range?: SortRange;
}

/** One Query of a list's index (the list's own attribute, so no list is read through another's). */
async function queryChunk(query: ChunkQuery, limit: number | undefined, startKey?: Record<string, unknown>) {
  // The types keep this from happening; a list read in an order its items lack would find nothing.
  if (!query.list.orders.includes(query.order))
    throw new Error(`list ${query.list.partition} has no order ${query.order}`);
  const range = rangeCondition(query.range);
  return documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexName(query.list.attribute, query.order),
      KeyConditionExpression: `#list = :partition${range.expression}`,
      ExpressionAttributeNames: {
        '#list': query.list.attribute,
        ...(range.expression ? { '#sort': listSortAttributes[query.order] } : {}),
        ...query.projectionNames,
      },
      ExpressionAttributeValues: { ':partition': query.list.partition, ...range.values },
      ScanIndexForward: query.sort === 'asc',
      Limit: limit,
      ...(query.projection ? { ProjectionExpression: query.projection } : {}),
      ExclusiveStartKey: startKey,
    }),
  );
}

/**
 * Reads one page of a list: a Query on the list's GSI in the requested order, never a Scan. A
 * keyset page starts the Query just after the cursor's item, so page 10,000 costs what page 1
 * does, and counts nothing (keyset answers carry no total).
 */
export async function queryList<T, O extends ListOrder>(query: ListQuery<T, O>): Promise<ListPage<T>> {
  if (query.page.keyset) {
    const start = keysetStart(query.page);
    return query.filter ? keysetFiltered(query, start) : keysetUnfiltered(query, start);
  }
  const offset = offsetOf(query.page);
  return query.filter ? queryFiltered(query, offset) : queryUnfiltered(query, offset);
}

/** Where a list's item stands in the given order: what a cursor carries to resume after it. */
export function itemPosition(item: Record<string, unknown>, order: ListOrder): ItemPosition {
  return { sort: String(item[listSortAttributes[order]]), pk: String(item.pk), sk: String(item.sk) };
}

/**
 * The ExclusiveStartKey that resumes a list's Query just after a position: the index's keys and
 * the table's. Built from the item, not from a LastEvaluatedKey, since a page may end mid-read;
 * the item need not be in this list (a merged list resumes each of its lists at one position).
 */
const startKeyAt = (list: ListName, order: ListOrder, position: ItemPosition) => ({
  [list.attribute]: list.partition,
  [listSortAttributes[order]]: position.sort,
  pk: position.pk,
  sk: position.sk,
});

/** Records where the page after this one starts (after `last`), or that none follows. */
function recordNext(page: PageRequest, order: ListOrder, last: Record<string, unknown> | undefined) {
  if (page.keyset) page.keyset.next = last === undefined ? undefined : { after: itemPosition(last, order) };
}

/**
 * Up to `limit` raw items of a list from just after `start`, and whether the read reached the
 * list's end (several Queries when a read is cut at 1 MB).
 */
async function readListFrom(
  query: ChunkQuery,
  start: ItemPosition | undefined,
  limit: number,
): Promise<{ items: Record<string, unknown>[]; complete: boolean }> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined = start && startKeyAt(query.list, query.order, start);
  do {
    const result: QueryCommandOutput = await queryChunk(query, limit - items.length, startKey);
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return { items, complete: !startKey };
}

/** One more item than the page is read: it tells whether a next page exists, so none is empty. */
async function keysetUnfiltered<T, O extends ListOrder>(
  query: ListQuery<T, O>,
  start: ItemPosition | undefined,
): Promise<ListPage<T>> {
  const perPage = query.page.perPage;
  const { items } = await readListFrom(query, start, perPage + 1);
  const page = items.slice(0, perPage);
  recordNext(query.page, query.order, items.length > perPage ? page.at(-1) : undefined);
  return { items: await countedPage(query, page), total: undefined };
}

async function keysetFiltered<T, O extends ListOrder>(
  query: ListQuery<T, O>,
  start: ItemPosition | undefined,
): Promise<ListPage<T>> {
  const filter = query.filter as (entity: T) => boolean;
  const perPage = query.page.perPage;
  const { items, complete } = await readListFrom(query, start, KEYSET_READ_BOUND);
  const matches: Record<string, unknown>[] = [];
  let last: Record<string, unknown> | undefined;
  let index = 0;
  for (; index < items.length && matches.length < perPage; index++) {
    const raw = items[index] as Record<string, unknown>;
    last = raw;
    if (filter(query.decode(raw))) matches.push(raw);
  }
  // More may follow when items were left unread here or the read stopped at its bound.
  const more = index < items.length || !complete;
  recordNext(query.page, query.order, more ? last : undefined);
  return { items: await countedPage(query, matches), total: undefined };
}

async function queryUnfiltered<T, O extends ListOrder>(
  query: ListQuery<T, O>,
  offset: number,
): Promise<ListPage<T>> {
  const wanted = offset + query.page.perPage;
  const readPage = async () => {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result: QueryCommandOutput = await queryChunk(query, wanted - items.length, startKey);
      items.push(...((result.Items ?? []) as Record<string, unknown>[]));
      startKey = result.LastEvaluatedKey;
    } while (startKey && items.length < wanted);
    return countedPage(query, items.slice(offset, wanted));
  };
  const reading = readPage();
  const total = query.countRead ? listCountIn(query.list, query.countRead) : readListCount(query.list);
  const [items, counted] = await Promise.all([reading, total]);
  return { items, total: counted };
}

/** A list's total from its counter's shards among items read. */
function listCountIn(list: ListName, items: Record<string, unknown>[]): number {
  const counter = listCounter(list);
  return sumOf(items, counter.pk, counter.attribute);
}

async function queryFiltered<T, O extends ListOrder>(
  query: ListQuery<T, O>,
  offset: number,
): Promise<ListPage<T>> {
  const filter = query.filter as (entity: T) => boolean;
  const wanted = offset + query.page.perPage;
  const matches: Record<string, unknown>[] = [];
  let matched = 0;
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await queryChunk(query, 1000, startKey);
    for (const raw of (result.Items ?? []) as Record<string, unknown>[]) {
      read++;
      const entity = query.decode(raw);
      if (!filter(entity)) continue;
      if (matched >= offset && matched < wanted) matches.push(raw);
      matched++;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey && read < MAX_COUNTED_ITEMS);
  // The page's items with their counters (filters never read counters).
  const items = await countedPage(query, matches);
  return { items, total: startKey ? undefined : matched };
}

/** A list's total: its counter's shards, read in one batch and added up. */
export async function readListCount(list: ListName): Promise<number> {
  const counter = listCounter(list);
  return sumOf(await batchGetItems(shardKeys(counter.pk, counter.shards)), counter.pk, counter.attribute);
}

/** The totals of several lists, their shards read in one batch. */
export async function readListCounts(refs: ListName[]): Promise<number[]> {
  const counters = refs.map(listCounter);
  const items = await batchGetItems(counters.flatMap((counter) => shardKeys(counter.pk, counter.shards)));
  return counters.map((counter) => sumOf(items, counter.pk, counter.attribute));
}

/** The items that hold a list's total, to remove them with the list. */
export function listCountKeys(list: ListName): { pk: string; sk: string }[] {
  const counter = listCounter(list);
  return shardKeys(counter.pk, counter.shards);
}

/** The counter change that goes in the same transaction as an item joining or leaving a list. */
export const listCountChange = (list: ListName, delta: number): TransactItem =>
  counterChange(listCounter(list), delta);

/** The counter changes of an item joining (+1) or leaving (-1) every list it belongs to. */
export const listCountChanges = (item: Record<string, unknown>, delta: number): TransactItem[] =>
  listsOfItem(item).map((list) => listCountChange(list, delta));

/** The first `limit` raw items of a list in the given order (several queries if pages are cut). */
export async function readListHead<O extends ListOrder>(
  list: ListRef<O>,
  order: NoInfer<O>,
  sort: 'asc' | 'desc',
  limit: number,
  range?: SortRange,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  const query = { list, order, sort, range };
  do {
    const result: QueryCommandOutput = await queryChunk(query, Math.max(1, limit - items.length), startKey);
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items.slice(0, limit);
}

/** Every raw item of a list, up to `MAX_COUNTED_ITEMS`; `complete` is false when cut there. */
export async function readWholeList<O extends ListOrder>(
  list: ListRef<O | 'id'>,
  order: NoInfer<O> | 'id' = 'id',
  range?: SortRange,
): Promise<{ items: Record<string, unknown>[]; complete: boolean }> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  const query = { list, order, sort: 'asc' as const, range };
  do {
    const result: QueryCommandOutput = await queryChunk(query, 1000, startKey);
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < MAX_COUNTED_ITEMS);
  return { items, complete: !startKey };
}

/**
 * Every item of a list up to `MAX_COUNTED_ITEMS`, only the attributes `projection` names (with
 * `names` for its placeholders), in id order; `complete` is false when cut there.
 */
export async function readWholeListProjected<O extends ListOrder>(
  list: ListRef<O | 'id'>,
  projection: string,
  names: Record<string, string> = {},
): Promise<{ items: Record<string, unknown>[]; complete: boolean }> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  const query = { list, order: 'id' as const, sort: 'asc' as const, projection, projectionNames: names };
  do {
    const result: QueryCommandOutput = await queryChunk(query, 1000, startKey);
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < MAX_COUNTED_ITEMS);
  return { items, complete: !startKey };
}

/**
 * Every item of a list however long, page by page (only the named attributes), each page handed
 * to `onPage` before the next is read: for cleanups that must miss none, such as a deleted
 * user's tokens, and for schedules that visit what lies in a range of another order (`within`).
 */
export async function forEachListPage<O extends ListOrder = 'id'>(
  list: ListRef<O>,
  projection: string,
  onPage: (items: Record<string, unknown>[]) => Promise<void>,
  within?: { order: NoInfer<O>; range: SortRange; pageSize: number },
): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await queryChunk(
      { list, order: within?.order ?? 'id', sort: 'asc', projection, range: within?.range },
      within?.pageSize,
      startKey,
    );
    await onPage((result.Items ?? []) as Record<string, unknown>[]);
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/**
 * The items of a tree partition whose traversal path begins with `pathPrefix` (a whole subtree,
 * one Query unless it passes 1 MB), items being deleted left out; when there are more than
 * `limit`, `complete` is false and the items are only the first ones (one more is read to tell).
 */
export async function readSubtreeUpTo(
  partition: string,
  pathPrefix: string,
  limit: number,
): Promise<{ items: Record<string, unknown>[]; complete: boolean }> {
  const wanted = limit + 1;
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: treeIndex.name,
        KeyConditionExpression: '#tree = :tree AND begins_with(#path, :path)',
        ExpressionAttributeNames: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
        ExpressionAttributeValues: { ':tree': partition, ':path': pathPrefix },
        ExclusiveStartKey: startKey,
        Limit: Number.isFinite(wanted) ? wanted - items.length : undefined,
      }),
    );
    items.push(...((result.Items ?? []) as Record<string, unknown>[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < wanted);
  return { items: items.filter((item) => !item.deleting), complete: items.length <= limit };
}

/** Merges raw items from several lists into one order, dropping repeats of the same item. */
export function mergeSorted(
  sources: Record<string, unknown>[][],
  order: ListOrder,
  sort: 'asc' | 'desc',
): Record<string, unknown>[] {
  const attribute = listSortAttributes[order];
  const seen = new Set<string>();
  const merged: Record<string, unknown>[] = [];
  for (const item of sources.flat()) {
    const key = keyString(item);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(item);
  }
  merged.sort((a, b) => {
    const left = String(a[attribute] ?? '');
    const right = String(b[attribute] ?? '');
    const compared = left < right ? -1 : left > right ? 1 : 0;
    return sort === 'asc' ? compared : -compared;
  });
  return merged;
}

export interface MergedListQuery<T, O extends ListOrder> {
  /** Lists read in the requested order (e.g. every public and internal project). */
  lists: ListRef<O>[];
  /**
   * Lists known only once something else was read (e.g. those of the groups a caller belongs
   * to), read like `partitions` as soon as each set is known.
   */
  laterLists?: Promise<ListRef<O>[]>[];
  /**
   * The reader's own raw items (e.g. private projects they reach), merged in; all of them, as a
   * promise when they are still being read, so their reads overlap the lists' reads.
   */
  extra: Record<string, unknown>[] | Promise<Record<string, unknown>[]>;
  order: NoInfer<O>;
  sort: 'asc' | 'desc';
  page: PageRequest;
  decode: (item: Record<string, unknown>) => T;
  filter?: (entity: T) => boolean;
  /**
   * Bounds on the order's sort attribute, read as key conditions. Only with a `filter` that
   * holds the same bounds (the extra items and the total are judged by it).
   */
  range?: SortRange;
}

const refName = (ref: ListName) => `${ref.attribute}|${ref.partition}`;

/**
 * One page merged from several lists plus caller-specific items. Without a filter each list is
 * read only to the end of the requested page and the total comes from the lists' counters; an
 * extra item that belongs to one of the lists counts (and is found) there.
 */
export async function listMerged<T, O extends ListOrder>(query: MergedListQuery<T, O>): Promise<ListPage<T>> {
  if (query.page.keyset) return keysetMerged(query, keysetStart(query.page));
  const offset = offsetOf(query.page);
  const wanted = offset + query.page.perPage;
  const first = query.lists;
  const refs = Promise.all([first, ...(query.laterLists ?? [])]).then((sets) => sets.flat());
  const notListed = async (items: Record<string, unknown>[]) => {
    const listed = new Set((await refs).map(refName));
    return items.filter((item) => !listsOfItem(item).some((ref) => listed.has(refName(ref))));
  };
  /** Each set of lists starts its reads as soon as it is known. */
  const eachSet = <R>(read: (ref: ListRef<O>) => Promise<R>) =>
    Promise.all(
      [Promise.resolve(first), ...(query.laterLists ?? [])].map((set) =>
        set.then((known) => Promise.all(known.map(read))),
      ),
    ).then((parts) => parts.flat());
  if (!query.filter) {
    const [heads, counts, extra] = await Promise.all([
      eachSet((ref) => readListHead(ref, query.order, query.sort, wanted)),
      eachSet(readListCount),
      Promise.resolve(query.extra).then(notListed),
    ]);
    const merged = mergeSorted([...heads, extra], query.order, query.sort);
    const total = counts.reduce((sum, count) => sum + count, 0) + distinctCount(extra);
    return { items: (await withCounters(merged.slice(offset, wanted))).map(query.decode), total };
  }
  const [whole, extra] = await Promise.all([
    eachSet((ref) => readWholeList(ref, query.order, query.range)),
    Promise.resolve(query.extra).then(notListed),
  ]);
  const filter = query.filter;
  const merged = mergeSorted([...whole.map((part) => part.items), extra], query.order, query.sort).filter(
    (raw) => filter(query.decode(raw)),
  );
  const complete = whole.every((part) => part.complete);
  const page = (await withCounters(merged.slice(offset, wanted))).map(query.decode);
  return { items: page, total: complete ? merged.length : undefined };
}

const distinctCount = (items: Record<string, unknown>[]) => new Set(items.map(keyString)).size;

/** Whether `item` lies after `position` in the order (sort values are unique per item). */
const isAfter = (
  item: Record<string, unknown>,
  order: ListOrder,
  sort: 'asc' | 'desc',
  position: ItemPosition,
) => {
  const value = String(item[listSortAttributes[order]] ?? '');
  return sort === 'asc' ? value > position.sort : value < position.sort;
};

/**
 * A keyset page merged from several lists: each list is read from just after the cursor's item
 * (one more item than the page without a filter; up to KEYSET_READ_BOUND with one), the caller's
 * own items after it merged in, nothing counted. With a filter, only what lies before the first
 * point where a list's read stopped is known in full, so the page ends there at the latest.
 */
async function keysetMerged<T, O extends ListOrder>(
  query: MergedListQuery<T, O>,
  start: ItemPosition | undefined,
): Promise<ListPage<T>> {
  const { order, sort, page } = query;
  const limit = query.filter ? KEYSET_READ_BOUND : page.perPage + 1;
  const sets = [Promise.resolve(query.lists), ...(query.laterLists ?? [])];
  const refs = Promise.all(sets).then((known) => known.flat());
  const [parts, extra, listed] = await Promise.all([
    Promise.all(
      sets.map((set) =>
        set.then((known) =>
          Promise.all(
            known.map((list) => readListFrom({ list, order, sort, range: query.range }, start, limit)),
          ),
        ),
      ),
    ).then((read) => read.flat()),
    Promise.resolve(query.extra),
    refs.then((known) => new Set(known.map(refName))),
  ]);
  const own = extra.filter(
    (item) =>
      (start === undefined || isAfter(item, order, sort, start)) &&
      !listsOfItem(item).some((ref) => listed.has(refName(ref))),
  );
  let merged = mergeSorted([...parts.map((part) => part.items), own], order, sort);
  // The first item past which some list was not read: nothing beyond it is known to be complete.
  const horizons = parts.filter((part) => !part.complete).map((part) => part.items.at(-1));
  const horizon = mergeSorted(
    [horizons.filter((item): item is Record<string, unknown> => item !== undefined)],
    order,
    sort,
  )[0];
  if (horizon) {
    const bound = itemPosition(horizon, order);
    merged = merged.filter((item) => !isAfter(item, order, sort, bound));
  }
  const filter = query.filter;
  const chosen: Record<string, unknown>[] = [];
  let last: Record<string, unknown> | undefined;
  let index = 0;
  for (; index < merged.length && chosen.length < page.perPage; index++) {
    const raw = merged[index] as Record<string, unknown>;
    last = raw;
    if (!filter || filter(query.decode(raw))) chosen.push(raw);
  }
  const more = index < merged.length || horizon !== undefined;
  recordNext(page, order, more ? (index < merged.length ? last : (horizon ?? last)) : undefined);
  return { items: (await withCounters(chosen)).map(query.decode), total: undefined };
}

/**
 * One page of raw items already sorted in `order` (by mergeSorted): by offset with their total,
 * or for a keyset page the items just after the cursor's item, found by its sort value, so items
 * that came or went before it shift nothing.
 */
export function pageOfSorted<R extends Record<string, unknown>>(
  sorted: R[],
  order: ListOrder,
  sort: 'asc' | 'desc',
  page: PageRequest,
): { items: R[]; total: number | undefined } {
  if (!page.keyset) {
    const offset = offsetOf(page);
    return { items: sorted.slice(offset, offset + page.perPage), total: sorted.length };
  }
  const start = keysetStart(page);
  const from = start === undefined ? 0 : sorted.findIndex((item) => isAfter(item, order, sort, start));
  const first = from < 0 ? sorted.length : from;
  const items = sorted.slice(first, first + page.perPage);
  recordNext(page, order, first + page.perPage < sorted.length ? items.at(-1) : undefined);
  return { items, total: undefined };
}
