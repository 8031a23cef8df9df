import { createdWindowOf, personalSnippetEntity, personalSnippetReachOf } from '#domain/personal-snippets.ts';
import { personalSnippetSchemas } from '#domain/schemas/personal-snippets.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listReachablePersonalSnippets } from '#store/issuables/personal-snippets.ts';

/** The personal snippets the caller may read, newest first: every one for admins. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: personalSnippetSchemas.list,
  run: async ({ params: input, caller, page, request }) => {
    const { items, total, users } = await listReachablePersonalSnippets(
      personalSnippetReachOf(caller),
      page,
      createdWindowOf(input),
    );
    return reply.page(
      items.map((snippet) => personalSnippetEntity(snippet, users, request.baseUrl)),
      total,
      page,
    );
  },
});
