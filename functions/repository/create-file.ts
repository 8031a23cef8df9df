import { protectionLevelOf } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitFile } from '#repository/commit-writes.ts';

/** A new file on a branch, in one commit (developers and up); 201 with the path and branch. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.createFile,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access }) => {
    await commitFile('create', project, caller.id, protectionLevelOf(caller, access), params);
    return reply.created({ file_path: params.file_path, branch: params.branch });
  },
});
