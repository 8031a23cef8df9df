import { forbidden } from '#domain/errors.ts';
import { id, idOrPath, params, required } from '#domain/params.ts';
import { canAdminProject } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject, unshareProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()), group_id: required(id()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project, access } = await readableProject(prefetched, caller);
    if (!canAdminProject(caller, access)) throw forbidden();
    await unshareProject(project, input.group_id);
    return reply.noContent();
  },
});
