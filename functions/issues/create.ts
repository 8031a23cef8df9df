import { issueEntity, newIssueFrom, settableIssueFields } from '#domain/issues.ts';
import { labelsAfter, projectLabelOwners } from '#domain/labels.ts';
import { attachedMilestoneId, projectMilestoneOwners } from '#domain/milestones.ts';
import { mayBackdate, mayCreateIssue, setsIssueMetadata } from '#domain/noteable-policy.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { detailOfCreatingRequest } from '#domain/user-agent-details.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createIssue, issueUsers } from '#store/issuables/issues.ts';
import { readMilestonesById } from '#store/issuables/milestones.ts';
import { createMissingLabels } from '#store/labels/labels.ts';

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
    // Only a milestone of the project or of a group above it is attached.
    const usable = await readMilestonesById(projectMilestoneOwners(project, true), [input.milestone_id]);
    const fields = settableIssueFields(
      {
        ...input,
        labels: labelsAfter([], input),
        milestone_id: attachedMilestoneId(input.milestone_id, usable),
      },
      setsIssueMetadata(context),
    );
    // Titles no available label has become project labels first, as GitLab creates them.
    await createMissingLabels(projectLabelOwners(project), fields.labels ?? [], project.id);
    const issue = await createIssue(
      project,
      newIssueFrom(fields, project.id, caller.id),
      createdAt,
      detailOfCreatingRequest(request),
    );
    return reply.created(issueEntity(issue, project, await issueUsers(issue), request.baseUrl, usable));
  },
});
