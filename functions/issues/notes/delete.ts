import { mayChangeProjectNote } from '#domain/noteable-policy.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { issueNotes } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteNote } from '#store/notes.ts';

export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('issue_iid'),
  load: issueNotes.note(mayChangeProjectNote),
  run: async ({ note }) => {
    await deleteNote(note);
    return reply.noContent();
  },
});
