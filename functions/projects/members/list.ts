import { memberEntities } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listProjectMembers, withUsers } from '#store/access/members.ts';

/** Direct members of a project; `query` matches name or username, `user_ids` narrows to some. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: memberSchemas.list,
  load: project(),
  run: async ({ params: input, page, request, project }) => {
    const members = await withUsers(await listProjectMembers(project.id), {
      userIds: input.user_ids,
      query: input.query,
    });
    return reply.pageOf(memberEntities(members, request.baseUrl), page);
  },
});
