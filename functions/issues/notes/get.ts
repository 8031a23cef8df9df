import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { issueNotes } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('issue_iid'),
  load: issueNotes.note(),
  run: async ({ request, note, users }) => noteEntity(note, users, request.baseUrl),
});
