import { protectedBranchEntity } from '#domain/protected-branches.ts';
import { protectedBranchSchemas } from '#domain/schemas/protected-branches.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateProtectedBranch } from '#store/projects/protected-branches.ts';

/** Changes a protection's force-push and code owner switches: maintainers and up; 404 when none. */
export const handler = defineRoute({
  auth: 'user',
  params: protectedBranchSchemas.update,
  load: project({ allow: 'maintainer' }),
  run: async ({ params, project }) =>
    reply.ok(
      protectedBranchEntity(
        await updateProtectedBranch(project.id, params.name, {
          allow_force_push: params.allow_force_push,
          code_owner_approval_required: params.code_owner_approval_required,
        }),
      ),
    ),
});
