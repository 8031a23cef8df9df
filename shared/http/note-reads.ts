/**
 * What the note routes of every parent share: a page of notes, one note, with their authors, and
 * the descriptor of a noteable parent kind (`Noteable`: how its note routes find it under its
 * project or group, who sees it and who may act), from which functions/notes/note-routes.ts builds them.
 */
import { ApiError, forbidden, recordNotFound } from '#domain/errors.ts';
import { type InGroup, type InProject, mayBackdate, mayChangeProjectNote } from '#domain/noteable-policy.ts';
import type { NoteParentParam } from '#domain/noteables.ts';
import { type Note, type NoteParent, type NoteParentFields, noteAuthorIds } from '#domain/notes.ts';
import type { User } from '#domain/users.ts';
import { getNote, readNotesPage, type StoredNote } from '#store/issuables/notes.ts';
import { getUsers } from '#store/users/users.ts';
import { inGroup, inProject, type Loader } from './load.ts';
import { pageRequestOf } from './route.ts';

/** Parameters of a notes list. */
interface NotesListParams {
  sort?: 'asc' | 'desc';
  order_by?: 'created_at' | 'updated_at';
  page?: number;
  per_page?: number;
}

/** A page of a parent's notes (GitLab's default: newest first by creation) with their authors. */
async function notesPageOf(pk: string, params: NotesListParams) {
  const notes = await readNotesPage(pk, {
    order: params.order_by ?? 'created_at',
    sort: params.sort ?? 'desc',
    page: pageRequestOf(params),
  });
  return { notes, users: await getUsers(noteAuthorIds(notes)) };
}

/** A note that is not there (the store's 404), as opposed to a read that failed. */
const absent = (error: unknown) => {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
};

/** One note of a parent with its author; undefined when there is none (a failed read still fails). */
async function noteOf(pk: string, noteId: number) {
  const note = await getNote(pk, noteId).catch(absent);
  return { note, users: note ? await getUsers([note.author_id]) : new Map<number, User>() };
}

/** 403 unless a rule allows the caller to act on what they can see. */
export const allowing = (allowed: boolean) => {
  if (!allowed) throw forbidden();
};

type Users = Map<number, User>;

/** What a note route's loader is given: the project's or group's `id` and the route's own parameters. */
type ById = { id: string | number };

/**
 * A noteable parent kind (issues, merge requests, snippets, epics) as its five note routes need it;
 * `noteRoutes` (functions/notes/note-routes.ts) builds the routes from it. Built by `projectNoteable` or
 * `groupNoteable`, which decide how the parent is found under its project or group, who sees it
 * (404 `Not found` otherwise) and who may act (403).
 */
export interface Noteable<T extends { notes_count: number }> {
  /** The route parameter naming the parent, as GitLab names it. */
  param: NoteParentParam;
  /** The parent and the asked page of its notes with their authors (the list). */
  page: () => Loader<ById & NotesListParams, { parent: T; notes: StoredNote[]; users: Users }>;
  /** The parent a note is created on, once the caller may; `backdate`: whether `created_at` is honoured. */
  toNote: () => Loader<ById, { parent: T; backdate: boolean }>;
  /** One of its notes with its author; `change`: the caller edits or deletes it (403 unless they may). */
  note: (
    change?: boolean,
  ) => Loader<ById & { note_id: number }, { parent: T; note: StoredNote; users: Users }>;
  /**
   * The parent with `read` of its partition done beside it (the discussion routes), and what the
   * caller may do with its notes.
   */
  reading: <P extends ById, R>(
    read: (partition: string, params: P) => Promise<R>,
  ) => Loader<P, { parent: T; found: R } & NoteActs>;
  /** The parent a new note on it records. */
  asParent: (parent: T) => NoteParent;
  /** What it adds to its notes' single read (and to the answer to a one-award-emoji note); none: the Note alone. */
  shown?: (parent: T) => NoteParentFields;
}

/** What the caller may do with a parent's notes, as its kind decides. */
interface NoteActs {
  /** Whether they may note on it. */
  creates: boolean;
  /** Whether their `created_at` is honoured. */
  backdate: boolean;
  /** Whether they may edit or delete a note of it. */
  changes: (note: Note) => boolean;
  /** Whether they may resolve its threads. */
  resolves: boolean;
}

/** What every parent kind declares beside how it is found and who may act. */
type NoteableBasics<T extends { notes_count: number }> = Pick<Noteable<T>, 'param' | 'asParent' | 'shown'>;

/** A parent kind kept under a project (issues, merge requests, snippets). */
interface ProjectNoteableSpec<T extends { notes_count: number }, P extends ById> extends NoteableBasics<T> {
  read: (projectId: number, params: P) => Promise<T | undefined>;
  /** The partition the parent heads, where its notes are. */
  partition: (projectId: number, params: P) => string;
  /** Whether the caller sees the parent on a note route (404 `Not found` otherwise). */
  visible: (context: InProject, parent: T) => boolean;
  /** Who creates notes on it (once they see it). */
  mayCreate: (context: InProject, parent: T) => boolean;
  /** Who edits and deletes one of its notes: by default a project note's author, maintainers and admins. */
  mayChange?: (context: InProject & { note: Note }) => boolean;
  /** Whose `created_at` on a new note is honoured: by default owners' and admins'. */
  mayBackdate?: (context: InProject) => boolean;
  /** Who resolves its threads; nobody where they are not resolvable. */
  mayResolve?: (context: InProject, parent: T) => boolean;
}

/**
 * A project's parent kind: the parent is read beside authentication together with the asked page
 * of notes (`page`) or the note (`note`), or alone (`toNote`, to create one).
 */
