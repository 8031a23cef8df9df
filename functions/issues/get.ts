import { issueEntity } from '#domain/issues.ts';
import { projectMilestoneOwners } from '#domain/milestones.ts';
import { issueSchemas } from '#domain/schemas/issues.ts';
import { issue } from '#http/issue-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestonesById } from '#store/issuables/milestones.ts';

/** One issue, to whoever may read it (anonymous readers: public projects' non-confidential issues). */
export const handler = defineRoute({
  auth: 'optional',
  params: issueSchemas.one,
  load: issue(),
  run: async ({ request, project, issue, users }) => {
    const milestones = await readMilestonesById(projectMilestoneOwners(project, true), [issue.milestone_id]);
    return issueEntity(issue, project, users, request.baseUrl, milestones);
  },
});
