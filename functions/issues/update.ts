import { issueChanges, issueEntity, settableIssueFields } from '#domain/issues.ts';
import { labelsAfter, projectLabelOwners } from '#domain/labels.ts';
import { attachedMilestoneId, projectMilestoneOwners } from '#domain/milestones.ts';
import { mayUpdateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { changeIssue, issueUsers } from '#store/issuables/issues.ts';
import { readMilestonesById } from '#store/issuables/milestones.ts';
import { createMissingLabels } from '#store/labels/labels.ts';

/**
 * Reporters and up, the author and assignees change an issue (labels, assignees, due date and lock
 * only reporters and up); `state_event` closes or reopens it.
 */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.update,
  load: issue(mayUpdateIssue),
  run: async ({ params: input, caller, request, project, access, issue }) => {
    // The milestone sent (attached only when the project may use it), else the one it keeps.
    const shown = input.milestone_id === undefined ? issue.milestone_id : input.milestone_id;
    const usable = await readMilestonesById(projectMilestoneOwners(project, true), [shown]);
    const milestoneId = attachedMilestoneId(input.milestone_id, usable);
    const edited = { ...input, labels: labelsAfter(issue.labels, input), milestone_id: milestoneId };
    const fields = settableIssueFields(edited, setsIssueMetadata({ project, caller, access }));
    if (fields.labels) await createMissingLabels(projectLabelOwners(project), fields.labels, project.id);
    const changed = await changeIssue(issue, issueChanges(fields), input.state_event, caller.id);
    return issueEntity(changed, project, await issueUsers(changed), request.baseUrl, usable);
  },
});
