/**
 * Notes (comments) on issues, merge requests, snippets and epics: the stored shape, the body rules
 * and the entities GitLab presents.
 */

import { createHash } from 'node:crypto';
import { userAvatarUrl } from './avatars.ts';
import { badRequest } from './errors.ts';
import type { NoteableType } from './noteables.ts';
import { ghostUser, type User, userWebUrl } from './users.ts';

export interface Note {
  id: number;
  body: string;
  author_id: number;
  system: boolean;
  noteable_type: NoteableType;
  /** The parent's global id. */
  noteable_id: number;
  /** The parent's iid (issues and merge requests), else null. */
  noteable_iid: number | null;
  /** The project of an issue, merge request or snippet; null for epics. */
  project_id: number | null;
  created_at: string;
  updated_at: string;
  /** Who changed it last (absent until a first change); the actor of its webhook events. */
  updated_by_id?: number;
  /** Its discussion; absent on notes kept before discussions, whose own is derived (discussionIdOf). */
  discussion_id?: string;
  /** `DiscussionNote` for a note of a thread; absent for a note that is its own discussion. */
  type?: 'DiscussionNote';
  /** A thread's note after its first (the first is listed among the parent's discussions). */
  reply?: boolean;
  /** When and by whom a resolvable note was resolved (absent or null: unresolved). */
  resolved_at?: string | null;
  resolved_by_id?: number | null;
}

/**
 * The discussion id of a note that is its own discussion: 24 hex digits of a digest, then the
 * note's id in 16, so the note is found from the id and notes kept before discussions read alike.
 */
export function individualDiscussionId(noteId: number): string {
  const digest = createHash('sha1').update(`discussion-${noteId}`).digest('hex').slice(0, 24);
  return digest + noteId.toString(16).padStart(16, '0');
}

/** The note an individual discussion id names, when it is one (its digest matching). */
export function noteIdOfIndividual(discussionId: string): number | undefined {
  if (!/^[0-9a-f]{40}$/.test(discussionId)) return undefined;
  const noteId = Number.parseInt(discussionId.slice(24), 16);
  if (!Number.isSafeInteger(noteId) || noteId < 1) return undefined;
  return individualDiscussionId(noteId) === discussionId ? noteId : undefined;
}

/** A note's discussion id: the one it records, or the one it derives as its own discussion. */
export const discussionIdOf = (note: Pick<Note, 'id' | 'discussion_id'>) =>
  note.discussion_id ?? individualDiscussionId(note.id);

/** GitLab resolves only the notes of merge request threads (never system notes). */
export const isResolvable = (note: Note) =>
  note.type === 'DiscussionNote' && note.noteable_type === 'MergeRequest' && !note.system;

/** GitLab's Note validates its body to this length. */
export const NOTE_BODY_MAX_LENGTH = 1_000_000;

/**
 * GitLab's answer for a note its model refuses: `400 (Bad request) "Note {...}" not given` on
 * create, `400 (Bad request) "Failed to save note {...}" not given` on update (10.x–11.x
 * `update_note`).
 */
const refusedNote = (sentence: string, action: 'create' | 'update') =>
  badRequest(
    `400 (Bad request) "${action === 'create' ? 'Note' : 'Failed to save note'} {:note=>[${JSON.stringify(sentence)}]}" not given`,
  );

/** The body of a new (`create`) or edited (`update`) note, or GitLab's refusal. */
export function checkedNoteBody(body: string, action: 'create' | 'update' = 'create'): string {
  if (body.trim().length === 0) throw refusedNote("can't be blank", action);
  if (body.length > NOTE_BODY_MAX_LENGTH && Array.from(body).length > NOTE_BODY_MAX_LENGTH)
    throw refusedNote(`is too long (maximum is ${NOTE_BODY_MAX_LENGTH} characters)`, action);
  return body;
}

/** A body that is one award emoji and nothing else (`:+1:`, `:thumbsup:`). */
export const isAwardEmoji = (body: string) => /^:[a-z0-9_+-]+:$/i.test(body.trim());

/** The parent a note hangs on, as a new note records it. */
export interface NoteParent {
  type: NoteableType;
  id: number;
  iid: number | null;
  project_id: number | null;
}

export function newNote(
  parent: NoteParent,
  fields: { body: string; author_id: number; system?: boolean },
): Omit<Note, 'id' | 'created_at' | 'updated_at'> {
  return {
    body: fields.system ? fields.body : checkedNoteBody(fields.body),
    author_id: fields.author_id,
    system: fields.system ?? false,
    noteable_type: parent.type,
    noteable_id: parent.id,
    noteable_iid: parent.iid,
    project_id: parent.project_id,
  };
}

/**
 * The author as a note shows it: the basic user with email and created_at (the API's contract) and
 * those GitLab adds (avatar_url, web_url). A user removed since shows as GitLab's ghost.
 */
export function noteAuthor(user: User | undefined, authorId: number, baseUrl: string) {
  if (!user) return { ...ghostUser(authorId, baseUrl), email: null, created_at: null };
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state,
    avatar_url: userAvatarUrl(baseUrl, user),
    web_url: userWebUrl(baseUrl, user.username),
    email: user.email,
    created_at: user.created_at,
  };
}

/** Who resolved a note, as GitLab's basic user. */
function resolverOf(note: Note, users: ReadonlyMap<number, User>, baseUrl: string) {
  if (note.resolved_by_id === undefined || note.resolved_by_id === null) return null;
  const {
    email: _email,
    created_at: _created,
    ...basic
  } = noteAuthor(users.get(note.resolved_by_id), note.resolved_by_id, baseUrl);
  return basic;
}

export function noteEntity(note: Note, users: ReadonlyMap<number, User>, baseUrl: string) {
  const resolvable = isResolvable(note);
  return {
    id: note.id,
    type: note.type ?? null,
    body: note.body,
    attachment: null,
    author: noteAuthor(users.get(note.author_id), note.author_id, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    noteable_iid: note.noteable_iid,
    resolvable,
    ...(resolvable
      ? {
          resolved: Boolean(note.resolved_at),
          resolved_by: resolverOf(note, users, baseUrl),
          resolved_at: note.resolved_at ?? null,
        }
      : {}),
  };
}

/** What a snippet or an epic lends to its notes' single read. */
export interface NoteParentFields {
  title: string;
  file_name: string | null;
  expires_at: string | null;
}

/**
 * The single read of a snippet or epic note: the Note fields with the parent's title, file_name
 * and expires_at, which the API's contract adds to GitLab's Note.
 */
export const parentNoteEntity = (
  note: Note,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
  parent: NoteParentFields,
) => ({ ...noteEntity(note, users, baseUrl), ...parent });

/** The ids of the users a page of notes shows. */
export const noteAuthorIds = (notes: readonly Note[]) => [
  ...new Set(
    notes.flatMap((note) => (note.resolved_by_id ? [note.author_id, note.resolved_by_id] : [note.author_id])),
  ),
];
