import {
  mayAdminProjectMilestones,
  milestoneEntity,
  newMilestoneFrom,
  projectOwnerPaths,
  refuseTakenTitle,
  titleSharingOwners,
} from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createMilestone, readMilestones } from '#store/issuables/milestones.ts';

/**
 * Reporters and up create a project milestone; a title the project or a group above it has is 400
 * (the project's own titles are kept unique by the database).
 */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.create,
  load: project({ allow: mayAdminProjectMilestones }),
  run: async ({ params: input, request, project }) => {
    const fields = newMilestoneFrom(input, { kind: 'project', id: project.id });
    refuseTakenTitle(
      'create',
      await readMilestones(titleSharingOwners(fields.owner, project.namespace.group_ids)),
      fields.title,
    );
    const milestone = await createMilestone(fields);
    return reply.created(milestoneEntity(milestone, projectOwnerPaths(project), request.baseUrl));
  },
});
