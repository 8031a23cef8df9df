import { newPersonalSnippetFrom, personalSnippetEntity } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { detailOfCreatingRequest } from '#domain/user-agent-details.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createPersonalSnippet } from '#store/issuables/personal-snippets.ts';

/** Signed-in users but external ones create personal snippets (internal unless told); the client is recorded. */
export const handler = defineRoute({
  auth: 'user',
  params: personalSnippetSchemas.create,
  run: async ({ params: input, caller, request }) => {
    const { snippet: fields, content } = newPersonalSnippetFrom(input, caller);
    const { snippet, users } = await createPersonalSnippet(fields, content, detailOfCreatingRequest(request));
    return reply.created(personalSnippetEntity(snippet, users, request.baseUrl));
  },
});
