/**
 * Project snippets. A snippet heads its own partition (`SNIPPET#<id>`, by its global id), where its
 * notes live too; it joins its project's list of snippets (`l1`), counted in the same transaction
 * as it joins or leaves it, on the condition that the project is still there.
 *
 * Content is never shown in a list, so a snippet's item keeps only short content; longer content
 * (up to 1,000,000 characters, which may be 4 MB) is gzipped into parts of the snippet's partition
 * (`CONTENT#<version>#<n>`), written before the item that names them. Each content write has a new
 * version, and a change of content is made on the condition that the version read is still the
 * item's, so the parts replaced are known and removed, and none is left behind or lost.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { notFound } from '#domain/errors.ts';
import type { NoteParent } from '#domain/notes.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { NewSnippet, Snippet } from '#domain/snippets.ts';
import type { User } from '#domain/users.ts';
import { batchDeleteItems, batchGetItems, batchWriteItems } from './batch.ts';
import { nextId } from './ids.ts';
import { getItem } from './items.ts';
import { inLists, keys, lists, sortAttributes, stripStorage } from './keys.ts';
import { type ListPage, listCountChange, queryList } from './lists.ts';
import { removeParentPartition } from './noteable-purge.ts';
import {
  check,
  commit,
  lockLost,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  retrying,
  update,
} from './transaction.ts';
import { getUsers } from './users.ts';

type Raw = Record<string, unknown>;

/** A snippet as stored: its note counts and where its content is. */
export interface StoredSnippet extends Snippet {
  /** All its notes (system ones too), the notes list's total. */
  notes_count: number;
  user_notes_count: number;
  /** New with each content write: names the content's parts and guards changes of content. */
  content_version: string;
  /** Short content, kept in the snippet's item. */
  content?: string;
  /** How many gzipped parts hold longer content. */
  content_parts?: number;
}

/** Content up to this many bytes stays in the snippet's item (lists read it, never show it). */
const INLINE_CONTENT_BYTES = 16_384;
/** Each part of gzipped content (an item holds 400 KB in all). */
const PART_BYTES = 300_000;

/** Alive: there, and not being removed with its project. */
const LIVE = 'attribute_exists(pk) AND attribute_not_exists(deleting)';

const contentPartKey = keys.snippetContentPart;

const newVersion = () => randomBytes(6).toString('hex');

interface StoredContent {
  version: string;
  fields: { content: string } | { content_parts: number };
  parts: Raw[];
}

/** How content is stored under a version: in the item, or gzipped in parts written beside it. */
function storedContent(snippetId: number, content: string): StoredContent {
  const version = newVersion();
  if (Buffer.byteLength(content) <= INLINE_CONTENT_BYTES) return { version, fields: { content }, parts: [] };
  const zipped = gzipSync(content);
  const parts: Raw[] = [];
  for (let start = 0, index = 0; start < zipped.length; start += PART_BYTES, index++) {
    parts.push({
      ...contentPartKey(snippetId, version, index),
      kind: 'snippet_content',
      data: zipped.subarray(start, start + PART_BYTES),
    });
  }
  return { version, fields: { content_parts: parts.length }, parts };
}

const partKeys = (snippetId: number, version: string, count: number) =>
  Array.from({ length: count }, (_, index) => contentPartKey(snippetId, version, index));

/** Removes the parts of a content version no item names any more. */
const removeParts = (snippetId: number, version: string, count: number | undefined) =>
  count ? batchDeleteItems(partKeys(snippetId, version, count)) : Promise.resolve();

