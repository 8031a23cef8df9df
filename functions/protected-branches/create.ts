import { protectedBranchEntity } from '#domain/protected-branches.ts';
import { protectedBranchSchemas } from '#domain/schemas/protected-branches.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createProtectedBranch } from '#store/projects/protected-branches.ts';

/** Protects a branch name or pattern (409 when it already is): maintainers and up. */
export const handler = defineRoute({
  auth: 'user',
  params: protectedBranchSchemas.create,
  load: project({ allow: 'maintainer' }),
  run: async ({ params: { id: _id, ...input }, project }) =>
    reply.created(protectedBranchEntity(await createProtectedBranch(project.id, input))),
});
