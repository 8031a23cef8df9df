import { slicePage } from '#domain/pagination.ts';
import { protectedBranchEntity } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { protectedBranchSchemas } from '#domain/schemas/protected-branches.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';

/** The project's protected branches by id, narrowed by `search` (in the name): developers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: protectedBranchSchemas.list,
  paginated: true,
  load: project({ reads: canPushCode }),
  run: async ({ params, page, project }) => {
    const search = params.search?.toLowerCase();
    const protections = (await readProtectedBranches(project.id)).filter(
      (protection) => search === undefined || protection.name.toLowerCase().includes(search),
    );
    const { items, total } = slicePage(protections, page);
    return reply.page(items.map(protectedBranchEntity), total, page);
  },
});
