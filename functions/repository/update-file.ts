import { protectionLevelOf } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitFile } from '#repository/commit-writes.ts';

/** A file of a branch changed, in one commit (developers and up); 200 with the path and branch. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.updateFile,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access }) => {
    await commitFile('update', project, caller.id, protectionLevelOf(caller, access), params);
    return reply.ok({ file_path: params.file_path, branch: params.branch });
  },
});
