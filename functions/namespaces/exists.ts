import { namespaceSchemas } from '#domain/schemas/namespaces.ts';
import { defineRoute } from '#http/route.ts';
import { namespacePathExists } from '#store/projects/namespace-pages.ts';

/** Whether a path is taken at the top level (or under `parent_id`), with a free one suggested. */
export const handler = defineRoute({
  auth: 'user',
  params: namespaceSchemas.exists,
  run: ({ params: input }) => namespacePathExists(input.id, input.parent_id),
});
