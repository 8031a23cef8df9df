import { recordNotFound } from '#domain/errors.ts';
import { checkedNoteBody, discussionIdOf, type Note, type NoteParent, newNote } from '#domain/notes.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { User } from '#domain/users.ts';
import type { Key } from '../table/batch.ts';
import { itemCounterChanges, noteParentOf } from '../table/counters.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { readListHead } from '../table/lists.ts';
import { longText, removeDropped, type StoredText, type TextGuard, writeParts } from '../table/long-text.ts';
import { parentKeyOf } from '../table/noteable-keys.ts';
import type { Raw } from '../table/raw.ts';
import { listSortAttributes } from '../table/table.ts';
import {
  commit,
  EXISTING_ITEM,
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
  writeAlone,
} from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import { removeNoteAwards } from './award-emoji.ts';

/** A note as the store reads it: where a long body's parts are (noteEntity never shows it). */
export interface StoredNote extends Note {
  body_parts?: { generation: string; count: number };
}

/** Bodies up to 300 KB, as they are or gzipped, stay in the note's item (an item holds 400 KB in all). */
const NOTE_BODY = longText({
  plain: 'body',
  gzipped: 'body_gz',
  inlineBytes: 300_000,
  parts: { attribute: 'body_parts', versionBytes: 4, kind: 'note_part', key: keys.notePart },
});

const keyOfItem = (item: Raw): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/** A note's item read again (undefined when it is gone). */
async function noteItemAt(key: Key): Promise<Raw | undefined> {
  const item = await getItem(key);
  return item?.kind === 'note' ? item : undefined;
}

/**
 * A thread's first note keeps the ids of its replies (a number set, absent when there are none),
 * written in the transaction of each reply and of its removal, so a page of discussions reads
 * every thread's replies in one batch. `replies_listed` marks the first notes whose set is whole:
 * threads started before the set was kept, or grown past MAX_LISTED_REPLIES, read their thread's
 * list instead.
 */
export const REPLY_IDS = 'reply_ids';
export const REPLIES_LISTED = 'replies_listed';

/** Beyond this many notes a thread stops listing its replies on its first note (an item holds 400 KB). */
export const MAX_LISTED_REPLIES = 1000;

/** The replies a thread's first note lists, or undefined when it lists none (see REPLY_IDS). */
export function listedReplyIds(item: Raw): number[] | undefined {
  if (item[REPLIES_LISTED] !== true) return undefined;
  const ids = item[REPLY_IDS];
  return ids instanceof Set ? [...ids].map(Number) : [];
}

/** The note items with their bodies put together (parts of long bodies read in one batch). */
const decodeNotes = (items: Raw[]): Promise<StoredNote[]> =>
  NOTE_BODY.read(items, {
    key: keyOfItem,
    reread: (item) => noteItemAt(keyOfItem(item)),
    decode: (item, text) => {
      const {
        body: _body,
        body_gz: _zipped,
        kind: _kind,
        [REPLY_IDS]: _replies,
        [REPLIES_LISTED]: _listed,
        ...note
      } = stripStorage<StoredNote & Raw>(item);
      return { ...note, body: text ?? '' };
    },
  });

/** Notes from raw items (a stream's images, say), long bodies put together. */
export const decodeNoteItems = decodeNotes;

/** A parent's item (issue, merge request, snippet, epic) as read: its notes counted (0 before the first). */
export function decodeNoteParent<T extends { notes_count: number; user_notes_count: number }>(item: Raw): T {
  const {
    kind: _kind,
    deleting: _deleting,
    ...parent
  } = stripStorage<T & { kind: string; deleting?: boolean }>(item);
  return {
    ...parent,
    notes_count: Number(parent.notes_count ?? 0),
    user_notes_count: Number(parent.user_notes_count ?? 0),
  } as unknown as T;
}

/**
 * A note's lists: the parent's notes, or its thread replies for a thread's later note (so the
 * first list holds one note per discussion), and its thread's, for a note of a thread.
 */
export function noteLists(parentPk: string, note: Note) {
  const discussionId = discussionIdOf(note);
  return inLists(
    note.reply ? lists.threadRepliesOf(parentPk) : lists.notesOf(parentPk),
    ...(note.type === 'DiscussionNote' ? [lists.threadNotesOf(parentPk, discussionId)] : []),
  );
}

