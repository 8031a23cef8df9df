import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { mergeRequestNotes } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: noteSchemas.list('merge_request_iid'),
  load: mergeRequestNotes.page(),
  run: async ({ page, request, mergeRequest, notes, users }) =>
    reply.page(
      notes.map((note) => noteEntity(note, users, request.baseUrl)),
      mergeRequest.notes_count,
      page,
    ),
});
