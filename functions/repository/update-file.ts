import { fileCommitOf } from '#domain/commit-writes.ts';
import { canPushCode } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitChanges } from '#repository/commit-writes.ts';

/** A file of a branch changed, in one commit (developers and up); 200 with the path and branch. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.updateFile,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller }) => {
    const { action, start } = fileCommitOf('update', params);
    await commitChanges(project.id, caller.id, {
      ...start,
      message: params.commit_message,
      author: { name: params.author_name, email: params.author_email },
      actions: [action],
      dialect: 'files',
      defaultBranch: project.default_branch,
    });
    return reply.ok({ file_path: params.file_path, branch: params.branch });
  },
});
