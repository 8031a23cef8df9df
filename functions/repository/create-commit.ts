import { commitActionsOf, commitStartOf } from '#domain/commit-writes.ts';
import { canPushCode, commitDetailEntity } from '#domain/repository.ts';
import { commitWriteSchemas } from '#domain/schemas/commit-writes.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { commitChanges } from '#repository/commit-writes.ts';

/** One commit of several actions on a branch (developers and up); 201 with the commit and its stats. */
export const handler = defineRoute({
  auth: 'user',
  params: commitWriteSchemas.createCommit,
  load: project({ reads: canPushCode }),
  run: async ({ params, project, caller, request }) => {
    const start = commitStartOf(params, project);
    const made = await commitChanges(project.id, caller.id, {
      ...start,
      force: params.force ?? false,
      message: params.commit_message,
      author: { name: params.author_name, email: params.author_email },
      actions: commitActionsOf(params.actions),
      dialect: 'commits',
      defaultBranch: project.default_branch,
    });
    const stats = params.stats ?? true;
    return reply.created(
      commitDetailEntity(made.commit, stats ? made.stats : undefined, project, request.baseUrl),
    );
  },
});
