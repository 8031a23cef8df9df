import { milestoneEntity, ownMilestone, projectOwnerPaths } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/** One of the project's own milestones, by id (404 `Milestone Not Found` for any other). */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.one,
  load: project(),
  run: async ({ params: input, request, project }) => {
    const owner = { kind: 'project', id: project.id } as const;
    const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
    return milestoneEntity(milestone, projectOwnerPaths(project), request.baseUrl);
  },
});
