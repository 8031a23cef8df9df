import { personalSnippetEntity } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { readablePersonalSnippet } from '#http/personal-snippet-loaders.ts';
import { defineRoute } from '#http/route.ts';

/** One personal snippet the caller may read: a public one for anyone, anonymous callers too. */
export const handler = defineRoute({
  auth: 'optional',
  params: personalSnippetSchemas.one,
  load: readablePersonalSnippet(),
  run: async ({ request, snippet, users }) => personalSnippetEntity(snippet, users, request.baseUrl),
});
