import {
  milestoneEntity,
  milestoneList,
  projectMilestoneOwners,
  projectOwnerPaths,
} from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestones } from '#store/issuables/milestones.ts';

/** The project's milestones (with its ancestor groups' when asked), filtered, by due date, for its readers. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: milestoneSchemas.list,
  load: project(),
  run: async ({ params: input, page, request, project }) => {
    const withAncestors = input.include_ancestors ?? input.include_parent_milestones ?? false;
    const milestones = await readMilestones(projectMilestoneOwners(project, withAncestors));
    const pathOf = projectOwnerPaths(project);
    return reply.pageOf(
      milestoneList(milestones, input).map((milestone) =>
        milestoneEntity(milestone, pathOf, request.baseUrl),
      ),
      page,
    );
  },
});
