import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { userAgentDetailEntity } from '#domain/user-agent-details.ts';
import { defineRoute } from '#http/route.ts';
import { snippetUserAgentDetail } from '#http/snippet-loaders.ts';

/** The client that created the snippet: admins only (401 anonymous, 403 others, before the snippet is looked at). */
export const handler = defineRoute({
  auth: 'admin',
  params: snippetSchemas.one,
  load: snippetUserAgentDetail(),
  run: async ({ detail }) => userAgentDetailEntity(detail),
});
