import { issueChanges, issueEntity } from '#domain/issues.ts';
import { mayUpdateIssue } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { changeIssue, issueUsers } from '#store/issues.ts';

/** Reporters and up, the author and assignees change an issue; `state_event` closes or reopens it. */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.update,
  load: issue(mayUpdateIssue),
  run: async ({ params: input, caller, request, project, issue }) => {
    const changed = await changeIssue(issue, issueChanges(input), input.state_event, caller.id);
    return issueEntity(changed, project, await issueUsers(changed), request.baseUrl);
  },
});
