import { memberEntities } from '#domain/members.ts';
import { memberSchemas } from '#domain/schemas/members.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listGroupMembers, withUsers } from '#store/access/members.ts';

/** Direct members of a group; `query` matches name or username, `user_ids` narrows to some. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: memberSchemas.list,
  load: group(),
  run: async ({ params: input, page, request, group }) => {
    const members = await withUsers(await listGroupMembers(group.id), {
      userIds: input.user_ids,
      query: input.query,
    });
    return reply.pageOf(memberEntities(members, request.baseUrl), page);
  },
});
