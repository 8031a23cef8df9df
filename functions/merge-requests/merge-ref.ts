import { closedIssueReferences, defaultMergeCommitMessage } from '#domain/merge-requests.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { writeMergeRef } from '#repository/merge-request-code.ts';

/**
 * The merge ref of a merge request (`refs/merge-requests/<iid>/merge`): the commit merging its
 * source into its target, made when the branches moved since the last one, to whoever may read
 * the merge request; 400 when it cannot be merged. GitLab makes it as the merge request's author.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: mergeRequestSchemas.one,
  load: mergeRequestWithUsers(),
  run: async ({ request, project, mergeRequest: mr, users }) => {
    const author = users.get(mr.author_id);
    const closes = closedIssueReferences(mr.description ?? '', request.baseUrl);
    const commitId = await writeMergeRef(mr, mr.author_id, {
      message: defaultMergeCommitMessage(
        mr,
        project.path_with_namespace,
        closes.map((ref) => `${ref.path ?? ''}#${ref.iid}`),
      ),
      committer: {
        name: author?.name ?? 'Ghost User',
        email: author?.email ?? 'ghost@users.noreply',
        timestamp: Math.floor(Date.now() / 1000),
        timezoneOffset: 0,
      },
    });
    return { commit_id: commitId };
  },
});
