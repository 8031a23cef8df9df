import { protectionLevelOf } from '#domain/protected-branches.ts';
import { branchEntity, canPushCode } from '#domain/repository.ts';
import { refWriteSchemas } from '#domain/schemas/ref-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createBranch } from '#repository/ref-writes.ts';

/**
 * A new branch at `ref` (developers and up; a protected name needs push or merge access to it);
 * 400 for a bad name, a name the push rule refuses, an existing branch or an unknown ref.
 */
export const handler = defineRoute({
  auth: 'user',
  params: refWriteSchemas.createBranch,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access, request }) => {
    const created = await createBranch(project.id, caller.id, {
      name: params.branch,
      ref: params.ref,
      protectionLevel: protectionLevelOf(caller, access),
    });
    return reply.created(
      branchEntity(created.branch, project, created.canPush, request.baseUrl, created.protections),
    );
  },
});
