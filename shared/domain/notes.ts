/**
 * Notes (comments) on issues, merge requests, snippets and epics: the stored shape, the body rules
 * and the entities GitLab presents.
 */

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
}

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

export function noteEntity(note: Note, users: ReadonlyMap<number, User>, baseUrl: string) {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: noteAuthor(users.get(note.author_id), note.author_id, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    noteable_iid: note.noteable_iid,
    resolvable: false,
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
export const noteAuthorIds = (notes: readonly Note[]) => [...new Set(notes.map((note) => note.author_id))];
