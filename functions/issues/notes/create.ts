import { mayBackdate, mayCreateIssueNote } from '#domain/noteable-policy.ts';
import { noteEntity } from '#domain/notes.ts';
import { noteSchemas } from '#domain/schemas/notes.ts';
import { issueNotes } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { issueAsParent } from '#store/issues.ts';
import { createNoteBy } from '#store/notes.ts';

/** Anyone who may read the issue and create notes in the project; only owners and admins backdate. */
export const handler = defineRoute({
  auth: 'user',
  params: noteSchemas.create('issue_iid'),
  load: issueNotes.forNote(mayCreateIssueNote),
  run: async ({ params: input, caller, request, project, access, issue }) => {
    const createdAt = mayBackdate({ project, caller, access }) ? input.created_at : undefined;
    const { note, users } = await createNoteBy(caller.id, issueAsParent(issue), input.body, createdAt);
    return reply.created(noteEntity(note, users, request.baseUrl));
  },
});
