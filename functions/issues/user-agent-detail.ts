import { issueSchemas } from '#domain/schemas/issues.ts';
import { userAgentDetailEntity } from '#domain/user-agent-details.ts';
import { issueUserAgentDetail } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** The client that created the issue: admins only (401 anonymous, 403 others, before the issue is looked at). */
export const handler = defineRoute({
  auth: 'admin',
  params: issueSchemas.one,
  load: issueUserAgentDetail(),
  run: async ({ detail }) => userAgentDetailEntity(detail),
});
