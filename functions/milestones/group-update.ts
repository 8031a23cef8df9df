import {
  groupOwnerPaths,
  mayAdminGroupMilestones,
  milestoneChanges,
  milestoneEntity,
  ownMilestone,
  refuseEmptyMilestoneUpdate,
  refuseTakenTitle,
  titleSharingOwners,
} from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeMilestone, readMilestoneWithSharers } from '#store/issuables/milestones.ts';

/** Reporters and up change one of the group's milestones: title, description, dates, or close or reopen it. */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.update,
  load: group({ allow: mayAdminGroupMilestones }),
  run: async ({ params: input, request, group }) => {
    refuseEmptyMilestoneUpdate(input);
    const owner = { kind: 'group', id: group.id } as const;
    const read = await readMilestoneWithSharers(
      owner,
      input.milestone_id,
      titleSharingOwners(owner, group.ancestor_ids),
    );
    const milestone = ownMilestone(read.milestone, owner);
    const changes = milestoneChanges(input, milestone);
    if (changes.title !== undefined) refuseTakenTitle('update', read.shared, changes.title, milestone.id);
    return milestoneEntity(
      await changeMilestone(milestone, changes),
      groupOwnerPaths(group),
      request.baseUrl,
    );
  },
});
