import { issueBasicEntity } from '#domain/issues.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listGroupMilestoneIssues } from '#store/issuables/milestone-issuables.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/**
 * The issues carrying one of the group's milestones in the projects of the group and its
 * subgroups the caller reads them in, newest first; confidential ones only for those who may see
 * them.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: group(),
  run: async ({ params: input, caller, readScope, page, request, group }) => {
    const owner = { kind: 'group', id: group.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    const found = await listGroupMilestoneIssues(
      group,
      milestone,
      issuableSearchRulesOf(caller),
      readScope,
      page,
    );
    const milestones = new Map([[milestone.id, milestone]]);
    return reply.page(
      found.entries.map(({ item, project }) =>
        issueBasicEntity(item, project, found.users, request.baseUrl, milestones),
      ),
      found.total,
      page,
    );
  },
});
