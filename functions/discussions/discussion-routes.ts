/**
 * The discussion routes (list, get, create, reply, a note's read, change and removal, and a merge
 * request thread's resolution), built from a noteable parent kind's descriptor (`Noteable`,
 * #http/noteables.ts). Each entry of this folder serves its route for every kind through
 * `perNoteable`: `export const handler = perNoteable(discussionRoutes.list)`.
 */
import { discussionEntity, newThreadId } from '#domain/discussions.ts';
import { noteEntity } from '#domain/notes.ts';
import { discussionSchemas } from '#domain/schemas/discussions.ts';
import { discussionLoaders } from '#http/discussion-loaders.ts';
import type { AnyNoteable } from '#http/noteables.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { replyToDiscussion, setResolved, startThread, usersOfNotes } from '#store/issuables/discussions.ts';
import { deleteNote, editNote } from '#store/issuables/notes.ts';

export const discussionRoutes = {
  /** A page of the parent's discussions, oldest first, with their total. */
  list: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      paginated: true,
      params: discussionSchemas.list(noteable.param),
      load: discussionLoaders.page(noteable),
      run: async ({ page, request, found: { discussions, total, users } }) =>
        reply.page(
          discussions.map((discussion) => discussionEntity(discussion, users, request.baseUrl)),
          total,
          page,
        ),
    }),

  /** One discussion with its notes. */
  get: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.one(noteable.param),
      load: discussionLoaders.one(noteable),
      run: async ({ request, discussion, users }) => discussionEntity(discussion, users, request.baseUrl),
    }),

  /** A new thread, its first note by the caller (`created_at` only where the parent allows backdating). */
  create: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.create(noteable.param),
      load: discussionLoaders.toThread(noteable),
      run: async ({ params: input, caller, request, parent, backdate }) => {
        const { discussion, users } = await startThread(
          caller.id,
          noteable.asParent(parent),
          input.body,
          newThreadId(),
          backdate ? input.created_at : undefined,
        );
        return reply.created(discussionEntity(discussion, users, request.baseUrl));
      },
    }),

  /** A reply by the caller in a discussion. */
  reply: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.reply(noteable.param),
      load: discussionLoaders.toReply(noteable),
      run: async ({ params: input, caller, request, parent, discussion, backdate }) => {
        const { note, users } = await replyToDiscussion(
          caller.id,
          noteable.asParent(parent),
          discussion,
          input.body,
          backdate ? input.created_at : undefined,
        );
        return reply.created(noteEntity(note, users, request.baseUrl));
      },
    }),

  /** One note of the parent (GitLab finds it by its id alone). */
  getNote: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.note(noteable.param),
      load: noteable.note(),
      run: async ({ request, note, users }) => noteEntity(note, users, request.baseUrl),
    }),

  /** A note's new body, or its resolution (a merge request thread's note). */
  updateNote: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.updateNote(noteable.param),
      load: discussionLoaders.noteChange(noteable),
      run: async ({ caller, request, note, users, change }) => {
        if ('body' in change)
          return noteEntity(await editNote(note, change.body, caller.id), users, request.baseUrl);
        const [resolved = note] = await setResolved([note], change.resolved ? caller.id : undefined);
        return noteEntity(resolved, await usersOfNotes([resolved]), request.baseUrl);
      },
    }),

  /** A note removed, by those who may change it; a thread goes with its last note. */
  deleteNote: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.note(noteable.param),
      load: noteable.note(true),
      run: async ({ note }) => {
        await deleteNote(note);
        return reply.noContent();
      },
    }),

  /** A merge request thread resolved or unresolved as a whole. */
  resolve: (noteable: AnyNoteable) =>
    defineRoute({
      auth: 'user',
      params: discussionSchemas.resolve(noteable.param),
      load: discussionLoaders.toResolve(noteable),
      run: async ({ params: input, caller, request, discussion }) => {
        const notes = await setResolved(discussion.notes, input.resolved ? caller.id : undefined);
        return discussionEntity({ ...discussion, notes }, await usersOfNotes(notes), request.baseUrl);
      },
    }),
};
