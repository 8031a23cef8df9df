import { labelsAfter } from '#domain/labels.ts';
import {
  checkedBranches,
  mergeRequestEntity,
  missingBranchRefusal,
  newMergeRequestFrom,
  withoutMetadata,
} from '#domain/merge-requests.ts';
import { attachedMilestoneId } from '#domain/milestones.ts';
import { mayCreateMergeRequest, setsMergeRequestMilestone } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { project } from '#http/load.ts';
import { mergeRequestTarget } from '#http/merge-request-projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readBranchesPresent, writeMergeRequestHead } from '#repository/merge-request-code.ts';
import { prepareIssuableMetadata } from '#store/issuables/issuable-metadata.ts';
import { createMergeRequest } from '#store/issuables/merge-request-writes.ts';

/**
 * Developers and up open merge requests from a branch of the project: into another of its
 * branches, or (`target_project_id`) into a branch of another project of its fork network that
 * takes merge requests from them, where it is then created (branches each repository holds, when
 * it has one; a project's own repository then keeps the new merge request's head ref).
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.create,
  load: project({ allow: mayCreateMergeRequest, ahead: true }),
  run: async ({ params: input, caller, readScope, request, project, access }) => {
    const target = await mergeRequestTarget({ project, access }, input.target_project_id, {
      caller,
      readScope,
    });
    const fromFork = target.project.id !== project.id;
    if (!fromFork) checkedBranches(input.source_branch, input.target_branch);
    // A project with a repository takes merge requests between its branches only.
    const present = await readBranchesPresent(
      project.id,
      input.source_branch,
      input.target_branch,
      target.project.id,
    );
    const missing = present && missingBranchRefusal(present.source, present.target);
    if (missing) throw missing;
    // Labels, milestone and assignees are the target's to set: dropped for those who may not.
    const setsMetadata = !fromFork || setsMergeRequestMilestone({ ...target, caller });
    const fields = setsMetadata ? input : withoutMetadata(input);
    const labels = labelsAfter([], fields);
    // Only a milestone of the project or of a group above it is attached; titles no available
    // label has become project labels first, as GitLab creates them.
    const usable = await prepareIssuableMetadata(target.project, fields.milestone_id, labels);
    const { mergeRequest, users } = await createMergeRequest(
      target.project,
      newMergeRequestFrom(
        { ...fields, labels, milestone_id: attachedMilestoneId(fields.milestone_id, usable) },
        target.project.id,
        caller.id,
        project.id,
      ),
    );
    // Its head ref is written in the repository, and what its branches hold read from that state.
    const code = present && (await writeMergeRequestHead(mergeRequest, caller.id));
    return reply.created(
      mergeRequestEntity(mergeRequest, target.project, users, request.baseUrl, caller.id, usable, code),
    );
  },
});
