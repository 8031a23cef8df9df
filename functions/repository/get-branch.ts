import { notFound } from '#domain/errors.ts';
import { branchEntity, canPushCode, canReadRepository, isValidRefName } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readBranch } from '#repository/reader.ts';

/** One branch (its name URL-encoded in the path) with its commit. */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.branch,
  load: project({ reads: canReadRepository }),
  run: async ({ params, project, access, caller, request }) => {
    const branch = isValidRefName(params.branch) ? await readBranch(project.id, params.branch) : undefined;
    if (!branch) throw notFound('Branch');
    return branchEntity(branch, project, canPushCode({ project, access, caller }), request.baseUrl);
  },
});
