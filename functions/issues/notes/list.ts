import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { issueNotes } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: noteSchemas.list('issue_iid'),
  load: issueNotes.page(),
  run: async ({ page, request, issue, notes, users }) =>
    reply.page(
      notes.map((note) => noteEntity(note, users, request.baseUrl)),
      issue.notes_count,
      page,
    ),
});
