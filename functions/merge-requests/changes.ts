import { mergeCheckToKeep, mergeRequestEntity } from '#domain/merge-requests.ts';
import { projectMilestoneOwners } from '#domain/milestones.ts';
import { diffEntity } from '#domain/repository.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestWithUsers } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { readMergeRequestFiles } from '#repository/merge-request-code.ts';
import { keepMergeCheck } from '#store/issuables/merge-request-writes.ts';
import { readMilestonesById } from '#store/issuables/milestones.ts';

/** GitLab's MergeRequestChanges: the merge request with the files of its diff. */
export const handler = defineRoute({
  auth: 'optional',
  params: mergeRequestSchemas.changes,
  load: mergeRequestWithUsers(),
  run: async ({ caller, request, project, mergeRequest, users }) => {
    const [files, milestones] = await Promise.all([
      readMergeRequestFiles(mergeRequest),
      readMilestonesById(projectMilestoneOwners(project, true), [mergeRequest.milestone_id]),
    ]);
    const check = mergeCheckToKeep(mergeRequest, files.code);
    if (check) await keepMergeCheck(mergeRequest, check);
    return {
      ...mergeRequestEntity(
        mergeRequest,
        project,
        users,
        request.baseUrl,
        caller?.id,
        milestones,
        files.code,
      ),
      changes: files.changes.map(diffEntity),
      overflow: files.overflow,
    };
  },
});
