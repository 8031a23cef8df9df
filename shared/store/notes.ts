/**
 * Notes live in their parent's partition (an issue's, a merge request's, a snippet's or an epic's),
 * keyed by id, and sort in that partition's local indexes by created and updated time: a note's
 * read is a GetItem and a page of notes one strongly consistent Query, whatever else the table
 * holds. The parent counts its notes (`notes_count`, and `user_notes_count` without system notes)
 * in the same transaction as each note, so the list's total is read with the parent.
 *
 * A body longer than an item holds (1,000,000 characters may be 4 MB) is stored gzipped, and when
 * even that is too long, in parts beside the note, written before the note that names them.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { recordNotFound } from '#domain/errors.ts';
import { checkedNoteBody, type Note, type NoteParent, newNote } from '#domain/notes.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { User } from '#domain/users.ts';
import { batchGetItems, batchWriteItems, type Key } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { nextId } from './ids.ts';
import { getItem, readPartition } from './items.ts';
import { keys, localSortOf, NOTE_PREFIX, sortAttributes, stripStorage } from './keys.ts';
import { type LocalOrder, listSortAttributes, localIndexName } from './table.ts';
import {
  commit,
  EXISTING_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  type Step,
  type TransactItem,
  update,
  writeAlone,
} from './transaction.ts';
import { getUsers } from './users.ts';

type Raw = Record<string, unknown>;

/** Bodies up to this many bytes are stored as they are (an item holds 400 KB in all). */
const INLINE_BODY_BYTES = 300_000;
const PART_BYTES = 300_000;

interface StoredBody {
  body?: string;
  body_gz?: Uint8Array;
  /** Parts of a gzipped body: their generation (a new one per write) and count. */
  body_parts?: { generation: string; count: number };
}

/** How a body is stored, and the part items to write before the note that names them. */
function storedBody(parentPk: string, noteId: number, body: string): { fields: StoredBody; parts: Raw[] } {
  if (Buffer.byteLength(body) <= INLINE_BODY_BYTES) return { fields: { body }, parts: [] };
  const zipped = gzipSync(body);
  if (zipped.length <= INLINE_BODY_BYTES) return { fields: { body_gz: zipped }, parts: [] };
  const generation = randomBytes(4).toString('hex');
  const parts: Raw[] = [];
  for (let start = 0, index = 0; start < zipped.length; start += PART_BYTES, index++) {
    parts.push({
      ...keys.notePart(parentPk, noteId, index),
      sk: `${keys.notePart(parentPk, noteId, index).sk}#${generation}`,
      kind: 'note_part',
      data: zipped.subarray(start, start + PART_BYTES),
    });
  }
  return { fields: { body_parts: { generation, count: parts.length } }, parts };
}

const partKey = (parentPk: string, noteId: number, index: number, generation: string): Key => {
  const key = keys.notePart(parentPk, noteId, index);
  return { pk: key.pk, sk: `${key.sk}#${generation}` };
};

/** The note items with their bodies put together (parts of long bodies read in one batch). */
async function decodeNotes(items: Raw[]): Promise<Note[]> {
  const partKeys = items.flatMap((item) => {
    const parts = item.body_parts as StoredBody['body_parts'];
    if (!parts) return [];
    return Array.from({ length: parts.count }, (_, index) =>
      partKey(String(item.pk), Number(item.id), index, parts.generation),
    );
  });
  const parts = new Map(
    (partKeys.length ? await batchGetItems(partKeys) : []).map((part) => [String(part.sk), part]),
  );
  return items.map((item) => {
    const {
      body,
      body_gz,
      body_parts,
      kind: _kind,
      ...note
    } = stripStorage<Note & StoredBody & { kind: string }>(item);
    let text = body ?? '';
    if (body_gz) text = gunzipSync(body_gz).toString('utf8');
    if (body_parts) {
      const chunks = Array.from({ length: body_parts.count }, (_, index) => {
        const part = parts.get(partKey(String(item.pk), note.id, index, body_parts.generation).sk);
        return Buffer.from((part?.data as Uint8Array | undefined) ?? new Uint8Array());
      });
      text = gunzipSync(Buffer.concat(chunks)).toString('utf8');
    }
    return { ...note, body: text };
  });
}

function noteItem(parentPk: string, note: Note, body: StoredBody): Raw {
  const { body: _text, ...fields } = note;
  return { ...keys.note(parentPk, note.id), ...fields, ...body, kind: 'note', ...localSortOf(note) };
}

// Reads ------------------------------------------------------------------------------------------

export interface NotesQuery {
  order: LocalOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
}

/**
 * One page of a parent's notes: a Query of its partition's local index in the asked order, reading
 * only the keys up to the end of the page (the total is the parent's `notes_count`).
 */
