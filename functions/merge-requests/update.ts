import { invalidParams } from '#domain/errors.ts';
import { labelsAfter } from '#domain/labels.ts';
import {
  mergeRequestChanges,
  mergeRequestEntity,
  missingBranchRefusal,
  updateParamsError,
} from '#domain/merge-requests.ts';
import { attachedMilestoneId } from '#domain/milestones.ts';
import { mayUpdateMergeRequest, setsMergeRequestMilestone } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestToChange } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { readBranchesPresent, readMergeRequestCode } from '#repository/merge-request-code.ts';
import { prepareIssuableMetadata } from '#store/issuables/issuable-metadata.ts';
import { mergeRequestUsers } from '#store/issuables/merge-request-items.ts';
import { changeMergeRequest } from '#store/issuables/merge-request-writes.ts';

/**
 * Developers and up, the author and the assignees change a merge request (its milestone only
 * developers and up); `state_event` closes or reopens it.
 */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.update,
  load: mergeRequestToChange(mayUpdateMergeRequest),
  run: async ({ params: input, caller, request, project, access, mergeRequest }) => {
    const edited = { ...input, labels: labelsAfter(mergeRequest.labels, input) };
    const refused = updateParamsError(edited);
    if (refused) throw invalidParams(refused);
    if (input.target_branch !== undefined && input.target_branch !== mergeRequest.target_branch) {
      const present = await readBranchesPresent(project.id, mergeRequest.source_branch, input.target_branch);
      const missing = present && missingBranchRefusal(true, present.target);
      if (missing) throw missing;
    }
    const sent = setsMergeRequestMilestone({ project, caller, access }) ? input.milestone_id : undefined;
    // The milestone sent (attached only when the project may use it), else the one it keeps.
    const shown = sent === undefined ? mergeRequest.milestone_id : sent;
    const usable = await prepareIssuableMetadata(project, shown, edited.labels);
    const changed = await changeMergeRequest(
      mergeRequest,
      mergeRequestChanges(mergeRequest, { ...edited, milestone_id: attachedMilestoneId(sent, usable) }),
      input.state_event,
      caller.id,
    );
    const [users, code] = await Promise.all([mergeRequestUsers(changed), readMergeRequestCode(changed)]);
    return mergeRequestEntity(changed, project, users, request.baseUrl, caller.id, usable, code);
  },
});
