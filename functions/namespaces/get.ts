import { presentNamespace } from '#domain/namespaces.ts';
import { namespaceSchemas } from '#domain/schemas/namespaces.ts';
import { defineRoute } from '#http/route.ts';
import { findNamespaceSource } from '#store/projects/namespace-lookup.ts';
import { readNamespaceFor } from '#store/projects/namespace-pages.ts';

/** A namespace by id or full path: its members (owner) and admins see it, others get 404. */
export const handler = defineRoute({
  auth: 'user',
  params: namespaceSchemas.get,
  // The namespace is read beside the credential; nothing of it is shown before the access check.
  prefetch: (params) => findNamespaceSource(params.id),
  run: async ({ params: input, readScope, request, prefetched }) =>
    presentNamespace(await readNamespaceFor(input.id, readScope, prefetched), {
      baseUrl: request.baseUrl,
    }),
});
