import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { epicNotesPage } from '#http/epic-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** `epic_id` is the epic's global id, or else the iid of an epic of the group. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: noteSchemas.list('epic_id'),
  load: epicNotesPage(),
  run: async ({ page, request, epic, notes, users }) =>
    reply.page(
      notes.map((note) => noteEntity(note, users, request.baseUrl)),
      epic.notes_count,
      page,
    ),
});
