import { mergeCheckToKeep, mergeRequestEntity } from '#domain/merge-requests.ts';
import { projectMilestoneOwners } from '#domain/milestones.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { readMergeRequestCode } from '#repository/merge-request-code.ts';
import { keepMergeCheck } from '#store/issuables/merge-request-writes.ts';
import { readMilestonesById } from '#store/issuables/milestones.ts';

/**
 * One merge request, to whoever may read it (anonymous readers: public projects only), with what
 * its branches hold now; a merge check made for new tips is kept, so the next read need not merge.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: mergeRequestSchemas.one,
  load: mergeRequestWithUsers(),
  run: async ({ caller, request, project, mergeRequest, users }) => {
    const [milestones, code] = await Promise.all([
      readMilestonesById(projectMilestoneOwners(project, true), [mergeRequest.milestone_id]),
      readMergeRequestCode(mergeRequest),
    ]);
    const check = mergeCheckToKeep(mergeRequest, code);
    if (check) await keepMergeCheck(mergeRequest, check);
    return mergeRequestEntity(mergeRequest, project, users, request.baseUrl, caller?.id, milestones, code);
  },
});
