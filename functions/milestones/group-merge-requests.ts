import { listedSha, mergeRequestBasic } from '#domain/merge-requests.ts';
import { ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { issuableSearchRulesOf } from '#domain/search-policy.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readRefsOfProjects } from '#repository/merge-request-code.ts';
import { listGroupMilestoneMergeRequests } from '#store/issuables/milestone-issuables.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/**
 * The merge requests carrying one of the group's milestones in the projects of the group and its
 * subgroups the caller reads them in, newest first, each with its source tip (each project's refs
 * document read once for the page).
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.issuables,
  load: group(),
  run: async ({ params: input, caller, readScope, page, request, group }) => {
    const owner = { kind: 'group', id: group.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    const found = await listGroupMilestoneMergeRequests(
      group,
      milestone,
      issuableSearchRulesOf(caller),
      readScope,
      page,
    );
    const milestones = new Map([[milestone.id, milestone]]);
    const refs = await readRefsOfProjects(found.entries.map(({ project }) => project.id));
    return reply.page(
      found.entries.map(({ item, project }) =>
        mergeRequestBasic(
          item,
          project,
          found.users,
          request.baseUrl,
          milestones,
          listedSha(item, refs.get(project.id)),
        ),
      ),
      found.total,
      page,
    );
  },
});
