import { presentNamespace } from '#domain/namespaces.ts';
import { namespaceSchemas } from '#domain/schemas/namespaces.ts';
import { defineRoute } from '#http/route.ts';
import { readNamespaceFor } from '#store/namespaces.ts';

/** A namespace by id or full path: its members (owner) and admins see it, others get 404. */
export const handler = defineRoute({
  auth: 'user',
  params: namespaceSchemas.get,
  run: async ({ params: input, caller, request }) =>
    presentNamespace(await readNamespaceFor(input.id, caller), { baseUrl: request.baseUrl }),
});
