/**
 * Project snippets. A snippet heads its own partition (`SNIPPET#<id>`, by its global id), where its
 * notes live too; it joins its project's list of snippets (`l1`), counted in the same transaction
 * as it joins or leaves it, on the condition that the project is still there.
 *
 * Content is never shown in a list, so a snippet's item keeps only short content; longer content
 * (up to 1,000,000 characters, which may be 4 MB) is gzipped into parts of the snippet's partition
 * (`CONTENT#<version>#<n>`, see long-text.ts), written before the item that names them. Each
 * content write has a new version, and a change of content is made on the condition that the
 * version read is still the item's, so the parts replaced are known and removed, and none is left
 * behind or lost.
 */

import { notFound } from '#domain/errors.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { NewSnippet, Snippet } from '#domain/snippets.ts';
import type { UserAgentDetail } from '#domain/user-agent-details.ts';
import type { User } from '#domain/users.ts';
import { shardTombstones } from '../table/counters.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, type ListName, lists, sortAttributes } from '../table/list-keys.ts';
import { type ListPage, listCountChange, queryList } from '../table/lists.ts';
import { longText, removeDropped, type StoredText } from '../table/long-text.ts';
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
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import { removeParentPartition } from './noteable-purge.ts';
import { decodeNoteParent } from './notes.ts';

/** A snippet as stored: its note counts and where its content is. */
export interface StoredSnippet extends Snippet, SnippetStorage {}

/** What the item of a snippet of either kind keeps beside the snippet's fields. */
export interface SnippetStorage {
  /** All its notes (system ones too), the notes list's total. */
  notes_count: number;
  user_notes_count: number;
  /** New with each content write: names the content's parts and guards changes of content. */
  content_version: string;
  /** Short content, kept in the snippet's item. */
  content?: string;
  /** How many gzipped parts hold longer content. */
  content_parts?: number;
  /** The client of the request that created it (none for snippets created before it was recorded). */
  user_agent_detail?: UserAgentDetail;
}

/**
 * Content up to 16 KB stays in the snippet's item (lists read it, never show it); longer content
 * goes gzipped to parts, whatever its gzipped size.
 */
export const CONTENT = longText({
  plain: 'content',
  inlineBytes: 16_384,
  parts: {
    attribute: 'content_parts',
    version: 'content_version',
    versionBytes: 6,
    kind: 'snippet_content',
    key: keys.snippetContentPart,
  },
});

export function decodeSnippet(item: Raw): StoredSnippet {
  const snippet = decodeNoteParent<StoredSnippet>(item);
  return snippet.content_parts === undefined
    ? snippet
    : { ...snippet, content_parts: Number(snippet.content_parts) };
}

function snippetItem(snippet: StoredSnippet): Raw {
  return {
    ...keys.snippet(snippet.id),
    ...snippet,
    kind: 'snippet',
    ...inLists(lists.projectSnippets(snippet.project_id)),
    ...sortAttributes({ id: snippet.id, created_at: snippet.created_at, updated_at: snippet.updated_at }),
  };
}

/** The parent a note on this snippet records. */
export const snippetAsParent = (snippet: Snippet): NoteParent => ({
  type: 'Snippet',
  id: snippet.id,
  iid: null,
  project_id: snippet.project_id,
});

// Reads ------------------------------------------------------------------------------------------

/** A snippet by id (of whichever project: the caller's route checks it is the project's), or undefined. */
export async function readSnippet(id: number): Promise<StoredSnippet | undefined> {
  const item = await getItem(keys.snippet(id));
  return item && item.kind === 'snippet' && !item.deleting ? decodeSnippet(item) : undefined;
}

/** The snippet read again after a change of its content (404 `Snippet Not Found` when gone). */
async function freshSnippet(snippet: Pick<Snippet, 'id'>): Promise<StoredSnippet> {
  const fresh = await readSnippet(snippet.id);
  if (!fresh) throw notFound('Snippet');
  return fresh;
}

/**
 * A snippet's content, whole: from its item, or its parts put together (read again, with the
 * snippet, when a change replaced them since the snippet was read).
 */
export const readSnippetContent = (snippet: StoredSnippet) => readSnippetContentWith(snippet, freshSnippet);

