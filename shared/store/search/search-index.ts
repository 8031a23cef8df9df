/**
 * The search index of projects and of groups: one small posting item per search key (see
 * #domain/search.ts) in the project's or group's partition, listed under the key in id order
 * (each kind in lists of its own). Postings are written by a worker; until it has run, a pending
 * marker (written in the same transaction as the change) keeps the project or group a candidate
 * for every search, so a search never misses one. Candidates are always checked against the item
 * itself, so a posting left over from an older name costs a read, never a wrong answer.
 */

import { randomUUID } from 'node:crypto';
import { groupSearchColumns, searchColumns, searchKeysOf } from '#domain/search.ts';
import { batchWriteItems } from '../table/batch.ts';
import { getItem, readPartition } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, type ListRef, lists, sortAttributes } from '../table/list-keys.ts';
import { listCountChange, readListCounts, readListHead, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { put, remove, type TransactItem, writeAlone } from '../table/transaction.ts';

type Key = { pk: string; sk: string };

/** Where one kind of thing keeps its part of the index, and what of it is searched. */
export interface SearchIndexKind {
  /** The item indexed. */
  item: (id: number) => Key;
  posting: (id: number, searchKey: string) => Key;
  pending: (id: number) => Key;
  postings: (searchKey: string) => ListRef;
  pendingList: ListRef;
  /** The attribute naming the indexed item's id on postings and markers. */
  idAttribute: 'project_id' | 'group_id';
  postingKind: string;
  pendingKind: string;
  /** The searched columns of a stored item. */
  columns: (item: Raw) => string[];
}

export const projectSearchIndex: SearchIndexKind = {
  item: keys.project,
  posting: keys.searchPosting,
  pending: keys.searchPending,
  postings: lists.searchPostings,
  pendingList: lists.searchPending,
  idAttribute: 'project_id',
  postingKind: 'search_posting',
  pendingKind: 'search_pending',
  columns: (item) =>
    searchColumns({
      name: String(item.name),
      path: String(item.path),
      description: (item.description as string | null | undefined) ?? null,
    }),
};

export const groupSearchIndex: SearchIndexKind = {
  item: keys.group,
  posting: keys.groupSearchPosting,
  pending: keys.groupSearchPending,
  postings: lists.groupSearchPostings,
  pendingList: lists.groupSearchPending,
  idAttribute: 'group_id',
  postingKind: 'group_search_posting',
  pendingKind: 'group_search_pending',
  columns: (item) => groupSearchColumns({ name: String(item.name), path: String(item.path) }),
};

/** The posting items of a project or group (also used to seed benchmarks exactly as the worker writes them). */
export function searchPostingItems(index: SearchIndexKind, id: number, columns: readonly string[]): Raw[] {
  return searchKeysOf(columns).map((key) => ({
    ...index.posting(id, key),
    kind: index.postingKind,
    [index.idAttribute]: id,
    search_key: key,
    ...inLists(index.postings(key)),
    ...sortAttributes({ id }),
  }));
}

/** The posting items of a project. */
export const postingItems = (projectId: number, columns: readonly string[]): Raw[] =>
  searchPostingItems(projectSearchIndex, projectId, columns);

/**
 * The pending marker, put in the transaction that creates a project or group or changes its
 * searchable text; each write gets a new version so the worker removes only the marker it has served.
 */
export function pendingMarkerPut(index: SearchIndexKind, id: number): TransactItem {
  return put({
    ...index.pending(id),
    kind: index.pendingKind,
    [index.idAttribute]: id,
    version: randomUUID(),
    ...inLists(index.pendingList),
    ...sortAttributes({ id }),
  });
}

export const searchPendingPut = (projectId: number) => pendingMarkerPut(projectSearchIndex, projectId);
export const groupSearchPendingPut = (groupId: number) => pendingMarkerPut(groupSearchIndex, groupId);

/**
 * The worker's step: writes the postings of the item's current text, then removes the marker it
 * read, unless a newer change replaced it meanwhile (that change's message does the rest). Safe
 * to run twice and on an item deleted meanwhile (its purge removes what is left).
 */
export async function indexForSearch(index: SearchIndexKind, id: number): Promise<void> {
  const marker = await getItem(index.pending(id));
  if (!marker) return;
  const [item, existing] = await Promise.all([getItem(index.item(id)), postingKeysOf(index, id)]);
  if (item && !item.deleting) {
    const added = searchPostingItems(index, id, index.columns(item)).filter(
      (posting) => !existing.has(String(posting.search_key)),
    );
    await batchWriteItems(added);
    // How many items each key lists: it only chooses which key a search reads, so a count
    // off by a retried message costs a little more reading, never a wrong answer.
    await Promise.all(
      added.map((posting) => writeAlone(listCountChange(index.postings(String(posting.search_key)), 1))),
    );
  }
  await writeAlone(remove(index.pending(id), 'version = :version', { ':version': marker.version }));
}

export const indexProjectForSearch = (projectId: number) => indexForSearch(projectSearchIndex, projectId);
export const indexGroupForSearch = (groupId: number) => indexForSearch(groupSearchIndex, groupId);

/** The search keys an item is already listed under. */
async function postingKeysOf(index: SearchIndexKind, id: number): Promise<Set<string>> {
  const postings = await readPartition(index.item(id).pk, {
    skPrefix: index.posting(id, '').sk,
    projection: 'search_key',
  });
  return new Set(postings.map((item) => String(item.search_key)));
}

/**
 * A group's postings and pending marker, for its purge: one read of its partition, as both sort
 * keys begin with `SEARCH` (SEARCH#<key> and SEARCHPENDING).
 */
export async function groupSearchItemKeys(groupId: number): Promise<Key[]> {
  const pending = keys.groupSearchPending(groupId);
  const items = await readPartition(pending.pk, {
    skPrefix: 'SEARCH',
    projection: 'pk, sk',
    consistent: true,
  });
  return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/** Postings read for a search at most; a term whose every key lists more is too common to narrow. */
export const MAX_CANDIDATES = 200;

/**
 * Ids of the projects (or groups) that may match a search: those listed under the least common of
 * the term's keys (chosen by the keys' counts, read in one batch), plus every one still waiting
 * for the worker. Undefined when that key lists more than MAX_CANDIDATES (the term is too common
 * for the index to help).
 */
export async function candidateIdsOf(
  index: SearchIndexKind,
  searchKeys: string[],
): Promise<number[] | undefined> {
  const pending = readPending(index);
  pending.catch(() => undefined);
  const totals = await readListCounts(searchKeys.map((key) => index.postings(key)));
  const counts = new Map(searchKeys.map((key, at) => [key, totals[at] ?? 0]));
  const countOf = (key: string) => counts.get(key) ?? 0;
  const rarest = [...searchKeys].sort((a, b) => countOf(a) - countOf(b))[0];
  if (rarest === undefined) return undefined;
  const postings = await readListHead(index.postings(rarest), 'id', 'asc', MAX_CANDIDATES + 1);
  const waiting = await pending;
  if (postings.length > MAX_CANDIDATES || !waiting) return undefined;
  return [...new Set([...postings, ...waiting].map((item) => Number(item[index.idAttribute])))];
}

export const searchCandidateIds = (searchKeys: string[]) => candidateIdsOf(projectSearchIndex, searchKeys);
export const groupSearchCandidateIds = (searchKeys: string[]) => candidateIdsOf(groupSearchIndex, searchKeys);

/**
 * Every pending marker (normally none: the worker runs within moments of each change); undefined
 * when there are too many to read, and the search is left to the lists.
 */
async function readPending(index: SearchIndexKind): Promise<Raw[] | undefined> {
  const { items, complete } = await readWholeList(index.pendingList);
  return complete ? items : undefined;
}
