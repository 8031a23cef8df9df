import { issueEntity, newIssueFrom, settableIssueFields } from '#domain/issues.ts';
import { mayBackdate, mayCreateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createIssue, issueUsers } from '#store/issuables/issues.ts';

/** Guests and up (anyone on a public or internal project) open issues; only owners backdate them. */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.create,
  load: project({ allow: mayCreateIssue, ahead: true }),
  run: async ({ params: input, caller, request, project, access }) => {
    const context = { project, caller, access };
    const createdAt = mayBackdate(context) ? input.created_at : undefined;
    const fields = settableIssueFields(input, setsIssueMetadata(context));
    const issue = await createIssue(project, newIssueFrom(fields, project.id, caller.id), createdAt);
    return reply.created(issueEntity(issue, project, await issueUsers(issue), request.baseUrl));
  },
});
