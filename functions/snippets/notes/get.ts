import { parentNoteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { snippetNoteFields } from '#domain/snippets.ts';
import { defineRoute } from '#http/route.ts';
import { snippetNotes } from '#http/snippet-loaders.ts';

/** The note with the snippet's title, file name and expiry (spec §2.4) beside the Note's fields. */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.one('snippet_id'),
  load: snippetNotes.note(),
  run: async ({ request, snippet, note, users }) =>
    parentNoteEntity(note, users, request.baseUrl, snippetNoteFields(snippet)),
});
