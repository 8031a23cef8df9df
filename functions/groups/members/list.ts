import { memberEntity, memberMatchesQuery } from '#domain/members.ts';
import { id, idOrPath, list, optional, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listGroupMembers, readableGroup } from '#store/groups.ts';
import { getUsers } from '#store/users.ts';

/** Direct members of a group; `query` matches name or username, `user_ids` narrows to some. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: params({ id: required(idOrPath()), query: optional(str()), user_ids: optional(list(id())) }),
  run: async ({ params: input, caller, page, request }) => {
    const { group } = await readableGroup(input.id, caller);
    const wanted = input.user_ids ? new Set(input.user_ids) : undefined;
    const all = await listGroupMembers(group.id, { page: 1, perPage: Number.MAX_SAFE_INTEGER }, (member) =>
      wanted ? wanted.has(member.user_id) : true,
    );
    const users = await getUsers(all.items.map((member) => member.user_id));
    const rows = all.items
      .filter((member) => users.has(member.user_id))
      .filter((member) => !input.query || memberMatchesQuery(users.get(member.user_id)!, input.query))
      .map((member) => memberEntity(users.get(member.user_id)!, member, request.baseUrl));
    const offset = (page.page - 1) * page.perPage;
    return reply.page(rows.slice(offset, offset + page.perPage), rows.length, page);
  },
});
