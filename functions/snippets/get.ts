import { snippetSchemas } from '#domain/schemas/snippets.ts';
import { snippetEntity } from '#domain/snippets.ts';
import { defineRoute } from '#http/route.ts';
import { shownSnippet } from '#http/snippet-loaders.ts';

export const handler = defineRoute({
  auth: 'user',
  params: snippetSchemas.one,
  load: shownSnippet(),
  run: async ({ request, project, snippet, users }) =>
    snippetEntity(snippet, project, users, request.baseUrl),
});
