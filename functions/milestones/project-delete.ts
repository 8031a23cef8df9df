import { mayAdminProjectMilestones, ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteMilestone, readMilestone } from '#store/issuables/milestones.ts';

/** Reporters and up delete one of the project's milestones. */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.one,
  load: project({ allow: mayAdminProjectMilestones }),
  run: async ({ params: input, project }) => {
    const owner = { kind: 'project', id: project.id } as const;
    await deleteMilestone(ownMilestone(await readMilestone(owner, input.milestone_id), owner));
    return reply.noContent();
  },
});
