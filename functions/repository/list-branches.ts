import { branchEntity, canPushCode, canReadRepository } from '#domain/repository.ts';
import { repositorySchemas } from '#domain/schemas/repository.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readBranchPage } from '#repository/reader.ts';

/** A project's branches by name, to whoever may read its code (anonymous readers: public projects). */
export const handler = defineRoute({
  auth: 'optional',
  params: repositorySchemas.branches,
  paginated: true,
  load: project({ reads: canReadRepository }),
  run: async ({ params, page, project, access, caller, request }) => {
    const { items, total } = await readBranchPage(project.id, params.search, page);
    const canPush = canPushCode({ project, access, caller });
    return reply.page(
      items.map((branch) => branchEntity(branch, project, canPush, request.baseUrl)),
      total,
      page,
    );
  },
});
