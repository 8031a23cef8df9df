import { parentNoteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { epicNote } from '#http/epic-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** The single read of an epic note carries the epic's title (spec §2.4). */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('epic_id'),
  load: epicNote(),
  run: async ({ request, epic, note, users }) =>
    parentNoteEntity(note, users, request.baseUrl, { title: epic.title, file_name: null, expires_at: null }),
});
