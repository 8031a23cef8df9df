import { forkSchemas } from '#domain/schemas/forks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeForkRelation } from '#store/projects/forks.ts';

/** Ends a project's fork relation (admins only): 204, or 304 when it is no fork. */
export const handler = defineRoute({
  auth: 'user',
  params: forkSchemas.deleteRelation,
  load: project({ allow: 'admin' }),
  run: async ({ project }) => ((await removeForkRelation(project)) ? reply.noContent() : reply.notModified()),
});
