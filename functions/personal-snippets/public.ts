import { createdWindowOf, personalSnippetEntity } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listPublicPersonalSnippets } from '#store/issuables/personal-snippets.ts';

/** Every public personal snippet, newest first, for any signed-in user. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: personalSnippetSchemas.list,
  run: async ({ params: input, page, request }) => {
    const { items, total, users } = await listPublicPersonalSnippets(page, createdWindowOf(input));
    return reply.page(
      items.map((snippet) => personalSnippetEntity(snippet, users, request.baseUrl)),
      total,
      page,
    );
  },
});
