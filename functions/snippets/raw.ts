import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippetContent } from '#http/snippet-loaders.ts';

/** The snippet's content as it was sent, as UTF-8 text/plain (GitLab's), never rendered. */
export const handler = defineRoute({
  auth: 'optional',
  params: snippetSchemas.one,
  load: snippetContent(),
  run: async ({ content }) => reply.text(content),
});