function noteItem(parentPk: string, note: StoredNote, body: StoredText): Raw {
  const { body: _text, body_parts: _parts, ...fields } = note;
  const sorts = sortAttributes({ id: note.id, created_at: note.created_at, updated_at: note.updated_at });
  return {
    ...keys.note(parentPk, note.id),
    ...fields,
    ...body.fields,
    kind: 'note',
    ...noteLists(parentPk, note),
    // Only the orders notes are read in: an id order would be one more index entry per note.
    [listSortAttributes.created_at]: sorts[listSortAttributes.created_at],
    [listSortAttributes.updated_at]: sorts[listSortAttributes.updated_at],
  };
}

// Reads ------------------------------------------------------------------------------------------

export interface NotesQuery {
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
}

/**
 * One page of a parent's notes: a Query of its notes' list in the asked order, reading only up to
 * the end of the page (the total is the parent's `notes_count`).
 */
export async function readNotesPage(parentPk: string, query: NotesQuery): Promise<StoredNote[]> {
  const offset = offsetOf(query.page);
  const limit = offset + query.page.perPage;
  // Thread replies are listed apart (so discussions page by their first notes): both heads merged.
  const [firsts, replies] = await Promise.all(
    [lists.notesOf(parentPk), lists.threadRepliesOf(parentPk)].map((list) =>
      readListHead(list, query.order, query.sort, limit),
    ),
  );
  const sortName = listSortAttributes[query.order];
  const direction = query.sort === 'asc' ? 1 : -1;
  const merged = [...(firsts ?? []), ...(replies ?? [])].sort((a, b) => {
    const [x, y] = [String(a[sortName]), String(b[sortName])];
    return x === y ? 0 : direction * (x < y ? -1 : 1);
  });
  return decodeNotes(merged.slice(offset, limit));
}

/** A parent's note by id: 404 `Not found` when there is none. */
export async function getNote(parentPk: string, noteId: number): Promise<StoredNote> {
  const item = await getItem(keys.note(parentPk, noteId));
  const [note] = item?.kind === 'note' ? await decodeNotes([item]) : [];
  if (!note) throw recordNotFound();
  return note;
}

// Writes -----------------------------------------------------------------------------------------

/**
 * The count of a parent's discussions (the notes its notes list holds: one per discussion), kept
 * on its counter shards beside `notes_count` but never shown with the parent: the discussions
 * list's total.
 */
export const DISCUSSIONS_COUNT = 'discussions_count';

/**
 * The parent's note counters move with each note, on one of its counter shards (the parent, a
 * listed item, is neither written nor checked); a new note on a parent marked deleted is refused
 * by the shard (store/table/counters.ts). `discussions` is the change of its discussions' count.
 */
export function countOnParent(parentKey: Key, delta: number, system: boolean, discussions: number): Step[] {
  return [
    refusedWith(
      itemCounterChanges(parentKey, {
        notes_count: delta,
        user_notes_count: system ? 0 : delta,
        [DISCUSSIONS_COUNT]: discussions,
      }),
      recordNotFound(),
    ),
  ];
}

/**
 * GitLab touches the parent of a new note: its updated time (and the sort value its lists read it
 * by) moves to the note's creation, unless a later change moved it further. The table's stream
 * does it after the note committed (functions/workers/note-touches.ts), so writers of one thread
 * never wait on each other through the parent; a touch refused (the parent changed later, or went
 * away) has nothing left to do, and one run twice moves nothing.
 */
export async function touchNoteParent(noteImage: Raw): Promise<void> {
  const parent = noteParentOf(String(noteImage.pk));
  const parentId = Number(noteImage.noteable_id);
  const createdAt = noteImage.created_at;
  if (!parent || !Number.isSafeInteger(parentId) || typeof createdAt !== 'string') return;
  const sortName = listSortAttributes.updated_at;
  await writeAlone(
    update(parent, 'SET updated_at = :now, #updatedSort = :sort', {
      condition: `${LIVE_ITEM} AND updated_at < :now`,
      names: { '#updatedSort': sortName },
      values: {
        ':now': createdAt,
        ':sort': sortAttributes({ id: parentId, updated_at: createdAt })[sortName],
      },
    }),
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
  thread?: { discussion_id: string; reply: boolean },
): Promise<{ note: Note; put: TransactItem; count: (Step | TransactItem)[] }> {
  const checked = newNote(parent, fields);
  const id = await nextId('note');
  const note: Note = {
    ...checked,
    id,
    created_at: fields.created_at ?? now,
    updated_at: fields.created_at ?? now,
    // A note of its own derives its discussion id from its own (discussionIdOf): none is stored.
    ...(thread ? { discussion_id: thread.discussion_id, type: 'DiscussionNote', reply: thread.reply } : {}),
  };
  const body = NOTE_BODY.store(keys.note(parentKey.pk, note.id), note.body);
  await writeParts(body);
  // A reply joins a discussion; any other note starts one.
  const count = countOnParent(parentKey, 1, note.system, thread?.reply ? 0 : 1);
  // A new thread's first note lists its replies from the start (none yet).
  const item = {
    ...noteItem(parentKey.pk, note, body),
    ...(thread && !thread.reply ? { [REPLIES_LISTED]: true } : {}),
  };
  return { note, put: put(item, NEW_ITEM), count };
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
    await commit([notePut, ...count]);
    return note;
  })();
  const [note, users] = await Promise.all([writing, getUsers([authorId])]);
  return { note, users };
}

