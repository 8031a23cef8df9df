import { mayBackdateEpicNote } from '#domain/noteable-policy.ts';
import { isAwardEmoji, noteEntity, parentNoteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { epicForNote } from '#http/epic-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { epicAsParent } from '#store/epics.ts';
import { createNoteBy } from '#store/notes.ts';

/**
 * Any signed-in user who can read the group comments on its epics; only owners and admins
 * backdate. A body that is one award emoji answers with the single read's shape (spec §2.3).
 */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.create('epic_id'),
  load: epicForNote(),
  run: async ({ params: input, caller, request, access, epic }) => {
    const createdAt = mayBackdateEpicNote({ caller, access }) ? input.created_at : undefined;
    const { note, users } = await createNoteBy(caller.id, epicAsParent(epic), input.body, createdAt);
    return reply.created(
      isAwardEmoji(note.body)
        ? parentNoteEntity(note, users, request.baseUrl, {
            title: epic.title,
            file_name: null,
            expires_at: null,
          })
        : noteEntity(note, users, request.baseUrl),
    );
  },
});
