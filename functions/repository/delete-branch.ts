import { protectionLevelOf } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteBranch } from '#repository/ref-writes.ts';

/**
 * Removes a branch (developers and up; a protected one maintainers and up); 404 when there is
 * none, 405 for the default branch.
 */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.deleteBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access }) => {
    await deleteBranch(project.id, caller.id, params.branch, protectionLevelOf(caller, access));
    return reply.noContent();
  },
});
