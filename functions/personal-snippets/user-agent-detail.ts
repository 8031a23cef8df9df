import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { userAgentDetailEntity } from '#domain/user-agent-details.ts';
import { personalSnippetUserAgent } from '#http/personal-snippet-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** Admins see the client that created a snippet. */
export const handler = defineRoute({
  auth: 'admin',
  params: personalSnippetSchemas.one,
  load: personalSnippetUserAgent(),
  run: async ({ detail }) => userAgentDetailEntity(detail),
});
