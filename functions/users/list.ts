import { forbidden } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { type User, userBasic, userMatchesSearch, userWithAdmin } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { findUserByUsername, listUsers } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'optional',
  userRead: true,
  paginated: true,
  params: userSchemas.list,
  run: async ({ params: input, caller, page, request }) => {
    // Anonymous callers may only look a username up, never list everyone.
    if (!caller && input.username === undefined) forbiddenList();
    if (input.external !== undefined && !caller?.admin) throw forbidden();
    const present = (user: User) =>
      caller?.admin ? userWithAdmin(user, request.baseUrl) : userBasic(user, request.baseUrl);

    if (input.username !== undefined) {
      const user = await findUserByUsername(input.username);
      const matches =
        user && (!input.blocked || user.state === 'blocked') && (!input.active || user.state === 'active');
      const items = matches && page.page === 1 ? [present(user)] : [];
      return reply.page(items, matches ? 1 : 0, page);
    }

    const state = input.blocked ? 'blocked' : input.active ? 'active' : undefined;
    const filters: ((user: User) => boolean)[] = [];
    if (input.search !== undefined)
      filters.push((user) => userMatchesSearch(user, input.search as string, Boolean(caller?.admin)));
    if (input.external) filters.push((user) => user.external);
    const result = await listUsers({
      state,
      page,
      filter: filters.length ? (user) => filters.every((accept) => accept(user)) : undefined,
    });
    return reply.page(result.items.map(present), result.total, page);
  },
});

function forbiddenList(): never {
  throw forbidden('Not authorized to access /api/v4/users');
}