export async function readNotesPage(parentPk: string, query: NotesQuery): Promise<Note[]> {
  const offset = offsetOf(query.page);
  const wanted = offset + query.page.perPage;
  const items: Raw[] = [];
  let startKey: Raw | undefined;
  do {
    const result: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: localIndexName(query.order),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': parentPk },
        ScanIndexForward: query.sort === 'asc',
        ConsistentRead: true,
        Limit: wanted - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((result.Items ?? []) as Raw[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < wanted);
  return decodeNotes(items.slice(offset, wanted));
}

/** A parent's note by id: 404 `Not found` when there is none. */
export async function getNote(parentPk: string, noteId: number): Promise<Note> {
  const key = keys.note(parentPk, noteId);
  const item = await getItem(key);
  if (item?.kind !== 'note') throw recordNotFound();
  const [note] = await decodeNotes([item]);
  return note as Note;
}

// Writes -----------------------------------------------------------------------------------------

/**
 * The parent's note counters move with each note, and its updated time (GitLab touches the parent
 * of a new note), with the sort value its lists read it by.
 */
function countOnParent(parentKey: Key, parentId: number, delta: number, system: boolean, now?: string): Step {
  const values: Record<string, unknown> = { ':delta': delta, ':user': system ? 0 : delta };
  let expression = 'ADD notes_count :delta, user_notes_count :user';
  const names: Record<string, string> = {};
  if (now) {
    const sortName = listSortAttributes.updated_at;
    expression += ' SET updated_at = :now, #updatedSort = :sort';
    names['#updatedSort'] = sortName;
    values[':now'] = now;
    values[':sort'] = sortAttributes({ id: parentId, updated_at: now })[sortName];
  }
  return refusedWith(
    update(parentKey, expression, {
      condition: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      values,
      ...(now ? { names } : {}),
    }),
    recordNotFound(),
  );
}

/**
 * The writes of a new note: its item and the count on its parent, for a transaction of its own or
 * one with the parent's change (a system note recording a state change, whose parent write counts
 * it instead); long bodies' parts are written first.
 */
export async function noteSteps(
  parentKey: Key,
  parent: NoteParent,
  fields: { body: string; author_id: number; system?: boolean; created_at?: string },
  now: string,
): Promise<{ note: Note; put: TransactItem; count: Step }> {
  const note: Note = {
    ...newNote(parent, fields),
    id: await nextId('note'),
    created_at: fields.created_at ?? now,
    updated_at: fields.created_at ?? now,
  };
  const body = storedBody(parentKey.pk, note.id, note.body);
  if (body.parts.length) await batchWriteItems(body.parts);
  const count = countOnParent(parentKey, parent.id, 1, note.system, now);
  return { note, put: put(noteItem(parentKey.pk, note, body.fields), NEW_ITEM), count };
}

/** The key of the item a note hangs on, as the note (or a new note's parent) records it. */
export function parentKeyOf(parent: NoteParent): Key {
  switch (parent.type) {
    case 'Issue':
      return keys.issue(Number(parent.project_id), Number(parent.iid));
    case 'MergeRequest':
      return keys.mergeRequest(Number(parent.project_id), Number(parent.iid));
    case 'Snippet':
      return keys.snippet(parent.id);
    case 'Epic':
      return keys.epic(parent.id);
  }
}

const parentOf = (note: Note): NoteParent => ({
  type: note.noteable_type,
  id: note.noteable_id,
  iid: note.noteable_iid,
  project_id: note.project_id,
});

/**
 * Creates a note by a user on a parent (404 when the parent went away meanwhile), with its
 * author read beside the write for the response.
 */
export async function createNoteBy(
  authorId: number,
  parent: NoteParent,
  body: string,
  createdAt?: string,
): Promise<{ note: Note; users: Map<number, User> }> {
  const now = new Date().toISOString();
  const writing = (async () => {
    const {
      note,
      put: notePut,
      count,
    } = await noteSteps(
      parentKeyOf(parent),
      parent,
      { body, author_id: authorId, created_at: createdAt },
      now,
    );
    await commit([notePut, count]);
    return note;
  })();
  const [note, users] = await Promise.all([writing, getUsers([authorId])]);
  return { note, users };
}

/** Changes a note's body; its updated time (and place in the updated order) moves with it. */
export async function editNote(note: Note, body: string): Promise<Note> {
  const parentPk = parentKeyOf(parentOf(note)).pk;
  const edited: Note = {
    ...note,
    body: checkedNoteBody(body, 'update'),
    updated_at: new Date().toISOString(),
  };
  const previous = await getItem(keys.note(parentPk, note.id));
  const stored = storedBody(parentPk, note.id, body);
  if (stored.parts.length) await batchWriteItems(stored.parts);
  const written = await writeAlone(put(noteItem(parentPk, edited, stored.fields), EXISTING_ITEM));
  if (!written) throw recordNotFound();
  await removeParts(parentPk, previous);
  return edited;
}

/** Removes a note and counts it off its parent; 404 when it is gone already. */
export async function deleteNote(note: Note): Promise<void> {
  const parentKey = parentKeyOf(parentOf(note));
  const key = keys.note(parentKey.pk, note.id);
  const previous = await getItem(key);
  await commit([
    refusedWith(remove(key, EXISTING_ITEM), recordNotFound()),
    countOnParent(parentKey, note.noteable_id, -1, note.system),
  ]);
  await removeParts(parentKey.pk, previous);
}

/** The parts of a body no note names any more. */
async function removeParts(parentPk: string, previous: Raw | undefined): Promise<void> {
  const parts = previous?.body_parts as StoredBody['body_parts'];
  if (!parts) return;
  for (let index = 0; index < parts.count; index++) {
    await writeAlone(remove(partKey(parentPk, Number(previous?.id), index, parts.generation)));
  }
}
