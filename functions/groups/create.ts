import { mayCreateGroupIn } from '#domain/group-policy.ts';
import { groupDetail, noProjects } from '#domain/group-views.ts';
import { newGroupFrom } from '#domain/groups.ts';
import { type GroupCreateInput, groupSchemas } from '#domain/schemas/groups.ts';
import { optionalGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createGroup } from '#store/group-writes.ts';

/** A top-level group, or a subgroup of `parent_id`; its creator becomes its owner. */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.create,
  load: optionalGroup<GroupCreateInput, 'parent_id'>('parent_id', mayCreateGroupIn),
  run: async ({ params: input, caller, request, group: parent }) => {
    const group = await createGroup(newGroupFrom(input, parent), parent, caller.id);
    const related = { projects: noProjects, shared: noProjects };
    return reply.created(groupDetail(group, caller, { baseUrl: request.baseUrl }, related));
  },
});
