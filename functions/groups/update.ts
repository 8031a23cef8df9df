import { mayUpdateGroup } from '#domain/group-policy.ts';
import { groupDetail } from '#domain/group-views.ts';
import { type GroupUpdateInput, groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects } from '#store/group-projects.ts';
import { updateGroup } from '#store/group-writes.ts';

/** Owners change a group; a new path or name moves every subgroup and project under it. */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.update,
  load: group<GroupUpdateInput>({ allow: mayUpdateGroup }),
  run: async ({ params: { id: _id, ...changes }, caller, request, group, access }) => {
    const saved = await updateGroup(group, changes);
    const related = await groupDetailProjects(saved, access, caller);
    return groupDetail(saved, caller, { baseUrl: request.baseUrl }, related);
  },
});
