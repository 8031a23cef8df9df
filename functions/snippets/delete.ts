import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { mayChangeSnippet } from '#domain/snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { snippet } from '#http/snippet-loaders.ts';
import { deleteSnippet } from '#store/issuables/snippets.ts';

/** The author and maintainers delete a snippet; its notes and content go with it. */
export const handler = defineRoute({
  auth: 'user',
  params: snippetSchemas.one,
  load: snippet(mayChangeSnippet),
  run: async ({ snippet }) => {
    await deleteSnippet(snippet);
    return reply.noContent();
  },
});
