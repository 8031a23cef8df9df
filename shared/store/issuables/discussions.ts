/**
 * A parent's discussions, read from its partition: its notes' list holds one note per discussion
 * (a note of its own, or a thread's first), so a page of discussions reads one page of that list
 * and then, in one batch whatever the page's length, the replies its threads' first notes list
 * (`reply_ids`, see notes.ts); the replies of threads are listed apart (`threadRepliesOf`). New
 * threads and replies are notes (counted on the parent, in its notes list, their webhooks fired
 * from the stream).
 */
import { type Discussion, discussionOf } from '#domain/discussions.ts';
import { notFound } from '#domain/errors.ts';
import { discussionIdOf, type Note, type NoteParent, noteIdOfIndividual } from '#domain/notes.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { User } from '#domain/users.ts';
import { batchGetItems } from '../table/batch.ts';
import { noteParentOf as parentHeading, shardKeysOf, sumOf } from '../table/counters.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { readListHead, readWholeList } from '../table/lists.ts';
import { parentKeyOf } from '../table/noteable-keys.ts';
import type { Raw } from '../table/raw.ts';
import {
  commit,
  EXISTING_ITEM,
  refusedWith,
  type TransactItem,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { getUsers } from '../users/users.ts';
import {
  DISCUSSIONS_COUNT,
  decodeNoteItems,
  getNote,
  listedReplyIds,
  MAX_LISTED_REPLIES,
  noteLists,
  noteSteps,
  REPLIES_LISTED,
  REPLY_IDS,
  type StoredNote,
} from './notes.ts';

export type StoredDiscussion = Discussion<StoredNote>;

/** A thread's notes, oldest first. */
async function threadNotes(parentPk: string, discussionId: string): Promise<StoredNote[]> {
  const { items } = await readWholeList(lists.threadNotesOf(parentPk, discussionId), 'created_at');
  return decodeNoteItems(notesAmong(items));
}

/** How many discussions a parent has: its counter shards' sum, read in one batch. */
async function countDiscussions(parentPk: string): Promise<number | undefined> {
  const parent = parentHeading(parentPk);
  if (!parent) return undefined;
  return sumOf(await batchGetItems(shardKeysOf(parent)), parentPk, DISCUSSIONS_COUNT);
}

/**
 * One page of a parent's discussions, by their first notes' creation, oldest first, with their
 * total (read beside the page).
 */
export async function readDiscussionsPage(
  parentPk: string,
  page: PageRequest,
): Promise<{ discussions: StoredDiscussion[]; total: number | undefined }> {
  const offset = offsetOf(page);
  const readPage = async () => {
    const items = await readListHead(lists.notesOf(parentPk), 'created_at', 'asc', offset + page.perPage);
    return discussionsFrom(parentPk, items.slice(offset));
  };
  const [discussions, total] = await Promise.all([readPage(), countDiscussions(parentPk)]);
  return { discussions, total };
}

/**
 * The discussions a page of first notes stands for: the replies their first notes list read in one
 * batch for all of them, a thread that lists none (kept before the lists were) from its own list.
 */
async function discussionsFrom(parentPk: string, firstItems: Raw[]): Promise<StoredDiscussion[]> {
  const listed = firstItems.map(listedReplyIds);
  const replyKeys = listed.flatMap((ids) => (ids ?? []).map((id) => keys.note(parentPk, id)));
  const unlisted = firstItems.map((item, index) =>
    item.type === 'DiscussionNote' && listed[index] === undefined
      ? threadNotes(parentPk, discussionIdOf(item as Pick<Note, 'id' | 'discussion_id'>))
      : undefined,
  );
  const [firsts, replies, threads] = await Promise.all([
    decodeNoteItems(firstItems),
    replyKeys.length ? batchGetItems(replyKeys).then((items) => decodeNoteItems(notesAmong(items))) : [],
    Promise.all(unlisted),
  ]);
  const repliesOf = new Map<string, StoredNote[]>();
  for (const reply of replies) {
    const id = discussionIdOf(reply);
    repliesOf.set(id, [...(repliesOf.get(id) ?? []), reply]);
  }
  return firsts.map((first, index) => {
    const id = discussionIdOf(first);
    if (first.type !== 'DiscussionNote') return { id, individual_note: true, notes: [first] };
    const notes = threads[index] ?? [first, ...(repliesOf.get(id) ?? [])].sort(byCreation);
    return discussionOf(id, notes) ?? { id, individual_note: false, notes: [first] };
  });
}

const notesAmong = (items: Raw[]) => items.filter((item) => item.kind === 'note');

/** Oldest first, as a thread's list orders its notes (creation, then id). */
const byCreation = (a: StoredNote, b: StoredNote) =>
  a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;

/** A note that is not there reads as none; a read that failed still fails. */
const noneIfAbsent = (error: unknown) => {
  if (error instanceof Error && 'status' in error && error.status === 404) return undefined;
  throw error;
};

/**
 * A parent's discussion by id, or undefined: its thread's notes, read beside the note an
 * individual discussion's id names.
 */
export async function readDiscussion(
  parentPk: string,
  discussionId: string,
): Promise<StoredDiscussion | undefined> {
  const noteId = noteIdOfIndividual(discussionId);
  const [single, thread] = await Promise.all([
    noteId === undefined ? undefined : getNote(parentPk, noteId).catch(noneIfAbsent),
    /^[0-9a-f]{40}$/.test(discussionId) ? threadNotes(parentPk, discussionId) : [],
  ]);
  return discussionOf(discussionId, thread.length > 0 ? thread : single ? [single] : []);
}

/** A discussion read with the users its notes show. */
export async function readDiscussionWithUsers(parentPk: string, discussionId: string) {
  const discussion = await readDiscussion(parentPk, discussionId);
  const users = discussion ? await getUsers(userIdsOf(discussion.notes)) : new Map<number, User>();
  return { discussion, users };
}

const userIdsOf = (notes: readonly StoredNote[]) => [
  ...new Set(
    notes.flatMap((note) => [note.author_id, ...(note.resolved_by_id ? [note.resolved_by_id] : [])]),
  ),
];

/** A new thread by a user on a parent, its first note created as any note is (404 when the parent went away). */
export async function startThread(
  authorId: number,
  parent: NoteParent,
  body: string,
  threadId: string,
  createdAt?: string,
): Promise<{ discussion: StoredDiscussion; users: Map<number, User> }> {
  const writing = (async () => {
    const { note, put, count } = await noteSteps(
      parentKeyOf(parent),
      parent,
      { body, author_id: authorId, created_at: createdAt },
      new Date().toISOString(),
      { discussion_id: threadId, reply: false },
    );
    await commit([put, ...count]);
    return note;
  })();
  const [note, users] = await Promise.all([writing, getUsers([authorId])]);
  return { discussion: { id: threadId, individual_note: false, notes: [note] }, users };
}

/**
 * A reply in a discussion, on the condition that the discussion's first note as read is still
 * there (404 `Discussion Not Found` otherwise); a note of its own becomes its thread's first.
 */
export async function replyToDiscussion(
  authorId: number,
  parent: NoteParent,
  discussion: StoredDiscussion,
  body: string,
  createdAt?: string,
): Promise<{ note: StoredNote; users: Map<number, User> }> {
  const [first] = discussion.notes;
  if (!first) throw notFound('Discussion');
  const parentKey = parentKeyOf(parent);
  const writing = (async () => {
    const { note, put, count } = await noteSteps(
      parentKey,
      parent,
      { body, author_id: authorId, created_at: createdAt },
      new Date().toISOString(),
      { discussion_id: discussion.id, reply: true },
    );
    await commit([
      put,
      ...count,
      refusedWith(firstStays(parentKey.pk, first, discussion, note.id), notFound('Discussion')),
    ]);
    return note;
  })();
  const [note, users] = await Promise.all([writing, getUsers([authorId])]);
  return { note, users };
}

/**
 * The write that keeps a reply's discussion there and lists the reply on its first note: a
 * thread's first note, or a note of its own made a thread's.
 */
function firstStays(
  parentPk: string,
  first: StoredNote,
  discussion: StoredDiscussion,
  replyId: number,
): TransactItem {
  const key = keys.note(parentPk, first.id);
  const reply = new Set([replyId]);
  if (!discussion.individual_note) {
    const condition = `${EXISTING_ITEM} AND discussion_id = :discussion`;
    // A thread grown too long for its first note's item lists no more replies (read from its list).
    if (discussion.notes.length >= MAX_LISTED_REPLIES)
      return update(key, 'REMOVE #listed, #replyIds', {
        condition,
        names: { '#listed': REPLIES_LISTED, '#replyIds': REPLY_IDS },
        values: { ':discussion': discussion.id },
      });
    return update(key, 'ADD #replyIds :reply', {
      condition,
      names: { '#replyIds': REPLY_IDS },
      values: { ':discussion': discussion.id, ':reply': reply },
    });
  }
  const lists = noteLists(parentPk, { ...first, type: 'DiscussionNote', discussion_id: discussion.id });
  const names: Record<string, string> = {
    '#type': 'type',
    '#system': 'system',
    '#listed': REPLIES_LISTED,
    '#replyIds': REPLY_IDS,
  };
  const values: Record<string, unknown> = {
    ':type': 'DiscussionNote',
    ':discussion': discussion.id,
    ':listed': true,
    ':reply': reply,
  };
  const sets = ['#type = :type', 'discussion_id = :discussion', '#listed = :listed'];
  for (const [attribute, partition] of Object.entries(lists)) {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = partition;
    sets.push(`#${attribute} = :${attribute}`);
  }
  return update(key, `SET ${sets.join(', ')} ADD #replyIds :reply`, {
    condition: `${EXISTING_ITEM} AND #system = :false`,
    names,
    values: { ...values, ':false': false },
  });
}

/**
 * Resolves (by the resolver) or unresolves notes: each write its own, on the condition the note is
 * still there; a resolved note keeps who resolved it first. Answers the notes as they are now.
 */
export async function setResolved(
  notes: readonly StoredNote[],
  resolverId: number | undefined,
): Promise<StoredNote[]> {
  const now = new Date().toISOString();
  return Promise.all(
    notes.map(async (note) => {
      if (resolverId !== undefined && note.resolved_at) return note;
      const key = keys.note(parentKeyOf(noteParentOf(note)).pk, note.id);
      const changed = await writeAlone(
        update(key, 'SET resolved_at = :at, resolved_by_id = :by', {
          condition: EXISTING_ITEM,
          values: { ':at': resolverId === undefined ? null : now, ':by': resolverId ?? null },
        }),
      );
      if (!changed) throw notFound('Note');
      return {
        ...note,
        resolved_at: resolverId === undefined ? null : now,
        resolved_by_id: resolverId ?? null,
      };
    }),
  );
}

const noteParentOf = (note: StoredNote): NoteParent => ({
  type: note.noteable_type,
  id: note.noteable_id,
  iid: note.noteable_iid,
  project_id: note.project_id,
});

/** The users resolved notes show beside their authors. */
export const usersOfNotes = (notes: readonly StoredNote[]) => getUsers(userIdsOf(notes));
