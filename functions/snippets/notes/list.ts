import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippetNotes } from '#http/snippet-loaders.ts';

export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: noteSchemas.list('snippet_id'),
  load: snippetNotes.page(),
  run: async ({ page, request, snippet, notes, users }) =>
    reply.page(
      notes.map((note) => noteEntity(note, users, request.baseUrl)),
      snippet.notes_count,
      page,
    ),
});
