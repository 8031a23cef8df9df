import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { snippetEntity } from '#domain/snippets.ts';
import { defineRoute } from '#http/route.ts';
import { shownSnippet } from '#http/snippet-loaders.ts';

/** One snippet, to whoever may read it (anonymous readers: public snippets of public projects). */
export const handler = defineRoute({
  auth: 'optional',
  params: snippetSchemas.one,
  load: shownSnippet(),
  run: async ({ request, project, snippet, users }) =>
    snippetEntity(snippet, project, users, request.baseUrl),
});
