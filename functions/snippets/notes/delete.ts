import { mayChangeProjectNote } from '#domain/noteable-policy.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippetNotes } from '#http/snippet-loaders.ts';
import { deleteNote } from '#store/notes.ts';

export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('snippet_id'),
  load: snippetNotes.note(mayChangeProjectNote),
  run: async ({ note }) => {
    await deleteNote(note);
    return reply.noContent();
  },
});
