import { mergeRequestBasic } from '#domain/merge-requests.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listGroupMilestoneMergeRequests } from '#store/issuables/milestone-issuables.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/**
 * The merge requests carrying one of the group's milestones in the projects of the group and its
 * subgroups the caller reads merge requests of, newest first.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: group(),
  run: async ({ params: input, caller, readScope, page, request, group }) => {
    const owner = { kind: 'group', id: group.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    const rules = issuableSearchRulesOf(caller);
    const found = await listGroupMilestoneMergeRequests(group, milestone, rules, readScope, page);
    const milestones = new Map([[milestone.id, milestone]]);
    return reply.page(
      found.entries.map(({ item, project }) =>
        mergeRequestBasic(item, project, found.users, request.baseUrl, milestones),
      ),
      found.total,
      page,
    );
  },
});
