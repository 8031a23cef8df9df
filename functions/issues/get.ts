import { issueEntity } from '#domain/issues.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.one,
  load: issue(),
  run: async ({ request, project, issue, users }) => issueEntity(issue, project, users, request.baseUrl),
});
