import { memberMatchesQuery } from '#domain/members.ts';
import { idOrPath, optional, params, required, str } from '#domain/params.ts';
import { userBasic } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject, usersWithAccess } from '#store/projects.ts';
import { getUsers } from '#store/users.ts';

/** Everyone with access to the project: members, members of its groups and of groups it is shared with. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params({ id: required(idOrPath()), search: optional(str()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    const users = await getUsers(await usersWithAccess(project));
    const rows = [...users.values()]
      .filter((user) => !input.search || memberMatchesQuery(user, input.search))
      .sort((a, b) => a.id - b.id)
      .map((user) => userBasic(user, request.baseUrl));
    return reply.pageOf(rows, page);
  },
});
