import { groupMilestoneOwners, groupOwnerPaths, milestoneEntity, milestoneList } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestones } from '#store/issuables/milestones.ts';

/** The group's milestones (with its ancestor groups' when asked), filtered, by due date, for its readers. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.list,
  load: group(),
  run: async ({ params: input, page, request, group }) => {
    const withAncestors = input.include_ancestors ?? input.include_parent_milestones ?? false;
    const milestones = await readMilestones(groupMilestoneOwners(group, withAncestors));
    const pathOf = groupOwnerPaths(group);
    return reply.pageOf(
      milestoneList(milestones, input).map((milestone) =>
        milestoneEntity(milestone, pathOf, request.baseUrl),
      ),
      page,
    );
  },
});
