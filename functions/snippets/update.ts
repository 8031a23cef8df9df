import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { mayChangeSnippet, snippetChanges, snippetEntity } from '#domain/snippets.ts';
import { defineRoute } from '#http/route.ts';
import { snippet } from '#http/snippet-loaders.ts';
import { changeSnippet } from '#store/issuables/snippets.ts';

/** The author and maintainers change a snippet: at least one of its fields or its content. */
export const handler = defineRoute({
  auth: 'user',
  params: snippetSchemas.update,
  load: snippet(mayChangeSnippet),
  run: async ({ params: input, request, project, snippet, users }) => {
    const { changes, content } = snippetChanges(input);
    const changed = await changeSnippet(snippet, changes, content);
    return snippetEntity(changed, project, users, request.baseUrl);
  },
});
