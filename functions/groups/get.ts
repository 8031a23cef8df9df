import { groupDetail } from '#domain/group-views.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects, startGroupDetail } from '#store/group-projects.ts';

/** A group with its projects and shared projects; anonymous callers see public groups. */
export const handler = defineRoute({
  auth: 'optional',
  params: groupSchemas.get,
  load: group({ alongside: startGroupDetail }),
  run: async ({ params: input, caller, request, group, access, alongside }) => {
    const related = await groupDetailProjects(group, access, caller, alongside);
    const customAttributes = Boolean(input.with_custom_attributes && caller?.admin);
    return groupDetail(group, caller, { baseUrl: request.baseUrl, customAttributes }, related);
  },
});
