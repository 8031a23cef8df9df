import { canCreateSubgroup, canCreateTopLevelGroup } from '#domain/group-policy.ts';
import { groupDetail } from '#domain/group-views.ts';
import { transferError, transferFailed } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { transferGroupWithFollowUp } from '#jobs/group-transfer.ts';
import { readableGroup } from '#store/access.ts';
import { groupDetailProjects } from '#store/group-projects.ts';

/**
 * Owners move a group, with its subgroups and projects, under a group they may create subgroups
 * in (404 when they cannot see it), or to the top level without `group_id`. The answer shows the
 * group moved; a worker finishes the move should this request be cut short.
 */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.transfer,
  load: group({ allow: 'owner' }),
  run: async ({ params: input, caller, request, group, access }) => {
    const target = input.group_id === undefined ? undefined : await readableGroup(input.group_id, caller);
    const mayPlace = target
      ? canCreateSubgroup(caller, target.access, target.group)
      : canCreateTopLevelGroup(caller);
    const refused = transferError(group, target?.group, mayPlace);
    if (refused) throw transferFailed(refused);
    const moved = await transferGroupWithFollowUp(group, target?.group);
    const related = await groupDetailProjects(moved, access, caller);
    return reply.created(groupDetail(moved, caller, { baseUrl: request.baseUrl }, related));
  },
});
