/** Reads the note routes of every parent share: a page of notes, one note, with their authors. */
import { ApiError, forbidden } from '#domain/errors.ts';
import { noteAuthorIds } from '#domain/notes.ts';
import type { User } from '#domain/users.ts';
import { getNote, readNotesPage } from '#store/notes.ts';
import { getUsers } from '#store/users.ts';
import { pageRequest } from './route.ts';

/** Parameters of a notes list. */
export interface NotesListParams {
  sort?: 'asc' | 'desc';
  order_by?: 'created_at' | 'updated_at';
  page?: number;
  per_page?: number;
}

/** A page of a parent's notes (GitLab's default: newest first by creation) with their authors. */
export async function notesPageOf(pk: string, params: NotesListParams) {
  const notes = await readNotesPage(pk, {
    order: params.order_by ?? 'created_at',
    sort: params.sort ?? 'desc',
    page: pageRequest(params.page, params.per_page),
  });
  return { notes, users: await getUsers(noteAuthorIds(notes)) };
}

/** A note that is not there (the store's 404), as opposed to a read that failed. */
const absent = (error: unknown) => {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
};

/** One note of a parent with its author; undefined when there is none (a failed read still fails). */
export async function noteOf(pk: string, noteId: number) {
  const note = await getNote(pk, noteId).catch(absent);
  return { note, users: note ? await getUsers([note.author_id]) : new Map<number, User>() };
}

/** 403 unless a rule allows the caller to act on what they can see. */
export const allowing = (allowed: boolean) => {
  if (!allowed) throw forbidden();
};
