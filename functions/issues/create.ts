import { issueEntity, newIssueFrom } from '#domain/issues.ts';
import { mayBackdate, mayCreateIssue } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createIssue, issueUsers } from '#store/issues.ts';

/** Guests and up (anyone on a public or internal project) open issues; only owners backdate them. */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.create,
  load: project({ allow: mayCreateIssue, ahead: true }),
  run: async ({ params: input, caller, request, project, access }) => {
    const createdAt = mayBackdate({ project, caller, access }) ? input.created_at : undefined;
    const issue = await createIssue(project, newIssueFrom(input, project.id, caller.id), createdAt);
    return reply.created(issueEntity(issue, project, await issueUsers(issue), request.baseUrl));
  },
});
