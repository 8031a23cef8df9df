import { branchProtectionRefusal, protectionLevelOf } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteBranch } from '#repository/ref-writes.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';

/**
 * Removes a branch (developers and up; a protected one maintainers and up); 404 when there is
 * none, 405 for the default branch.
 */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.deleteBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access }) => {
    const protections = await readProtectedBranches(project.id);
    const refusal = branchProtectionRefusal(
      protections,
      params.branch,
      protectionLevelOf(caller, access),
      'delete',
    );
    if (refusal) throw refusal;
    await deleteBranch(project.id, caller.id, params.branch);
    return reply.noContent();
  },
});
