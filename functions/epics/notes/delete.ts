import { mayChangeEpicNote } from '#domain/noteable-policy.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { epicNote } from '#http/epic-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteNote } from '#store/notes.ts';

export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('epic_id'),
  load: epicNote(mayChangeEpicNote),
  run: async ({ note }) => {
    await deleteNote(note);
    return reply.noContent();
  },
});
