import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { mergeRequestNotes } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('merge_request_iid'),
  load: mergeRequestNotes.note(),
  run: async ({ request, note, users }) => noteEntity(note, users, request.baseUrl),
});
