import { forbidden } from '#domain/errors.ts';
import { id, idOrPath, params, required } from '#domain/params.ts';
import { canAdminProject } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readableProject, unshareProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'user',
  params: params({ id: required(idOrPath()), group_id: required(id()) }),
  run: async ({ params: input, caller }) => {
    const { project, access } = await readableProject(input.id, caller);
    if (!canAdminProject(caller, access)) throw forbidden();
    await unshareProject(project, input.group_id);
    return reply.noContent();
  },
});
