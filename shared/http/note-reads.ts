/**
 * What the note routes of every parent share: a page of notes, one note, with their authors, and
 * the loaders of a project parent's note routes.
 */
import { ApiError, forbidden, recordNotFound } from '#domain/errors.ts';
import type { InProject } from '#domain/noteable-policy.ts';
import { type Note, noteAuthorIds } from '#domain/notes.ts';
import type { User } from '#domain/users.ts';
import { getNote, readNotesPage } from '#store/notes.ts';
import { getUsers } from '#store/users.ts';
import { inProject } from './load.ts';
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

/** How the note routes of a project's parent kind (issues, merge requests, snippets) find it. */
export interface ProjectNoteParent<K extends string, T, P> {
  /** The name the parent is handed to the route under (`issue`, `mergeRequest`, `snippet`). */
  name: K;
  read: (projectId: number, params: P) => Promise<T | undefined>;
  /** The partition the parent heads, where its notes are. */
  partition: (projectId: number, params: P) => string;
  /** The parent as the caller may see it on a note route, or GitLab's refusal (404). */
  visible: (context: InProject, parent: T | undefined) => T;
}

/**
 * The loaders of a parent's note routes: the parent read beside authentication together with the
 * asked page of notes (`page`) or the note (`note`), or alone (`forNote`, to create one).
 */
export function projectNoteLoaders<K extends string, T, P extends { id: string | number }>(
  parent: ProjectNoteParent<K, T, P>,
) {
  type Rule<X = object> = (context: InProject & Record<K, T> & X) => boolean;
  const named = (value: T) => ({ [parent.name]: value }) as Record<K, T>;
  return {
    page: () =>
      inProject({
        read: (projectId, params: P & NotesListParams) =>
          Promise.all([
            parent.read(projectId, params),
            notesPageOf(parent.partition(projectId, params), params),
          ]),
        decide: ({ found: [read, page], ...context }) => ({
          ...named(parent.visible(context, read)),
          ...page,
        }),
      }),
    forNote: (allow: Rule) =>
      inProject({
        read: (projectId, params: P) => parent.read(projectId, params),
        decide: ({ found, ...context }) => {
          const shown = named(parent.visible(context, found));
          allowing(allow({ ...context, ...shown }));
          return shown;
        },
      }),
    note: (allow?: Rule<{ note: Note }>) =>
      inProject({
        read: (projectId, params: P & { note_id: number }) =>
          Promise.all([
            parent.read(projectId, params),
            noteOf(parent.partition(projectId, params), params.note_id),
          ]),
        decide: ({ found: [read, { note, users }], ...context }) => {
          const shown = named(parent.visible(context, read));
          if (!note) throw recordNotFound();
          if (allow) allowing(allow({ ...context, ...shown, note }));
          return { ...shown, note, users };
        },
      }),
  };
}
