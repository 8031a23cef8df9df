import { personalSnippetChanges, personalSnippetEntity } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { ownPersonalSnippet } from '#http/personal-snippet-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { changePersonalSnippet } from '#store/issuables/personal-snippets.ts';

/** The author changes their snippet: at least one of its fields or its content. */
export const handler = defineRoute({
  auth: 'user',
  params: personalSnippetSchemas.update,
  load: ownPersonalSnippet(),
  run: async ({ params: input, request, snippet, users }) => {
    const { changes, content } = personalSnippetChanges(input);
    const changed = await changePersonalSnippet(snippet, changes, content);
    return personalSnippetEntity(changed, users, request.baseUrl);
  },
});
