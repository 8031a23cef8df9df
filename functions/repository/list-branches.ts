import { mayWriteBranch, protectionLevelOf } from '#domain/protected-branches.ts';
import { branchEntity, canPushCode, canReadRepository } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readBranchPage } from '#repository/reader.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';

/** A project's branches by name, to whoever may read its code (anonymous readers: public projects). */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.branches,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project, access, caller, request }) => {
    const [{ items, total }, protections] = await Promise.all([
      readBranchPage(project.id, params.search, page),
      readProtectedBranches(project.id),
    ]);
    const canPush = caller !== undefined && canPushCode({ project, access, caller });
    const level = caller === undefined ? 0 : protectionLevelOf(caller, access);
    return reply.page(
      items.map((branch) =>
        branchEntity(
          branch,
          project,
          canPush && mayWriteBranch(protections, branch.name, level, 'push'),
          request.baseUrl,
          protections,
        ),
      ),
      total,
      page,
    );
  },
});
