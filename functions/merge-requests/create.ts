import { labelsAfter } from '#domain/labels.ts';
import {
  checkedBranches,
  mergeRequestEntity,
  missingBranchRefusal,
  newMergeRequestFrom,
  notAFork,
} from '#domain/merge-requests.ts';
import { attachedMilestoneId } from '#domain/milestones.ts';
import { mayCreateMergeRequest } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readBranchesPresent, writeMergeRequestHead } from '#repository/merge-request-code.ts';
import { prepareIssuableMetadata } from '#store/issuables/issuable-metadata.ts';
import { createMergeRequest } from '#store/issuables/merge-request-writes.ts';

/**
 * Developers and up open merge requests between two branches of the project (branches its
 * repository holds, when it has one, which then keeps the new merge request's head ref).
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.create,
  load: project({ allow: mayCreateMergeRequest, ahead: true }),
  run: async ({ params: input, caller, request, project }) => {
    if (input.target_project_id !== undefined && input.target_project_id !== project.id) throw notAFork();
    checkedBranches(input.source_branch, input.target_branch);
    // A project with a repository takes merge requests between its branches only.
    const present = await readBranchesPresent(project.id, input.source_branch, input.target_branch);
    const missing = present && missingBranchRefusal(present.source, present.target);
    if (missing) throw missing;
    const labels = labelsAfter([], input);
    // Only a milestone of the project or of a group above it is attached; titles no available
    // label has become project labels first, as GitLab creates them.
    const usable = await prepareIssuableMetadata(project, input.milestone_id, labels);
    const { mergeRequest, users } = await createMergeRequest(
      project,
      newMergeRequestFrom(
        { ...input, labels, milestone_id: attachedMilestoneId(input.milestone_id, usable) },
        project.id,
        caller.id,
      ),
    );
    // Its head ref is written in the repository, and what its branches hold read from that state.
    const code = present && (await writeMergeRequestHead(mergeRequest, caller.id));
    return reply.created(
      mergeRequestEntity(mergeRequest, project, users, request.baseUrl, caller.id, usable, code),
    );
  },
});
