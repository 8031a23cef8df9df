import { participantsEntity } from '#domain/issue-participants.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issueParticipants } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** Who took part in an issue (author, assignees, authors of its notes), to whoever may read it. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.one,
  load: issueParticipants(),
  run: async ({ page, request, participantIds, users }) =>
    reply.pageOf(participantsEntity(participantIds, users, request.baseUrl), page),
});
