import { issueChanges, issueEntity, settableIssueFields } from '#domain/issues.ts';
import { labelsAfter } from '#domain/labels.ts';
import { attachedMilestoneId } from '#domain/milestones.ts';
import { mayUpdateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { prepareIssuableMetadata } from '#store/issuables/issuable-metadata.ts';
import { changeIssue, issueUsers } from '#store/issuables/issues.ts';

/**
 * Reporters and up, the author and assignees change an issue (labels, assignees, due date and lock
 * only reporters and up); `state_event` closes or reopens it.
 */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.update,
  load: issue(mayUpdateIssue),
  run: async ({ params: input, caller, request, project, access, issue }) => {
    const edited = { ...input, labels: labelsAfter(issue.labels, input) };
    const fields = settableIssueFields(edited, setsIssueMetadata({ project, caller, access }));
    // The milestone sent (attached only when the project may use it), else the one it keeps.
    const shown = fields.milestone_id === undefined ? issue.milestone_id : fields.milestone_id;
    const usable = await prepareIssuableMetadata(project, shown, fields.labels);
    const attached = { ...fields, milestone_id: attachedMilestoneId(fields.milestone_id, usable) };
    const changed = await changeIssue(issue, issueChanges(attached), input.state_event, caller.id);
    return issueEntity(changed, project, await issueUsers(changed), request.baseUrl, usable);
  },
});
