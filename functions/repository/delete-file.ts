import { fileCommitOf } from '#domain/commit-writes.ts';
import { canPushCode } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitChanges } from '#repository/commit-writes.ts';

/** A file removed from a branch, in one commit (developers and up); 204. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.deleteFile,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller }) => {
    const { action, start } = fileCommitOf('delete', params);
    await commitChanges(project.id, caller.id, {
      ...start,
      message: params.commit_message,
      author: { name: params.author_name, email: params.author_email },
      actions: [action],
      dialect: 'files',
      defaultBranch: project.default_branch,
    });
    return reply.noContent();
  },
});
