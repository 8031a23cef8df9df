/**
 * Loaders of the routes on group epics (and their notes): the group, the epic and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Group Not Found` for a group the caller may not see, 404 `Not found` for an
 * epic the group does not have, 403 when the caller may see it but not act.
 *
 * The epic routes name the epic by iid (`epic_iid`); the note routes by `epic_id`, resolved as the
 * global id of an epic of this group first and only then as an iid (see readEpicForNotes).
 */
import { invalidParams, recordNotFound } from '#domain/errors.ts';
import type { InGroup } from '#domain/noteable-policy.ts';
import type { Note } from '#domain/notes.ts';
import { atLeastOneOf } from '#domain/params.ts';
import type { User } from '#domain/users.ts';
import { epicUsers, readEpicByIid, readEpicForNotes, type StoredEpic } from '#store/epics.ts';
import { keys } from '#store/keys.ts';
import { inGroup } from './load.ts';
import { allowing, type NotesListParams, noteOf, notesPageOf } from './note-reads.ts';

type EpicRule<X = object> = (context: InGroup & { epic: StoredEpic } & X) => boolean;

/** The group's epic, or 404 `Not found`. */
function found(epic: StoredEpic | undefined): StoredEpic {
  if (!epic) throw recordNotFound();
  return epic;
}

/** The group an epic is created in; `allow` decides creating. */
export const epicGroup = <P extends { id: string | number }>(allow: (context: InGroup) => boolean) =>
  inGroup({
    read: async (_groupId, _params: P) => undefined,
    decide: (context) => {
      allowing(allow(context));
      return {};
    },
  });

/**
 * The epic named by `epic_iid`, with the users it shows. `atLeastOneOf` names parameters of which
 * the request must send one (Grape's `at_least_one_of`): refused with 400 once the group is known
 * and before the epic is looked at, in GitLab's order.
 */
export const epic = <P extends { id: string | number; epic_iid: number }>(
  allow?: EpicRule,
  atLeastOne?: readonly string[],
) =>
  inGroup({
    read: async (groupId, params: P) => {
      const stored = await readEpicByIid(groupId, params.epic_iid);
      return { epic: stored, users: stored ? await epicUsers(stored) : new Map<number, User>() };
    },
    decide: ({ found: read, ...context }) => {
      const missing = atLeastOne && atLeastOneOf(context.params, atLeastOne);
      if (missing) throw invalidParams(missing);
      const shown = found(read.epic);
      if (allow) allowing(allow({ ...context, epic: shown }));
      return { epic: shown, users: read.users };
    },
  });

/**
 * The epic of a notes list and the asked page of its notes with their authors. The page of the
 * partition `epic_id` names as an id is read beside the epic; when the value turns out to be an
 * iid, the page of the epic it names is read once that epic is known.
 */
export const epicNotesPage = <P extends { id: string | number; epic_id: number } & NotesListParams>() =>
  inGroup({
    read: async (groupId, params: P) => {
      const guessed = notesPageOf(keys.epic(params.epic_id).pk, params);
      guessed.catch(() => undefined);
      const parent = await readEpicForNotes(groupId, params.epic_id);
      if (!parent) return undefined;
      const page =
        parent.id === params.epic_id ? await guessed : await notesPageOf(keys.epic(parent.id).pk, params);
      return { epic: parent, ...page };
    },
    decide: ({ found: read }) => {
      if (!read) throw recordNotFound();
      return read;
    },
  });

/** The epic a note is created on: any signed-in reader of the group may (EpicPolicy `create_note`). */
export const epicForNote = <P extends { id: string | number; epic_id: number }>() =>
  inGroup({
    read: (groupId, params: P) => readEpicForNotes(groupId, params.epic_id),
    decide: ({ found: read }) => ({ epic: found(read) }),
  });

/** One note of an epic with its author; `allow` decides acting on it (edit, delete). */
export const epicNote = <P extends { id: string | number; epic_id: number; note_id: number }>(
  allow?: EpicRule<{ note: Note }>,
) =>
  inGroup({
    read: async (groupId, params: P) => {
      const guessed = noteOf(keys.epic(params.epic_id).pk, params.note_id);
      guessed.catch(() => undefined);
      const parent = await readEpicForNotes(groupId, params.epic_id);
      if (!parent) return undefined;
      const read =
        parent.id === params.epic_id ? await guessed : await noteOf(keys.epic(parent.id).pk, params.note_id);
      return { epic: parent, ...read };
    },
    decide: ({ found: read, ...context }) => {
      const shown = found(read?.epic);
      if (!read?.note) throw recordNotFound();
      if (allow) allowing(allow({ ...context, epic: shown, note: read.note }));
      return { epic: shown, note: read.note, users: read.users };
    },
  });
