/**
 * Personal snippets: snippet items (./snippets.ts: the same partition, `SNIPPET#<id>` by the global
 * id, and the same way of keeping content) with `project_id` null. Each is in two lists: its
 * author's (`l1`) and that of its visibility (`l2`), both counted in the transaction that puts,
 * moves or removes it. A move between visibility lists is made on the condition that the visibility
 * read is still the item's, so the counts stay exact under concurrent changes.
 *
 * No project list names a personal snippet and the project routes compare its `project_id`, so a
 * personal snippet is never found there, and a project's snippet is never found here.
 */

import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { ApiError, notFound } from '#domain/errors.ts';
import type { PageRequest } from '#domain/pagination.ts';
import {
  type CreatedWindow,
  createdWithin,
  isEmptyWindow,
  type NewPersonalSnippet,
  type PersonalSnippet,
  type PersonalSnippetReach,
} from '#domain/personal-snippets.ts';
import type { UserAgentDetail } from '#domain/user-agent-details.ts';
import type { User } from '#domain/users.ts';
import { shardTombstones } from '../table/counters.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, type ListRef, lists, sortAttributes } from '../table/list-keys.ts';
import {
  forEachListPage,
  type ListPage,
  listCountChange,
  listMerged,
  queryList,
  readWholeList,
  type SortRange,
} from '../table/lists.ts';
import { removeDropped, type StoredText } from '../table/long-text.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  LIVE_ITEM,
  lockLost,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  retrying,
  update,
} from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import { removeParentPartition } from './noteable-purge.ts';
import { decodeSnippet, CONTENT as SNIPPET_CONTENT, writeSnippetWith } from './snippets.ts';

/** A personal snippet as stored: its note counts, where its content is, and its creating client. */
export interface StoredPersonalSnippet extends PersonalSnippet {
  notes_count: number;
  user_notes_count: number;
  content_version: string;
  content?: string;
  content_parts?: number;
  user_agent_detail?: UserAgentDetail;
}

const isPersonal = (item: Raw) => item.kind === 'snippet' && item.project_id === null && !item.deleting;

const decodePersonalSnippet = (item: Raw) => decodeSnippet(item) as unknown as StoredPersonalSnippet;

const visibilityList = (visibility: Visibility) => lists.personalSnippetsWithVisibility(visibility);

function personalSnippetItem(snippet: StoredPersonalSnippet): Raw {
  return {
    ...keys.snippet(snippet.id),
    ...snippet,
    kind: 'snippet',
    ...inLists(lists.personalSnippetsOfUser(snippet.author_id), visibilityList(snippet.visibility)),
    ...sortAttributes({ id: snippet.id, created_at: snippet.created_at, updated_at: snippet.updated_at }),
  };
}

// Reads ------------------------------------------------------------------------------------------

/** A personal snippet by id, or undefined (also for a project's snippet of that id). */
export async function readPersonalSnippet(id: number): Promise<StoredPersonalSnippet | undefined> {
  const item = await getItem(keys.snippet(id));
  return item && isPersonal(item) ? decodePersonalSnippet(item) : undefined;
}

/** A personal snippet with its author (for the entity), or undefined. */
export async function readPersonalSnippetWithAuthor(
  id: number,
): Promise<{ snippet: StoredPersonalSnippet | undefined; users: Map<number, User> }> {
  const snippet = await readPersonalSnippet(id);
  return { snippet, users: snippet ? await getUsers([snippet.author_id]) : new Map<number, User>() };
}

async function freshPersonalSnippet(snippet: StoredPersonalSnippet): Promise<StoredPersonalSnippet> {
  const fresh = await readPersonalSnippet(snippet.id);
  if (!fresh) throw notFound('Snippet');
  return fresh;
}

/** A personal snippet's whole content (read again with the snippet when a change replaced it meanwhile). */
export async function readPersonalSnippetContent(snippet: StoredPersonalSnippet): Promise<string> {
  const [content] = await SNIPPET_CONTENT.read([snippet], {
    key: (owner) => keys.snippet(owner.id),
    reread: freshPersonalSnippet,
    decode: (_owner, text) => text ?? '',
  });
  return content ?? '';
}

type PageWithUsers = ListPage<StoredPersonalSnippet> & { users: Map<number, User> };

async function withAuthors(page: ListPage<StoredPersonalSnippet>): Promise<PageWithUsers> {
  const authors = [...new Set(page.items.map((snippet) => snippet.author_id))];
  return { ...page, users: await getUsers(authors) };
}

/** The page of a window that holds nothing. */
const nothing = (): PageWithUsers => ({ items: [], total: 0, users: new Map() });

