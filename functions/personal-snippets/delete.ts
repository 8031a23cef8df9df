import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { ownPersonalSnippet } from '#http/personal-snippet-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deletePersonalSnippet } from '#store/issuables/personal-snippets.ts';

/** The author deletes their snippet; its notes and content go with it. */
export const handler = defineRoute({
  auth: 'user',
  params: personalSnippetSchemas.one,
  load: ownPersonalSnippet(),
  run: async ({ snippet }) => {
    await deletePersonalSnippet(snippet);
    return reply.noContent();
  },
});