export function decodeSnippet(item: Raw): StoredSnippet {
  const {
    kind: _kind,
    deleting: _deleting,
    ...snippet
  } = stripStorage<StoredSnippet & { kind: string; deleting?: boolean }>(item);
  return {
    ...snippet,
    notes_count: Number(snippet.notes_count ?? 0),
    user_notes_count: Number(snippet.user_notes_count ?? 0),
    ...(snippet.content_parts === undefined ? {} : { content_parts: Number(snippet.content_parts) }),
  };
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

/** Times the content is read again when a change replaced it between the snippet's read and its parts'. */
const CONTENT_READS = 5;

/** A snippet's content, whole: from its item, or its parts put together. */
export async function readSnippetContent(snippet: StoredSnippet): Promise<string> {
  let current = snippet;
  for (let attempt = 1; ; attempt++) {
    const count = current.content_parts;
    if (count === undefined) return current.content ?? '';
    const found = await batchGetItems(partKeys(current.id, current.content_version, count));
    if (found.length === count) {
      const bySk = new Map(found.map((part) => [String(part.sk), part]));
      const chunks = partKeys(current.id, current.content_version, count).map((key) =>
        Buffer.from(bySk.get(key.sk)?.data as Uint8Array),
      );
      return gunzipSync(Buffer.concat(chunks)).toString('utf8');
    }
    // A change replaced the content (and removed these parts) since the snippet was read.
    if (attempt >= CONTENT_READS) throw lockLost();
    const fresh = await readSnippet(current.id);
    if (!fresh) throw notFound('Snippet');
    current = fresh;
  }
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
): Promise<{ snippet: StoredSnippet; users: Map<number, User> }> {
  const [snippet, users] = await Promise.all([
    writeNewSnippet(fields, content),
    getUsers([fields.author_id]),
  ]);
  return { snippet, users };
}

async function writeNewSnippet(fields: NewSnippet, content: string): Promise<StoredSnippet> {
  const id = await nextId('snippet');
  const now = new Date().toISOString();
  const stored = storedContent(id, content);
  const snippet: StoredSnippet = {
    ...fields,
    id,
    created_at: now,
    updated_at: now,
    notes_count: 0,
    user_notes_count: 0,
    content_version: stored.version,
    ...stored.fields,
  };
  if (stored.parts.length) await batchWriteItems(stored.parts);
  try {
    await commit([
      refusedWith(check(keys.project(fields.project_id), LIVE), notFound('Project')),
      put(snippetItem(snippet), NEW_ITEM),
      listCountChange(lists.projectSnippets(fields.project_id), 1),
    ]);
  } catch (error) {
    await removeParts(id, stored.version, stored.parts.length);
    throw error;
  }
  return snippet;
}

/** Another change replaced the content since it was read: read the version again. */
class ContentChanged extends Error {}

/** Attempts at replacing content; each loses only to a change that succeeded. */
const CHANGE_ATTEMPTS = 50;

/**
 * Changes a snippet: the fields sent and, when sent, its content (on the condition that the content
 * read is still the item's; the parts it replaced are removed after). 404 `Snippet Not Found` when
 * it went away meanwhile.
 */
export async function changeSnippet(
  snippet: StoredSnippet,
  changes: Partial<Snippet>,
  content?: string,
): Promise<StoredSnippet> {
  const stored = content === undefined ? undefined : storedContent(snippet.id, content);
  if (stored?.parts.length) await batchWriteItems(stored.parts);
  let written: { changed: StoredSnippet; replaced?: StoredSnippet };
  try {
    written = await retrying(
      { times: CHANGE_ATTEMPTS, retry: (error) => error instanceof ContentChanged, backoff: true },
      snippet,
      (current) => writeSnippetChange(current, changes, stored),
      async (current) => {
        const fresh = await readSnippet(current.id);
        if (!fresh) throw notFound('Snippet');
        return fresh;
      },
    );
  } catch (error) {
    // Nothing names the new content's parts: they go, and a change that kept losing is a conflict.
    if (stored) await removeParts(snippet.id, stored.version, stored.parts.length);
    throw error instanceof ContentChanged ? lockLost() : error;
  }
  const { changed, replaced } = written;
  if (replaced) await removeParts(snippet.id, replaced.content_version, replaced.content_parts);
  return changed;
}

async function writeSnippetChange(
  current: StoredSnippet,
  changes: Partial<Snippet>,
  stored: StoredContent | undefined,
): Promise<{ changed: StoredSnippet; replaced?: StoredSnippet }> {
  const now = new Date().toISOString();
  const contentFields = stored ? { content_version: stored.version, ...stored.fields } : {};
  const fields: Raw = {
    ...changes,
    ...contentFields,
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
  const dropped = stored ? ('content' in stored.fields ? 'content_parts' : 'content') : undefined;
  if (dropped) names['#dropped'] = dropped;
  let condition = LIVE;
  if (stored) {
    condition += ' AND content_version = :previous';
    values[':previous'] = current.content_version;
  }
  await commit([
    refusedReading(
      update(keys.snippet(current.id), `SET ${sets.join(', ')}${dropped ? ' REMOVE #dropped' : ''}`, {
        condition,
        names,
        values,
      }),
      (stored) => (stored && !stored.deleting ? new ContentChanged() : notFound('Snippet')),
    ),
  ]);
  const { content: _content, content_parts: _parts, ...rest } = current;
  const base: StoredSnippet = stored ? rest : current;
  return {
    changed: { ...base, ...changes, ...contentFields, updated_at: now },
    ...(stored ? { replaced: current } : {}),
  };
}

/** Removes a snippet, counted off its project's list in the same transaction, then its notes and content. */
export async function deleteSnippet(snippet: Snippet): Promise<void> {
  const key = keys.snippet(snippet.id);
  await commit([
    refusedWith(remove(key, LIVE), notFound('Snippet')),
    listCountChange(lists.projectSnippets(snippet.project_id), -1),
  ]);
  await removeParentPartition(key.pk);
}
