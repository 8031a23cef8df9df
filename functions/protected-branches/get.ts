import { recordNotFound } from '#domain/errors.ts';
import { protectedBranchEntity } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { protectedBranchSchemas } from '#domain/schemas/protected-branches.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProtectedBranch } from '#store/projects/protected-branches.ts';

/** One protection by its exact name (a pattern by the pattern): developers and up; 404 when none. */
export const handler = defineRoute({
  auth: 'user',
  params: protectedBranchSchemas.byName,
  load: project({ reads: canPushCode }),
  run: async ({ params, project }) => {
    const protection = await readProtectedBranch(project.id, params.name);
    if (!protection) throw recordNotFound();
    return reply.ok(protectedBranchEntity(protection));
  },
});
