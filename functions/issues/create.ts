import { issueEntity, newIssueFrom, settableIssueFields } from '#domain/issues.ts';
import { labelsAfter } from '#domain/labels.ts';
import { attachedMilestoneId } from '#domain/milestones.ts';
import { mayBackdate, mayCreateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { detailOfCreatingRequest } from '#domain/user-agent-details.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { prepareIssuableMetadata } from '#store/issuables/issuable-metadata.ts';
import { createIssue, issueUsers } from '#store/issuables/issues.ts';

/**
 * Guests and up (anyone on a public or internal project) open issues; only owners backdate them.
 * The request's client is kept for admins (user_agent_detail).
 */
export const handler = defineRoute({
  auth: 'user',
  params: issueSchemas.create,
  load: project({ allow: mayCreateIssue, ahead: true }),
  run: async ({ params: input, caller, request, project, access }) => {
    const context = { project, caller, access };
    const createdAt = mayBackdate(context) ? input.created_at : undefined;
    const fields = settableIssueFields(
      { ...input, labels: labelsAfter([], input) },
      setsIssueMetadata(context),
    );
    // Only a milestone of the project or of a group above it is attached; titles no available
    // label has become project labels first, as GitLab creates them.
    const usable = await prepareIssuableMetadata(project, fields.milestone_id, fields.labels);
    const attached = { ...fields, milestone_id: attachedMilestoneId(fields.milestone_id, usable) };
    const issue = await createIssue(
      project,
      newIssueFrom(attached, project.id, caller.id),
      createdAt,
      detailOfCreatingRequest(request),
    );
    return reply.created(issueEntity(issue, project, await issueUsers(issue), request.baseUrl, usable));
  },
});
