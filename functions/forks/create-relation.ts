import type * as v from 'valibot';
import { presentProject } from '#domain/project-views.ts';
import { forkSchemas } from '#domain/schemas/forks.ts';
import { project, projectNamedBy, withAlso } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createForkRelation } from '#store/projects/forks.ts';

type Params = v.InferOutput<typeof forkSchemas.createRelation>;

/** Marks a project as forked from another the caller can see (admins only). */
export const handler = defineRoute({
  auth: 'user',
  params: forkSchemas.createRelation,
  load: withAlso(project<Params>({ allow: 'admin' }), { source: projectNamedBy<Params>('forked_from_id') }),
  run: async ({ caller, request, project, access, source }) => {
    const forked = await createForkRelation(project, source);
    const options = { baseUrl: request.baseUrl, forkSources: new Map([[source.id, source]]) };
    return reply.created(presentProject(forked, caller, options, access));
  },
});
