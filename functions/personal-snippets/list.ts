import { createdWindowOf, personalSnippetEntity } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listPersonalSnippetsOfUser } from '#store/issuables/personal-snippets.ts';

/** The caller's own personal snippets, newest first. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: personalSnippetSchemas.list,
  run: async ({ params: input, caller, page, request }) => {
    const { items, total, users } = await listPersonalSnippetsOfUser(caller.id, page, createdWindowOf(input));
    return reply.page(
      items.map((snippet) => personalSnippetEntity(snippet, users, request.baseUrl)),
      total,
      page,
    );
  },
});