/** The content of a snippet of either kind (see readSnippetContent), read again with `reread`. */
export async function readSnippetContentWith<S extends { id: number }>(
  snippet: S,
  reread: (snippet: S) => Promise<S>,
): Promise<string> {
  const [content] = await CONTENT.read([snippet], {
    key: (owner) => keys.snippet(owner.id),
    reread,
    decode: (_owner, text) => text ?? '',
  });
  return content ?? '';
}

export interface SnippetListQuery {
  page: PageRequest;
  /** The snippets the caller may read, when not all (a filtered list counts its matches). */
  filter?: (snippet: Snippet) => boolean;
}

/** A page of a project's snippets, newest first (GitLab's `fresh`), with their authors. */
export async function listSnippetsWithUsers(
  projectId: number,
  query: SnippetListQuery,
): Promise<ListPage<StoredSnippet> & { users: Map<number, User> }> {
  const page = await queryList({
    list: lists.projectSnippets(projectId),
    order: 'created_at',
    sort: 'desc',
    page: query.page,
    decode: decodeSnippet,
    filter: query.filter,
  });
  const authors = [...new Set(page.items.map((snippet) => snippet.author_id))];
  return { ...page, users: await getUsers(authors) };
}

// Writes -----------------------------------------------------------------------------------------

/**
 * Creates a snippet by a user in its project's list (404 when the project went away meanwhile),
 * with its author read beside the write for the response.
 */
export async function createSnippetBy(
  fields: NewSnippet,
  content: string,
  client?: UserAgentDetail,
): Promise<{ snippet: StoredSnippet; users: Map<number, User> }> {
  const [snippet, users] = await Promise.all([
    writeNewSnippet(fields, content, client),
    getUsers([fields.author_id]),
  ]);
  return { snippet, users };
}

const writeNewSnippet = (fields: NewSnippet, content: string, client: UserAgentDetail | undefined) =>
  writeSnippetWith<StoredSnippet>(fields, content, client, (snippet) => [
    refusedWith(check(keys.project(fields.project_id), LIVE_ITEM), notFound('Project')),
    put(snippetItem(snippet), NEW_ITEM),
    listCountChange(lists.projectSnippets(fields.project_id), 1),
  ]);

/**
 * A new snippet (project or personal) with a fresh id, its content kept as long texts are (parts
 * first), committed with the steps its kind adds (its item, its lists, what must still exist).
 */
export async function writeSnippetWith<S extends { id: number }>(
  fields: NewSnippet | Omit<NewSnippet, 'project_id'>,
  content: string,
  client: UserAgentDetail | undefined,
  steps: (snippet: S) => (TransactItem | Step)[],
): Promise<S> {
  const id = await nextId('snippet');
  const now = new Date().toISOString();
  const key = keys.snippet(id);
  const stored = CONTENT.store(key, content);
  const snippet = {
    ...fields,
    id,
    created_at: now,
    updated_at: now,
    notes_count: 0,
    user_notes_count: 0,
    ...stored.fields,
    ...(client && { user_agent_detail: client }),
  } as unknown as S;
  return CONTENT.replace(key, stored, async () => {
    await commit(steps(snippet));
    return { value: snippet };
  });
}

/** Another change (of content, or of what a kind of snippet guards) came first: read the snippet again. */
class SnippetChanged extends Error {}

/** Attempts at a change; each loses only to a change that succeeded. */
const CHANGE_ATTEMPTS = 50;

/** A refusal of a write on a snippet: gone (404), or changed meanwhile (read again). */
const changedOrGone = (stored: Raw | undefined) =>
  stored && !stored.deleting ? new SnippetChanged() : notFound('Snippet');

/** Runs a write on a snippet again, on the snippet read again, while another change came first; one that kept losing is a conflict. */
async function retryingChanged<S, T>(
  snippet: S,
  write: (current: S) => Promise<T>,
  reread: (snippet: S) => Promise<S>,
): Promise<T> {
  try {
    return await retrying(
      { times: CHANGE_ATTEMPTS, retry: (error) => error instanceof SnippetChanged, backoff: true },
      snippet,
      write,
      reread,
    );
  } catch (error) {
    throw error instanceof SnippetChanged ? lockLost() : error;
  }
}

