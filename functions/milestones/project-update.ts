import {
  mayAdminProjectMilestones,
  milestoneChanges,
  milestoneEntity,
  ownMilestone,
  projectOwnerPaths,
  refuseEmptyMilestoneUpdate,
  refuseTakenTitle,
  titleSharingOwners,
} from '#domain/milestones.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeMilestone, readMilestoneWithSharers } from '#store/issuables/milestones.ts';

/** Reporters and up change one of the project's milestones: title, description, dates, or close or reopen it. */
export const handler = defineRoute({
  auth: 'user',
  params: milestoneSchemas.update,
  load: project({ allow: mayAdminProjectMilestones }),
  run: async ({ params: input, request, project }) => {
    refuseEmptyMilestoneUpdate(input);
    const owner = { kind: 'project', id: project.id } as const;
    const read = await readMilestoneWithSharers(
      owner,
      input.milestone_id,
      titleSharingOwners(owner, project.namespace.group_ids),
    );
    const milestone = ownMilestone(read.milestone, owner);
    const changes = milestoneChanges(input, milestone);
    if (changes.title !== undefined) refuseTakenTitle('update', read.shared, changes.title, milestone.id);
    return milestoneEntity(
      await changeMilestone(milestone, changes),
      projectOwnerPaths(project),
      request.baseUrl,
    );
  },
});