/** The note (or its thread's first note) is not as read: read it again and write again. */
class BodyChanged extends Error {}

/** Attempts at an edit or removal racing others' edits; each loses only to an edit that won. */
const ATTEMPTS = 50;

/**
 * Writes a note's change or removal on the condition that it names the body parts read (`write`
 * throws BodyChanged when refused), reading the note again after a refusal: 404 when it is gone,
 * 409 when it kept losing. The parts of a new body go when it fails, those it replaced or removed
 * once it succeeds.
 */
function writeGuarded<R>(
  note: StoredNote,
  body: StoredText | undefined,
  write: (guard: TextGuard) => Promise<R>,
): Promise<R> {
  const key = noteKeyOf(note);
  return NOTE_BODY.replace(key, body, async () => {
    try {
      return await retrying(
        { times: ATTEMPTS, retry: (error) => error instanceof BodyChanged, backoff: true },
        note as object,
        async (current) => ({ value: await write(NOTE_BODY.unchanged(current)), replaced: current }),
        async () => {
          const fresh = await noteItemAt(key);
          if (!fresh) throw recordNotFound();
          return fresh;
        },
      );
    } catch (error) {
      throw error instanceof BodyChanged ? lockLost() : error;
    }
  });
}

const noteKeyOf = (note: Note) => keys.note(parentKeyOf(parentOf(note)).pk, note.id);

/**
 * Changes a note's body; its updated time (and place in the updated order) moves with it, and its
 * editor. Only those attributes are written: a thread conversion or a resolution committed
 * meanwhile stays.
 */
export async function editNote(note: StoredNote, body: string, editorId: number): Promise<StoredNote> {
  // The editor is the actor of the edit's webhook event (see store/hooks/hook-changes.ts).
  const edited: StoredNote = { ...note, updated_at: new Date().toISOString(), updated_by_id: editorId };
  const stored = NOTE_BODY.store(noteKeyOf(note), checkedNoteBody(body, 'update'));
  const order = sortAttributes({ id: note.id, created_at: note.created_at, updated_at: edited.updated_at });
  await writeGuarded(note, stored, async (guard) => {
    const names: Record<string, string> = { ...guard.names, '#updatedOrder': listSortAttributes.updated_at };
    const values: Record<string, unknown> = {
      ...guard.values,
      ':updatedAt': edited.updated_at,
      ':editor': editorId,
      ':updatedOrder': order[listSortAttributes.updated_at],
    };
    const sets = ['updated_at = :updatedAt', 'updated_by_id = :editor', '#updatedOrder = :updatedOrder'];
    Object.entries(stored.fields).forEach(([name, value], index) => {
      names[`#text${index}`] = name;
      values[`:text${index}`] = value;
      sets.push(`#text${index} = :text${index}`);
    });
    const expression = `SET ${sets.join(', ')}${removeDropped(stored, names)}`;
    const written = await writeAlone(
      update(noteKeyOf(note), expression, {
        condition: `${EXISTING_ITEM} AND ${guard.condition}`,
        names,
        values,
      }),
    );
    if (!written) throw new BodyChanged();
  });
  return NOTE_BODY.withStored(edited, stored);
}

/** What a note's removal does to its thread, decided from a fresh read of the thread. */
interface ThreadRemoval {
  steps: Step[];
  /** Added to the removal's condition: the first note's replies are as its successor takes them. */
  condition?: { expression: string; values: Record<string, unknown>; names: Record<string, string> };
  /** Whether a successor takes the first note's place among the discussions. */
  succeeded: boolean;
}

const NO_THREAD_CHANGE: ThreadRemoval = { steps: [], succeeded: false };

/**
 * A thread's first note going, its next one is listed among the discussions in its place and
 * takes the replies the first listed (but itself); the removal is conditioned on those replies,
 * so a reply written meanwhile makes it read again. A reply going leaves its first note's list.
 */
