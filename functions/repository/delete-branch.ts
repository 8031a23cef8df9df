import { canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteBranch } from '#repository/ref-writes.ts';

/** Removes a branch (developers and up); 404 when there is none, 405 for the default branch. */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.deleteBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller }) => {
    await deleteBranch(project.id, caller.id, params.branch);
    return reply.noContent();
  },
});
