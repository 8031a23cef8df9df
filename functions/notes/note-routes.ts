/**
 * The five note routes (list, get, create, update, delete), built from a noteable parent kind's
 * descriptor (`Noteable`, #http/noteables.ts). Each entry of this folder serves its route for every
 * kind through `perNoteable`: `export const handler = perNoteable(noteRoutes.list)`.
 */
import { isAwardEmoji, type Note, noteEntity, parentNoteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import type { User } from '#domain/users.ts';
import type { AnyNoteable } from '#http/noteables.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createNoteBy, deleteNote, editNote } from '#store/issuables/notes.ts';

/** A note as its single read shows it: with what its parent adds, where it adds anything. */
const shownNote = (
  noteable: AnyNoteable,
  parent: { notes_count: number },
  note: Note,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
) =>
  noteable.shown
    ? parentNoteEntity(note, users, baseUrl, noteable.shown(parent))
    : noteEntity(note, users, baseUrl);

export const noteRoutes = {
  /** A page of the parent's notes; the total is its `notes_count`. */
  list: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      paginated: true,
      params: noteSchemas.list(noteable.param),
      load: noteable.page(),
      run: async ({ page, request, parent, notes, users }) =>
        reply.page(
          notes.map((note) => noteEntity(note, users, request.baseUrl)),
          parent.notes_count,
          page,
        ),
    }),

  /** One note, with what its parent adds to the single read. */
  get: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: noteSchemas.one(noteable.param),
      load: noteable.note(),
      run: async ({ request, parent, note, users }) =>
        shownNote(noteable, parent, note, users, request.baseUrl),
    }),

  /**
   * A new note by the caller (`created_at` only where the parent allows backdating). A body that is
   * one award emoji answers with the single read's shape.
   */
  create: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: noteSchemas.create(noteable.param),
      load: noteable.toNote(),
      run: async ({ params: input, caller, request, parent, backdate }) => {
        const createdAt = backdate ? input.created_at : undefined;
        const { note, users } = await createNoteBy(
          caller.id,
          noteable.asParent(parent),
          input.body,
          createdAt,
        );
        return reply.created(
          isAwardEmoji(note.body)
            ? shownNote(noteable, parent, note, users, request.baseUrl)
            : noteEntity(note, users, request.baseUrl),
        );
      },
    }),

  /** A note's new body, by those who may change it; system notes are nobody's to edit. */
  update: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: noteSchemas.update(noteable.param),
      load: noteable.note(true),
      run: async ({ params: input, caller, request, note, users }) =>
        noteEntity(await editNote(note, input.body, caller.id), users, request.baseUrl),
    }),

  /** A note removed, by those who may change it; system notes are nobody's to delete. */
  delete: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: noteSchemas.one(noteable.param),
      load: noteable.note(true),
      run: async ({ note }) => {
        await deleteNote(note);
        return reply.noContent();
      },
    }),
};
