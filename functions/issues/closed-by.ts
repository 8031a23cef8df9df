import { issueSchemas } from '#domain/schemas/issues.ts';
import { readableIssue } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/**
 * The merge requests that close the issue when merged: a merge request closes none here (none
 * names the issues it closes), so a readable issue has none.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.one,
  load: readableIssue(),
  run: async ({ page }) => reply.page([], 0, page),
});
