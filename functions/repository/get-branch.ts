import { notFound } from '#domain/errors.ts';
import { mayWriteBranch, protectionLevelOf } from '#domain/protected-branches.ts';
import { branchEntity, canPushCode, canReadRepository, isValidRefName } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readBranch } from '#repository/reader.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';

/** One branch (its name URL-encoded in the path) with its commit and whether it is protected. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.branch,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, access, caller, request }) => {
    const [branch, protections] = await Promise.all([
      isValidRefName(params.branch) ? readBranch(project.id, params.branch) : undefined,
      readProtectedBranches(project.id),
    ]);
    if (!branch) throw notFound('Branch');
    const canPush =
      caller !== undefined &&
      canPushCode({ project, access, caller }) &&
      mayWriteBranch(protections, branch.name, protectionLevelOf(caller, access), 'push');
    return branchEntity(branch, project, canPush, request.baseUrl, protections);
  },
});
