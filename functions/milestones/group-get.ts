import { groupOwnerPaths, milestoneEntity, ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/** One of the group's own milestones, by id (404 `Milestone Not Found` for any other). */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.one,
  load: group(),
  run: async ({ params: input, request, group }) => {
    const owner = { kind: 'group', id: group.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    return milestoneEntity(milestone, groupOwnerPaths(group), request.baseUrl);
  },
});
