import { issueChanges, issueEntity, settableIssueFields } from '#domain/issues.ts';
import { mayUpdateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
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
    const fields = settableIssueFields(input, setsIssueMetadata({ project, caller, access }));
    const changed = await changeIssue(issue, issueChanges(fields), input.state_event, caller.id);
    return issueEntity(changed, project, await issueUsers(changed), request.baseUrl);
  },
});