/**
 * The key range of a creation window in the created order, whose stored values are the time, U+0000
 * and the id: every value of the last second's time sorts below that time and U+0001.
 */
const createdRange = (window: CreatedWindow): SortRange => ({
  ...(window.after === undefined ? {} : { from: window.after }),
  ...(window.before === undefined ? {} : { to: `${window.before}\u0001` }),
});

/**
 * A page of one list, newest first, with the authors: a window reads only the items inside it
 * (and counts them), else the page is read alone and the total is the list's counter.
 */
async function listPage(
  list: ListRef<'id' | 'created_at' | 'updated_at'>,
  page: PageRequest,
  window: CreatedWindow | undefined,
): Promise<PageWithUsers> {
  if (window && isEmptyWindow(window)) return nothing();
  const query = { order: 'created_at' as const, sort: 'desc' as const, page, decode: decodePersonalSnippet };
  return withAuthors(
    window
      ? await listMerged({
          ...query,
          lists: [list],
          extra: [],
          filter: createdWithin(window),
          range: createdRange(window),
        })
      : await queryList({ ...query, list }),
  );
}

/** A page of a user's personal snippets, newest first, with their authors. */
export const listPersonalSnippetsOfUser = (userId: number, page: PageRequest, window?: CreatedWindow) =>
  listPage(lists.personalSnippetsOfUser(userId), page, window);

/** A page of the public personal snippets, newest first, with their authors. */
export const listPublicPersonalSnippets = (page: PageRequest, window?: CreatedWindow) =>
  listPage(visibilityList('public'), page, window);

/**
 * A page of the personal snippets a reach covers, newest first: every visibility's list for all,
 * else the lists of the visibilities open to the reader merged with the reader's own snippets (those
 * in a list already read are counted there).
 */
export async function listReachablePersonalSnippets(
  reach: PersonalSnippetReach,
  page: PageRequest,
  window?: CreatedWindow,
): Promise<PageWithUsers> {
  if (window && isEmptyWindow(window)) return nothing();
  const visibilities = reach.all ? [...VISIBILITIES] : reach.visibilities;
  const own = reach.all
    ? []
    : readWholeList(
        lists.personalSnippetsOfUser(reach.authorId),
        'created_at',
        window && createdRange(window),
      ).then((whole) => whole.items);
  return withAuthors(
    await listMerged({
      lists: visibilities.map(visibilityList),
      extra: own,
      order: 'created_at',
      sort: 'desc',
      page,
      decode: decodePersonalSnippet,
      ...(window ? { filter: createdWithin(window), range: createdRange(window) } : {}),
    }),
  );
}

// Writes -----------------------------------------------------------------------------------------

/**
 * Creates a personal snippet in its author's list and its visibility's, on the condition that the
 * author is still there (a user removed meanwhile leaves no snippet behind), with the creating
 * request's client when it named one; its author is read beside the write for the response.
 */
export async function createPersonalSnippet(
  fields: NewPersonalSnippet,
  content: string,
  client: UserAgentDetail | undefined,
): Promise<{ snippet: StoredPersonalSnippet; users: Map<number, User> }> {
  const [snippet, users] = await Promise.all([
    writeNewPersonalSnippet(fields, content, client),
    getUsers([fields.author_id]),
  ]);
  return { snippet, users };
}

const writeNewPersonalSnippet = (
  fields: NewPersonalSnippet,
  content: string,
  client: UserAgentDetail | undefined,
) =>
  writeSnippetWith<StoredPersonalSnippet>(fields, content, client, (snippet) => [
    refusedWith(check(keys.user(fields.author_id), 'attribute_exists(pk)'), notFound('User')),
    put(personalSnippetItem(snippet), NEW_ITEM),
    listCountChange(lists.personalSnippetsOfUser(fields.author_id), 1),
    listCountChange(visibilityList(fields.visibility), 1),
  ]);

/** Another change (of content or visibility) came first: read the snippet again. */
class SnippetChanged extends Error {}

/** Attempts at a change; each loses only to a change that succeeded. */
const CHANGE_ATTEMPTS = 50;

const retryChanged = {
  times: CHANGE_ATTEMPTS,
  retry: (error: unknown) => error instanceof SnippetChanged,
  backoff: true,
};

/** A refusal of a write on a snippet: gone (404), or changed meanwhile (read again). */
const changedOrGone = (stored: Raw | undefined) =>
  stored && !stored.deleting ? new SnippetChanged() : notFound('Snippet');

/**
 * Changes a personal snippet: the fields sent and, when sent, its content (on the condition that
 * the content read is still the item's) and its visibility (moving it between visibility lists, on
 * the condition that the visibility read is still the item's). 404 `Snippet Not Found` when it went
 * away meanwhile.
 */
