import {
  groupOwnerPaths,
  mayAdminGroupMilestones,
  milestoneEntity,
  newMilestoneFrom,
  refuseTakenTitle,
  titleSharingOwners,
} from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createMilestone, readMilestones } from '#store/issuables/milestones.ts';

/**
 * Reporters and up create a group milestone; a title the group or a group above it has is 400
 * (the group's own titles are kept unique by the database).
 */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.create,
  load: group({ allow: mayAdminGroupMilestones }),
  run: async ({ params: input, request, group }) => {
    const fields = newMilestoneFrom(input, { kind: 'group', id: group.id });
    refuseTakenTitle(
      'create',
      await readMilestones(titleSharingOwners(fields.owner, group.ancestor_ids)),
      fields.title,
    );
    const milestone = await createMilestone(fields);
    return reply.created(milestoneEntity(milestone, groupOwnerPaths(group), request.baseUrl));
  },
});