export function projectNoteable<T extends { notes_count: number }, P extends ById>(
  spec: ProjectNoteableSpec<T, P>,
): Noteable<T> {
  const { mayChange = mayChangeProjectNote, mayBackdate: backdates = mayBackdate } = spec;
  const visible = (context: InProject, parent: T | undefined): T => {
    if (!parent || !spec.visible(context, parent)) throw recordNotFound();
    return parent;
  };
  return {
    param: spec.param,
    asParent: spec.asParent,
    shown: spec.shown,
    page: () =>
      inProject({
        read: (projectId, params: P & NotesListParams) =>
          Promise.all([spec.read(projectId, params), notesPageOf(spec.partition(projectId, params), params)]),
        decide: ({ found: [read, page], ...context }) => ({ parent: visible(context, read), ...page }),
      }),
    reading: (read) =>
      inProject({
        read: (projectId, params) =>
          Promise.all([
            spec.read(projectId, params as unknown as P),
            read(spec.partition(projectId, params as unknown as P), params),
          ]),
        decide: ({ found: [stored, found], ...context }) => {
          const parent = visible(context, stored);
          return {
            parent,
            found,
            creates: spec.mayCreate(context, parent),
            backdate: backdates(context),
            changes: (note: Note) => mayChange({ ...context, note }),
            resolves: spec.mayResolve?.(context, parent) ?? false,
          };
        },
      }),
    toNote: () =>
      inProject({
        read: (projectId, params: P) => spec.read(projectId, params),
        decide: ({ found, ...context }) => {
          const parent = visible(context, found);
          allowing(spec.mayCreate(context, parent));
          return { parent, backdate: backdates(context) };
        },
      }),
    note: (change) =>
      inProject({
        read: (projectId, params: P & { note_id: number }) =>
          Promise.all([
            spec.read(projectId, params),
            noteOf(spec.partition(projectId, params), params.note_id),
          ]),
        decide: ({ found: [read, { note, users }], ...context }) => {
          const parent = visible(context, read);
          if (!note) throw recordNotFound();
          if (change) allowing(mayChange({ ...context, note }));
          return { parent, note, users };
        },
      }),
  };
}

/** A parent kind kept under a group (epics). */
interface GroupNoteableSpec<T extends { notes_count: number }, P extends ById> extends NoteableBasics<T> {
  /** The group's parent the parameters name, or undefined (404 `Not found`). */
  read: (groupId: number, params: P) => Promise<T | undefined>;
  /** The partition the parameters name, read beside the parent: right unless the parent says otherwise. */
  guess: (params: P) => string;
  /** The partition the parent heads, where its notes are. */
  partition: (parent: T) => string;
  /** Who creates notes on it; any reader of the group without one. */
  mayCreate?: (context: InGroup, parent: T) => boolean;
  /** Who edits and deletes one of its notes. */
  mayChange: (context: InGroup & { note: Note }) => boolean;
  /** Whose `created_at` on a new note is honoured. */
  mayBackdate: (context: InGroup) => boolean;
}

/**
 * A group's parent kind. The page (or note) of the partition the parameters name is read beside
 * the parent; when the parent turns out to head another, that one's is read once it is known.
 */
export function groupNoteable<T extends { notes_count: number }, P extends ById>(
  spec: GroupNoteableSpec<T, P>,
): Noteable<T> {
  const found = (parent: T | undefined): T => {
    if (!parent) throw recordNotFound();
    return parent;
  };
  /** `read` of the parent's partition, started on the guess beside the parent's read. */
  const withParent = async <R>(groupId: number, params: P, read: (partition: string) => Promise<R>) => {
    const guessed = read(spec.guess(params));
    guessed.catch(() => undefined);
    const parent = await spec.read(groupId, params);
    if (!parent) return undefined;
    const partition = spec.partition(parent);
    return { parent, ...(partition === spec.guess(params) ? await guessed : await read(partition)) };
  };
  return {
    param: spec.param,
    asParent: spec.asParent,
    shown: spec.shown,
    page: () =>
      inGroup({
        read: (groupId, params: P & NotesListParams) =>
          withParent(groupId, params, (partition) => notesPageOf(partition, params)),
        decide: ({ found: read }) => {
          if (!read) throw recordNotFound();
          return read;
        },
      }),
    reading: (read) =>
      inGroup({
        read: (groupId, params) =>
          withParent(groupId, params as unknown as P, async (partition) => ({
            found: await read(partition, params),
          })),
        decide: ({ found: stored, ...context }) => {
          if (!stored) throw recordNotFound();
          const { parent } = stored;
          return {
            parent,
            found: stored.found,
            creates: spec.mayCreate?.(context, parent) ?? true,
            backdate: spec.mayBackdate(context),
            changes: (note: Note) => spec.mayChange({ ...context, note }),
            resolves: false,
          };
        },
      }),
    toNote: () =>
      inGroup({
        read: (groupId, params: P) => spec.read(groupId, params),
        decide: ({ found: read, ...context }) => {
          const parent = found(read);
          if (spec.mayCreate) allowing(spec.mayCreate(context, parent));
          return { parent, backdate: spec.mayBackdate(context) };
        },
      }),
    note: (change) =>
      inGroup({
        read: (groupId, params: P & { note_id: number }) =>
          withParent(groupId, params, (partition) => noteOf(partition, params.note_id)),
        decide: ({ found: read, ...context }) => {
          const parent = found(read?.parent);
          if (!read?.note) throw recordNotFound();
          if (change) allowing(spec.mayChange({ ...context, note: read.note }));
          return { parent, note: read.note, users: read.users };
        },
      }),
  };
}
