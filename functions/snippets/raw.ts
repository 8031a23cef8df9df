import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippetContent } from '#http/snippet-loaders.ts';

/** The snippet's content as it was sent, as text/plain. */
export const handler = defineRoute({
  auth: 'user',
  params: snippetSchemas.one,
  load: snippetContent(),
  run: async ({ content }) => reply.raw(Buffer.from(content, 'utf8'), 'text/plain'),
});