export async function changePersonalSnippet(
  snippet: StoredPersonalSnippet,
  changes: Partial<PersonalSnippet>,
  content?: string,
): Promise<StoredPersonalSnippet> {
  const key = keys.snippet(snippet.id);
  const stored = content === undefined ? undefined : SNIPPET_CONTENT.store(key, content);
  try {
    return await SNIPPET_CONTENT.replace(key, stored, () =>
      retrying(
        retryChanged,
        snippet,
        (current) => writeChange(current, changes, stored),
        freshPersonalSnippet,
      ),
    );
  } catch (error) {
    // A change that kept losing is a conflict.
    throw error instanceof SnippetChanged ? lockLost() : error;
  }
}

async function writeChange(
  current: StoredPersonalSnippet,
  changes: Partial<PersonalSnippet>,
  stored: StoredText | undefined,
): Promise<{ value: StoredPersonalSnippet; replaced?: StoredPersonalSnippet }> {
  const now = new Date().toISOString();
  const contentFields = stored?.fields ?? {};
  const moving = changes.visibility !== undefined && changes.visibility !== current.visibility;
  const fields: Raw = {
    ...changes,
    ...contentFields,
    ...(moving && changes.visibility ? inLists(visibilityList(changes.visibility)) : {}),
    updated_at: now,
    ...sortAttributes({ id: current.id, updated_at: now }),
  };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  // The other way of keeping content goes.
  const removing = removeDropped(stored, names);
  let condition = LIVE_ITEM;
  if (stored) {
    const unchanged = SNIPPET_CONTENT.unchanged(current);
    condition += ` AND ${unchanged.condition}`;
    Object.assign(values, unchanged.values);
  }
  // Sent at all, the visibility is written on the condition it is still the one read: written over
  // a concurrent move, it would no longer match the visibility list the item is in.
  if (changes.visibility !== undefined) {
    condition += ' AND #visibility = :visibilityRead';
    names['#visibility'] = 'visibility';
    values[':visibilityRead'] = current.visibility;
  }
  await commit([
    refusedReading(
      update(keys.snippet(current.id), `SET ${sets.join(', ')}${removing}`, { condition, names, values }),
      changedOrGone,
    ),
    ...(moving && changes.visibility
      ? [
          listCountChange(visibilityList(current.visibility), -1),
          listCountChange(visibilityList(changes.visibility), 1),
        ]
      : []),
  ]);
  const { content: _content, content_parts: _parts, ...rest } = current;
  const base: StoredPersonalSnippet = stored ? rest : current;
  return {
    value: { ...base, ...changes, ...contentFields, updated_at: now } as StoredPersonalSnippet,
    ...(stored ? { replaced: current } : {}),
  };
}

/**
 * Removes a personal snippet, counted off its author's list and its visibility's in the same
 * transaction (on the condition that its visibility is still the one read), then its notes and
 * content. 404 `Snippet Not Found` when it went away meanwhile.
 */
export async function deletePersonalSnippet(snippet: StoredPersonalSnippet): Promise<void> {
  const key = keys.snippet(snippet.id);
  try {
    await retrying(retryChanged, snippet, (current) => removeItem(current), freshPersonalSnippet);
  } catch (error) {
    throw error instanceof SnippetChanged ? lockLost() : error;
  }
  await removeParentPartition(key.pk);
}

async function removeItem(snippet: StoredPersonalSnippet): Promise<void> {
  const key = keys.snippet(snippet.id);
  await commit([
    refusedReading(
      remove(
        key,
        `${LIVE_ITEM} AND #visibility = :visibility`,
        { ':visibility': snippet.visibility },
        {
          '#visibility': 'visibility',
        },
      ),
      changedOrGone,
    ),
    listCountChange(lists.personalSnippetsOfUser(snippet.author_id), -1),
    listCountChange(visibilityList(snippet.visibility), -1),
    // A late note is refused by the shards from now on (store/table/counters.ts).
    ...shardTombstones(key),
  ]);
}

/**
 * Removes every personal snippet of a removed user (safe to run again: one already removed is
 * skipped).
 */
export async function deletePersonalSnippetsOfUser(userId: number): Promise<void> {
  await forEachListPage(lists.personalSnippetsOfUser(userId), 'pk, sk, id', async (items) => {
    for (const item of items) {
      const snippet = await readPersonalSnippet(Number(item.id));
      if (!snippet) {
        // Its item went, its partition may not have: removed again, harmlessly.
        await removeParentPartition(String(item.pk));
        continue;
      }
      try {
        await deletePersonalSnippet(snippet);
      } catch (error) {
        // Removed meanwhile by its own DELETE.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    }
  });
}
