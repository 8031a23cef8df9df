import { mayBackdate, mayCreateMergeRequestNote } from '#domain/noteable-policy.ts';
import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { mergeRequestNotes } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { mergeRequestAsParent } from '#store/merge-requests.ts';
import { createNoteBy } from '#store/notes.ts';

/**
 * Anyone who may read the merge request and create notes in the project (members only on a locked
 * discussion); only owners and admins backdate. A body that is one award emoji is a note like any
 * other, answered with the Note.
 */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.create('merge_request_iid'),
  load: mergeRequestNotes.forNote(mayCreateMergeRequestNote),
  run: async ({ params: input, caller, request, project, access, mergeRequest }) => {
    const createdAt = mayBackdate({ project, caller, access }) ? input.created_at : undefined;
    const { note, users } = await createNoteBy(
      caller.id,
      mergeRequestAsParent(mergeRequest),
      input.body,
      createdAt,
    );
    return reply.created(noteEntity(note, users, request.baseUrl));
  },
});
