import { presentNamespace } from '#domain/namespaces.ts';
import { namespaceSchemas } from '#domain/schemas/namespaces.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listNamespacesFor } from '#store/projects/namespace-pages.ts';

/** The caller's personal namespace and groups (admins: every namespace), in id order. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: namespaceSchemas.list,
  run: async ({ params: input, readScope, page, request }) => {
    const result = await listNamespacesFor(readScope, input, page);
    const items = result.items.map((entry) => presentNamespace(entry, { baseUrl: request.baseUrl }));
    return reply.page(items, result.total, page);
  },
});
