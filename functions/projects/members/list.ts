import { memberEntity, memberMatchesQuery } from '#domain/members.ts';
import { id, idOrPath, list, optional, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listProjectMembers, readableProject } from '#store/projects.ts';
import { getUsers } from '#store/users.ts';

/** Direct members of a project; `query` matches name or username. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: params({ id: required(idOrPath()), query: optional(str()), user_ids: optional(list(id())) }),
  run: async ({ params: input, caller, page, request }) => {
    const { project } = await readableProject(input.id, caller);
    const wanted = input.user_ids ? new Set(input.user_ids) : undefined;
    const members = (await listProjectMembers(project.id)).filter(
      (member) => !wanted || wanted.has(member.user_id),
    );
    const users = await getUsers(members.map((member) => member.user_id));
    const rows = members
      .filter((member) => users.has(member.user_id))
      .filter((member) => !input.query || memberMatchesQuery(users.get(member.user_id)!, input.query))
      .map((member) => memberEntity(users.get(member.user_id)!, member, request.baseUrl));
    const offset = (page.page - 1) * page.perPage;
    return reply.page(rows.slice(offset, offset + page.perPage), rows.length, page);
  },
});
