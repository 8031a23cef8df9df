import { protectionLevelOf } from '#domain/protected-branches.ts';
import { canPushCode } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitFile } from '#repository/commit-writes.ts';

/** A file removed from a branch, in one commit (developers and up); 204. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.deleteFile,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, access }) => {
    await commitFile('delete', project, caller.id, protectionLevelOf(caller, access), params);
    return reply.noContent();
  },
});
