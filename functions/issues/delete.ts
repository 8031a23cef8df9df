import { mayDeleteIssue } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteIssue } from '#store/issuables/issues.ts';

/** Only owners and admins delete an issue; its notes go with it. */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.one,
  load: issue(mayDeleteIssue),
  run: async ({ issue }) => {
    await deleteIssue(issue);
    return reply.noContent();
  },
});
