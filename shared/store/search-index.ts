/**
 * The project search index: one small posting item per search key (see #domain/search.ts) in the
 * project's partition, listed under the key in id order. Postings are written by a worker; until
 * it has run, a project's pending marker (written in the same transaction as the change) keeps it
 * a candidate for every search, so a search never misses a project. Candidates are always checked
 * against the project itself, so a posting left over from an older name costs a read, never a
 * wrong answer.
 */
import { randomUUID } from 'node:crypto';
import type { Project } from '#domain/projects.ts';
import { searchColumns, searchKeysOf } from '#domain/search.ts';
import { batchGetItems, batchWriteItems } from './batch.ts';
import { getItem, readPartition } from './items.ts';
import { inLists, keys, lists, sortAttributes } from './keys.ts';
import { listCountChange, readListHead, readWholeList } from './lists.ts';
import { put, remove, type TransactItem, writeAlone } from './transaction.ts';

type Raw = Record<string, unknown>;

/** The posting items of a project (also used to seed benchmarks exactly as the worker writes them). */
export function postingItems(projectId: number, columns: readonly string[]): Raw[] {
  return searchKeysOf(columns).map((key) => ({
    ...keys.searchPosting(projectId, key),
    kind: 'search_posting',
    project_id: projectId,
    search_key: key,
    ...inLists(lists.searchPostings(key)),
    ...sortAttributes({ id: projectId }),
  }));
}

/**
 * The pending marker, put in the transaction that creates a project or changes its searchable
 * text; each write gets a new version so the worker removes only the marker it has served.
 */
export function searchPendingPut(projectId: number): TransactItem {
  return put({
    ...keys.searchPending(projectId),
    kind: 'search_pending',
    project_id: projectId,
    version: randomUUID(),
    ...inLists(lists.searchPending),
    ...sortAttributes({ id: projectId }),
  });
}

/**
 * The worker's step: writes the postings of the project's current text, then removes the marker
 * it read, unless a newer change replaced it meanwhile (that change's message does the rest).
 * Safe to run twice and on a project deleted meanwhile (its partition goes with it).
 */
export async function indexProjectForSearch(projectId: number): Promise<void> {
  const marker = await getItem(keys.searchPending(projectId));
  if (!marker) return;
  const [project, existing] = await Promise.all([getItem(keys.project(projectId)), postingKeysOf(projectId)]);
  if (project && !project.deleting) {
    const added = postingItems(projectId, searchColumns(project as unknown as Project)).filter(
      (posting) => !existing.has(String(posting.search_key)),
    );
    await batchWriteItems(added);
    // How many projects each key lists: it only chooses which key a search reads, so a count
    // off by a retried message costs a little more reading, never a wrong answer.
    await Promise.all(
      added.map((posting) =>
        writeAlone(listCountChange(lists.searchPostings(String(posting.search_key)), 1)),
      ),
    );
  }
  await writeAlone(
    remove(keys.searchPending(projectId), 'version = :version', { ':version': marker.version }),
  );
}

/** The search keys a project is already listed under. */
async function postingKeysOf(projectId: number): Promise<Set<string>> {
  const postings = await readPartition(keys.project(projectId).pk, {
    skPrefix: keys.searchPosting(projectId, '').sk,
    projection: 'search_key',
  });
  return new Set(postings.map((item) => String(item.search_key)));
}

/** Postings read for a search at most; a term whose every key lists more is too common to narrow. */
export const MAX_CANDIDATES = 200;

/**
 * Ids of the projects that may match a search: those listed under the least common of the term's
 * keys (chosen by the keys' counts, read in one batch), plus every project still waiting for the
 * worker. Undefined when that key lists more than MAX_CANDIDATES projects (the term is too common
 * for the index to help).
 */
export async function searchCandidateIds(searchKeys: string[]): Promise<number[] | undefined> {
  const pending = readPending();
  pending.catch(() => undefined);
  const counts = new Map(
    (await batchGetItems(searchKeys.map((key) => keys.listCount(lists.searchPostings(key))))).map((item) => [
      String(item.pk),
      Number(item.count ?? 0),
    ]),
  );
  const countOf = (key: string) => counts.get(keys.listCount(lists.searchPostings(key)).pk) ?? 0;
  const rarest = [...searchKeys].sort((a, b) => countOf(a) - countOf(b))[0];
  if (rarest === undefined) return undefined;
  const postings = await readListHead(lists.searchPostings(rarest), 'id', 'asc', MAX_CANDIDATES + 1);
  const waiting = await pending;
  if (postings.length > MAX_CANDIDATES || !waiting) return undefined;
  return [...new Set([...postings, ...waiting].map((item) => Number(item.project_id)))];
}

/**
 * Every pending marker (normally none: the worker runs within moments of each change); undefined
 * when there are too many to read, and the search is left to the lists.
 */
async function readPending(): Promise<Raw[] | undefined> {
  const { items, complete } = await readWholeList(lists.searchPending);
  return complete ? items : undefined;
}
