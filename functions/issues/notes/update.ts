import { mayChangeProjectNote } from '#domain/noteable-policy.ts';
import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { issueNotes } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { editNote } from '#store/notes.ts';

/** The author, maintainers and admins edit a note; system notes are nobody's to edit. */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.update('issue_iid'),
  load: issueNotes.note(mayChangeProjectNote),
  run: async ({ params: input, caller, request, note, users }) =>
    noteEntity(await editNote(note, input.body, caller.id), users, request.baseUrl),
});
