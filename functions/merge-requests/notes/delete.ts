import { mayChangeProjectNote } from '#domain/noteable-policy.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { mergeRequestNotes } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteNote } from '#store/notes.ts';

/** The author, maintainers and admins delete a note; system notes are nobody's to delete. */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('merge_request_iid'),
  load: mergeRequestNotes.note(mayChangeProjectNote),
  run: async ({ note }) => {
    await deleteNote(note);
    return reply.noContent();
  },
});
