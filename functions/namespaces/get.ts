import { presentNamespace } from '#domain/namespaces.ts';
import { namespaceSchemas } from '#domain/schemas/namespaces.ts';
import { defineRoute } from '#http/route.ts';
import { findNamespaceSource, readNamespaceFor } from '#store/projects/namespaces.ts';

/** A namespace by id or full path: its members (owner) and admins see it, others get 404. */
export const handler = defineRoute({
  auth: 'user',
  params: namespaceSchemas.get,
  // The namespace is read beside the credential; nothing of it is shown before the access check.
  prefetch: (params) => findNamespaceSource(params.id),
  run: async ({ params: input, caller, request, prefetched }) =>
    presentNamespace(await readNamespaceFor(input.id, caller, prefetched), { baseUrl: request.baseUrl }),
});
