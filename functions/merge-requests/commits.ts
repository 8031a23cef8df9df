import { commitEntity } from '#domain/repository.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readMergeRequestCommits } from '#repository/merge-request-code.ts';

/** The merge request's commits (those of its source its target lacked), newest first. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: mergeRequestSchemas.one,
  load: mergeRequestWithUsers(),
  run: async ({ page, request, project, mergeRequest }) => {
    const commits = await readMergeRequestCommits(mergeRequest);
    return reply.pageOf(
      commits.map((commit) => commitEntity(commit, project, request.baseUrl)),
      page,
    );
  },
});
