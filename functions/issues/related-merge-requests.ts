import { issueSchemas } from '#domain/schemas/issues.ts';
import { readableIssue } from '#http/issue-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/**
 * The merge requests that mention or close the issue: none records such references here, so a
 * readable issue has none.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: issueSchemas.one,
  load: readableIssue(),
  run: async ({ page }) => reply.page([], 0, page),
});
