import { groupDetail } from '#domain/group-views.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects } from '#store/groups/group-projects.ts';
import { transferProjectInto } from '#store/projects/project-transfers.ts';

/** Admin moves a project into the group; its full path and route move with it. */
export const handler = defineRoute({
  auth: 'admin',
  params: groupSchemas.transferProject,
  load: group(),
  run: async ({ params: input, caller, readScope, request, group, access }) => {
    await transferProjectInto(group, input.project_id);
    const related = await groupDetailProjects(group, access, readScope);
    return reply.created(groupDetail(group, caller, { baseUrl: request.baseUrl }, related));
  },
});