async function threadRemoval(parentPk: string, note: Note): Promise<ThreadRemoval> {
  if (note.type !== 'DiscussionNote') return NO_THREAD_CHANGE;
  const list = lists.threadNotesOf(parentPk, discussionIdOf(note));
  if (note.reply) return replyRemoval(note, list);
  const [head, stored] = await Promise.all([
    readListHead(list, 'created_at', 'asc', 2),
    noteItemAt(keys.note(parentPk, note.id)),
  ]);
  if (!stored) throw recordNotFound();
  const replies = listedReplyIds(stored);
  const next = head.find((item) => Number(item.id) !== note.id);
  // The thread's list is read from an index: a reply it does not show yet is waited for.
  if (replies?.length && !(next && replies.includes(Number(next.id)))) throw new BodyChanged();
  const names: Record<string, string> = { '#listed': REPLIES_LISTED, '#replyIds': REPLY_IDS };
  const condition =
    replies === undefined
      ? undefined
      : {
          expression: replies.length
            ? ' AND attribute_exists(#listed) AND #replyIds = :replyIds'
            : ' AND attribute_exists(#listed) AND attribute_not_exists(#replyIds)',
          values: replies.length ? { ':replyIds': new Set(replies) } : {},
          names,
        };
  if (!next || (replies && !replies.length)) return { steps: [], condition, succeeded: false };
  const first = lists.notesOf(parentPk);
  const rest = (replies ?? []).filter((id) => id !== Number(next.id));
  const sets = ['#list = :first', '#reply = :reply'];
  const values: Record<string, unknown> = { ':first': first.partition, ':reply': false };
  if (replies) {
    sets.push('#listed = :listed');
    values[':listed'] = true;
    if (rest.length) {
      sets.push('#replyIds = :rest');
      values[':rest'] = new Set(rest);
    }
  }
  const promote = update(keyOfItem(next), `SET ${sets.join(', ')}`, {
    condition: EXISTING_ITEM,
    names: {
      '#list': first.attribute,
      '#reply': 'reply',
      ...(replies ? { '#listed': REPLIES_LISTED } : {}),
      ...(rest.length ? { '#replyIds': REPLY_IDS } : {}),
    },
    values,
  });
  return { steps: [refusedWith(promote, new BodyChanged())], condition, succeeded: true };
}

/** A reply leaves the list of its thread's first note (which must still be that thread's first). */
async function replyRemoval(
  note: Note,
  list: ReturnType<typeof lists.threadNotesOf>,
): Promise<ThreadRemoval> {
  const [first] = await readListHead(list, 'created_at', 'asc', 1);
  if (!first || Number(first.id) === note.id) return NO_THREAD_CHANGE;
  const leave = update(keyOfItem(first), 'DELETE #replyIds :id', {
    condition: `${EXISTING_ITEM} AND discussion_id = :discussion AND (attribute_not_exists(#reply) OR #reply = :false)`,
    names: { '#replyIds': REPLY_IDS, '#reply': 'reply' },
    values: { ':id': new Set([note.id]), ':discussion': discussionIdOf(note), ':false': false },
  });
  return { steps: [refusedWith(leave, new BodyChanged())], succeeded: false };
}

/** Expression values, or none at all (DynamoDB refuses an empty set of them). */
const nonEmpty = (values: Record<string, unknown>) => (Object.keys(values).length ? values : undefined);

/**
 * Removes a note and counts it off its parent, then its award emoji (an award refused once the
 * note is gone); 404 when it is gone already.
 */
export async function deleteNote(note: StoredNote): Promise<void> {
  const parentKey = parentKeyOf(parentOf(note));
  const key = keys.note(parentKey.pk, note.id);
  await writeGuarded(note, undefined, async (guard) => {
    const thread = await threadRemoval(parentKey.pk, note);
    const condition = `${EXISTING_ITEM} AND ${guard.condition}${thread.condition?.expression ?? ''}`;
    const values = thread.condition
      ? nonEmpty({ ...guard.values, ...thread.condition.values })
      : guard.values;
    const names = thread.condition ? { ...guard.names, ...thread.condition.names } : guard.names;
    await commit([
      ...thread.steps,
      refusedReading(remove(key, condition, values, names), (stored) =>
        stored ? new BodyChanged() : recordNotFound(),
      ),
      // A thread's first note leaves its discussion to its successor; any other first note takes it along.
      ...countOnParent(parentKey, -1, note.system, !note.reply && !thread.succeeded ? -1 : 0),
    ]);
  });
  await removeNoteAwards(parentKey.pk, note);
}