/** A condition a kind of snippet puts on its item as read, beside the item being there. */
export interface SnippetCondition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** What a kind of snippet adds to a change: attributes set beside the fields, a condition, steps of the same transaction. */
export interface SnippetChangeExtras {
  fields?: Raw;
  condition?: SnippetCondition;
  steps?: TransactItem[];
}

/** A snippet of either kind as a change reads it. */
type ChangedSnippet = { id: number } & SnippetStorage;

/**
 * Changes a snippet: the fields sent and, when sent, its content (on the condition that the content
 * read is still the item's; the parts it replaced are removed after). 404 `Snippet Not Found` when
 * it went away meanwhile.
 */
export const changeSnippet = (snippet: StoredSnippet, changes: Partial<Snippet>, content?: string) =>
  changeSnippetWith<StoredSnippet>(snippet, changes, content, freshSnippet);

/**
 * Changes a snippet of either kind (see changeSnippet) with what its kind adds to each attempt,
 * made from the snippet as read; an attempt refused by a change that came first is made again on
 * the snippet read again.
 */
export async function changeSnippetWith<S extends ChangedSnippet>(
  snippet: S,
  changes: Partial<S>,
  content: string | undefined,
  reread: (snippet: S) => Promise<S>,
  extras: (current: S) => SnippetChangeExtras = () => ({}),
): Promise<S> {
  const key = keys.snippet(snippet.id);
  const stored = content === undefined ? undefined : CONTENT.store(key, content);
  return CONTENT.replace(key, stored, () =>
    retryingChanged(
      snippet,
      (current) => writeSnippetChange(current, changes, stored, extras(current)),
      reread,
    ),
  );
}

async function writeSnippetChange<S extends ChangedSnippet>(
  current: S,
  changes: Partial<S>,
  stored: StoredText | undefined,
  extras: SnippetChangeExtras,
): Promise<{ value: S; replaced?: S }> {
  const now = new Date().toISOString();
  const contentFields = stored?.fields ?? {};
  const fields: Raw = {
    ...changes,
    ...contentFields,
    ...extras.fields,
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
    const unchanged = CONTENT.unchanged(current);
    condition += ` AND ${unchanged.condition}`;
    Object.assign(values, unchanged.values);
  }
  if (extras.condition) {
    condition += ` AND ${extras.condition.expression}`;
    Object.assign(names, extras.condition.names);
    Object.assign(values, extras.condition.values);
  }
  await commit([
    refusedReading(
      update(keys.snippet(current.id), `SET ${sets.join(', ')}${removing}`, { condition, names, values }),
      changedOrGone,
    ),
    ...(extras.steps ?? []),
  ]);
  const { content: _content, content_parts: _parts, ...rest } = current;
  const base = stored ? rest : current;
  return {
    value: { ...base, ...changes, ...contentFields, updated_at: now } as unknown as S,
    ...(stored ? { replaced: current } : {}),
  };
}

/** Removes a snippet, counted off its project's list in the same transaction, then its notes and content. */
export const deleteSnippet = (snippet: Snippet) =>
  deleteSnippetWith(snippet, freshSnippet, (current) => ({
    lists: [lists.projectSnippets(current.project_id)],
  }));

/**
 * Removes a snippet of either kind, counted off its lists in the same transaction (on the condition
 * its kind puts on the item as read, made again on the snippet read again when a change came first;
 * 404 `Snippet Not Found` when it went away meanwhile), then its notes and content.
 */
export async function deleteSnippetWith<S extends { id: number }>(
  snippet: S,
  reread: (snippet: S) => Promise<S>,
  removal: (current: S) => { lists: ListName[]; condition?: SnippetCondition },
): Promise<void> {
  const key = keys.snippet(snippet.id);
  await retryingChanged(
    snippet,
    async (current) => {
      const { lists: counted, condition } = removal(current);
      await commit([
        condition
          ? refusedReading(
              remove(key, `${LIVE_ITEM} AND ${condition.expression}`, condition.values, condition.names),
              changedOrGone,
            )
          : // Refused only when it is gone.
            refusedWith(remove(key, LIVE_ITEM), notFound('Snippet')),
        ...counted.map((list) => listCountChange(list, -1)),
        // A late note is refused by the shards from now on (store/table/counters.ts).
        ...shardTombstones(key),
      ]);
    },
    reread,
  );
  await removeParentPartition(key.pk);
}
