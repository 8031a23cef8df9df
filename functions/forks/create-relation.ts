import { presentProject } from '#domain/project-views.ts';
import { forkSchemas } from '#domain/schemas/forks.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createForkRelation, readableProjectFor } from '#store/forks.ts';

/** Marks a project as forked from another (admins only). */
export const handler = defineRoute({
  auth: 'user',
  params: forkSchemas.createRelation,
  load: project({ allow: ({ caller }) => caller.admin }),
  run: async ({ params: input, caller, request, project, access }) => {
    const source = await readableProjectFor(input.forked_from_id, caller);
    const forked = await createForkRelation(project, source);
    const options = { baseUrl: request.baseUrl, forkSources: new Map([[source.id, source]]) };
    return reply.created(presentProject(forked, caller, options, access));
  },
});
