import { mayBackdate, mayCreateNote } from '#domain/noteable-policy.ts';
import { isAwardEmoji, noteEntity, parentNoteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { snippetNoteFields } from '#domain/snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippetNotes } from '#http/snippet-loaders.ts';
import { createNoteBy } from '#store/notes.ts';
import { snippetAsParent } from '#store/snippets.ts';

/**
 * Anyone who may read the snippet and create notes in the project; only owners and admins backdate.
 * A body of one award emoji answers with the single read's object (spec §2.4).
 */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.create('snippet_id'),
  load: snippetNotes.forNote(mayCreateNote),
  run: async ({ params: input, caller, request, project, access, snippet }) => {
    const createdAt = mayBackdate({ project, caller, access }) ? input.created_at : undefined;
    const { note, users } = await createNoteBy(caller.id, snippetAsParent(snippet), input.body, createdAt);
    return reply.created(
      isAwardEmoji(note.body)
        ? parentNoteEntity(note, users, request.baseUrl, snippetNoteFields(snippet))
        : noteEntity(note, users, request.baseUrl),
    );
  },
});
