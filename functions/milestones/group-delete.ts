import { mayAdminGroupMilestones, ownMilestone } from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { deleteMilestone, readMilestone } from '#store/issuables/milestones.ts';

/** Reporters and up delete one of the group's milestones. */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.one,
  load: group({ allow: mayAdminGroupMilestones }),
  run: async ({ params: input, group }) => {
    const owner = { kind: 'group', id: group.id } as const;
    await deleteMilestone(ownMilestone(await readMilestone(owner, input.milestone_id), owner));
    return reply.noContent();
  },
});
