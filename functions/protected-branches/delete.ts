import { protectedBranchSchemas } from '#domain/schemas/protected-branches.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteProtectedBranch } from '#store/projects/protected-branches.ts';

/** Unprotects a name or pattern: maintainers and up; 404 when it is not protected. */
export const handler = defineRoute({
  auth: 'user',
  params: protectedBranchSchemas.byName,
  load: project({ allow: 'maintainer' }),
  run: async ({ params, project }) => {
    await deleteProtectedBranch(project.id, params.name);
    return reply.noContent();
  },
});
