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
import type { Raw } from '../table/raw.ts';
import { check, NEW_ITEM, put, refusedWith } from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import { removeParentPartition } from './noteable-purge.ts';
import {
  changeSnippetWith,
  decodeSnippet,
  deleteSnippetWith,
  readSnippetContentWith,
  type SnippetChangeExtras,
  type SnippetCondition,
  type SnippetStorage,
  writeSnippetWith,
} from './snippets.ts';

/** A personal snippet as stored: its note counts, where its content is, and its creating client. */
export interface StoredPersonalSnippet extends PersonalSnippet, SnippetStorage {}

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
export const readPersonalSnippetContent = (snippet: StoredPersonalSnippet) =>
  readSnippetContentWith(snippet, freshPersonalSnippet);

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

/**
 * Changes a personal snippet: the fields sent and, when sent, its content (on the condition that
 * the content read is still the item's) and its visibility (moving it between visibility lists, on
 * the condition that the visibility read is still the item's). 404 `Snippet Not Found` when it went
 * away meanwhile.
 */
export const changePersonalSnippet = (
  snippet: StoredPersonalSnippet,
  changes: Partial<PersonalSnippet>,
  content?: string,
) =>
  changeSnippetWith<StoredPersonalSnippet>(snippet, changes, content, freshPersonalSnippet, (current) =>
    visibilityChange(current, changes.visibility),
  );

/**
 * Sent at all, the visibility is written on the condition it is still the one read: written over a
 * concurrent move, it would no longer match the visibility list the item is in. A new one moves the
 * snippet between the visibility lists.
 */
function visibilityChange(
  current: StoredPersonalSnippet,
  visibility: Visibility | undefined,
): SnippetChangeExtras {
  if (visibility === undefined) return {};
  const moving = visibility !== current.visibility;
  return {
    fields: moving ? inLists(visibilityList(visibility)) : {},
    condition: visibilityAsRead(current, 'visibilityRead'),
    steps: moving
      ? [
          listCountChange(visibilityList(current.visibility), -1),
          listCountChange(visibilityList(visibility), 1),
        ]
      : [],
  };
}

const visibilityAsRead = (snippet: StoredPersonalSnippet, placeholder: string): SnippetCondition => ({
  expression: `#visibility = :${placeholder}`,
  names: { '#visibility': 'visibility' },
  values: { [`:${placeholder}`]: snippet.visibility },
});

/**
 * Removes a personal snippet, counted off its author's list and its visibility's in the same
 * transaction (on the condition that its visibility is still the one read), then its notes and
 * content. 404 `Snippet Not Found` when it went away meanwhile.
 */
export const deletePersonalSnippet = (snippet: StoredPersonalSnippet) =>
  deleteSnippetWith(snippet, freshPersonalSnippet, (current) => ({
    lists: [lists.personalSnippetsOfUser(current.author_id), visibilityList(current.visibility)],
    condition: visibilityAsRead(current, 'visibility'),
  }));

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
