import { unauthorized } from '#domain/errors.ts';
import {
  closedIssueReferences,
  defaultMergeCommitMessage,
  mayRemoveForkSource,
  mergeRequestEntity,
} from '#domain/merge-requests.ts';
import { mayCloseIssueByMerge, mayMergeMergeRequest } from '#domain/noteable-policy.ts';
import { protectionLevelOf } from '#domain/protected-branches.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { forkSourceOf } from '#http/merge-request-projects.ts';
import { defineRoute } from '#http/route.ts';
import { mergeMergeRequest } from '#repository/merge-request-code.ts';
import { closeIssuesNamed } from '#store/issuables/merge-closing.ts';
import { mergeRequestUsers } from '#store/issuables/merge-request-items.ts';
import { markMergeRequestMerged } from '#store/issuables/merge-request-writes.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import { getUsers } from '#store/users/users.ts';

/**
 * Merges a merge request as the project's merge method asks (squashed when asked or set), then
 * records it merged and closes the issues its description and merged commits name to close (in
 * other projects too, where the merger may close them). A fork's source branch is removed, when
 * asked, only by one who may push to it in the fork, after the merge and apart from it.
 * 401 for callers who may not merge into its target (protected branches too); 405 when it cannot merge now; 409 for a sha
 * other than the source tip.
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.merge,
  load: mergeRequestWithUsers(),
  run: async ({ params, caller, readScope, request, project, access, mergeRequest: mr }) => {
    if (!mayMergeMergeRequest({ project, access, caller, mergeRequest: mr })) throw unauthorized();
    const fromFork = mr.source_project_id !== project.id;
    const [people, fork, forkProtections] = await Promise.all([
      getUsers([caller.id, mr.author_id]),
      fromFork ? forkSourceOf(mr.source_project_id, { caller, readScope }) : undefined,
      fromFork ? readProtectedBranches(mr.source_project_id) : undefined,
    ]);
    const at = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const person = (id: number) => ({
      name: people.get(id)?.name ?? caller.username,
      email: people.get(id)?.email ?? `${caller.username}@users.noreply`,
      ...at,
    });
    const description = mr.description ?? '';
    const closesIn = (text: string) => closedIssueReferences(text, request.baseUrl);
    const merged = await mergeMergeRequest(mr, caller.id, {
      method: project.merge_method ?? 'merge',
      sha: params.sha,
      squash: params.squash ?? mr.squash,
      squashMessage: params.squash_commit_message ?? mr.title,
      mergeMessage: () =>
        params.merge_commit_message ??
        defaultMergeCommitMessage(
          mr,
          project.path_with_namespace,
          closesIn(description).map((ref) => `${ref.path ?? ''}#${ref.iid}`),
        ),
      // A fork's branch is removed only by one who may push there, never a protected one (the
      // project's own protected source is kept by the merge).
      removeSourceBranch:
        (!fromFork ||
          mayRemoveForkSource(fork && { ...fork, caller }, forkProtections ?? [], mr.source_branch)) &&
        (params.should_remove_source_branch ?? mr.force_remove_source_branch ?? false),
      // GitLab's can_be_merged_by?: a protected target the caller may not merge into is 401 too.
      protectionLevel: protectionLevelOf(caller, access),
      committer: person(caller.id),
      squashAuthor: person(mr.author_id),
    });
    const changed = await markMergeRequestMerged(
      mr,
      {
        merge_commit_sha: merged.mergeCommitSha,
        squash_commit_sha: merged.squashCommitSha,
        merged_diff: merged.diff,
      },
      caller.id,
    );
    // Only a merge into the default branch closes the issues it names, as GitLab's.
    if (mr.target_branch === project.default_branch) {
      const texts = [description, ...merged.commits.map((commit) => commit.message)];
      await closeIssuesNamed(project, texts.flatMap(closesIn), {
        actorId: caller.id,
        readScope,
        mayClose: (found, issue) => mayCloseIssueByMerge({ ...found, caller }, issue),
      });
    }
    return mergeRequestEntity(changed, project, await mergeRequestUsers(changed), request.baseUrl, caller.id);
  },
});
