import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { personalSnippetContent } from '#http/personal-snippet-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';

/** The snippet's content as it was sent, as UTF-8 text/plain, never rendered. */
export const handler = defineRoute({
  auth: 'optional',
  params: personalSnippetSchemas.one,
  load: personalSnippetContent(),
  run: async ({ content }) => reply.text(content),
});
