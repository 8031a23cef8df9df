import { forbidden, invalidParams, unauthorized } from '#domain/errors.ts';
import { allOrNoneOf } from '#domain/params.ts';
import { identityParams, userSchemas } from '#domain/schemas/users.ts';
import { type User, userBasic, userMatchesSearch, userWithAdmin } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { findUserByIdentity, findUserByUsername, listUsers } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'optional',
  userRead: true,
  paginated: true,
  params: userSchemas.list,
  run: async ({ params: input, caller, page, request }) => {
    const identityRefusal = allOrNoneOf(input, identityParams);
    if (identityRefusal) throw invalidParams(identityRefusal);
    const byIdentity =
      input.provider !== undefined && input.extern_uid !== undefined
        ? { provider: input.provider, externUid: input.extern_uid }
        : undefined;
    // Looking a user up by external identity is for admins only.
    if (byIdentity && !caller) throw unauthorized();
    if (byIdentity && !caller?.admin) throw forbidden();
    // Anonymous callers may only look a username up, never list everyone.
    if (!caller && input.username === undefined) forbiddenList();
    if (input.external !== undefined && !caller?.admin) throw forbidden();
    const present = (user: User) =>
      caller?.admin ? userWithAdmin(user, request.baseUrl) : userBasic(user, request.baseUrl);

    const state = input.blocked ? 'blocked' : input.active ? 'active' : undefined;
    const filters: ((user: User) => boolean)[] = [];
    if (input.search !== undefined)
      filters.push((user) => userMatchesSearch(user, input.search as string, Boolean(caller?.admin)));
    if (input.external) filters.push((user) => user.external);

    // A username or an identity names at most one user: two key reads, no list.
    if (input.username !== undefined || byIdentity) {
      const [byName, byUid] = await Promise.all([
        input.username === undefined ? undefined : findUserByUsername(input.username),
        byIdentity ? findUserByIdentity(byIdentity.provider, byIdentity.externUid) : undefined,
      ]);
      const user = byName ?? byUid;
      const matches =
        user !== undefined &&
        (input.username === undefined || byName?.id === user.id) &&
        (!byIdentity || byUid?.id === user.id) &&
        (!state || user.state === state) &&
        filters.every((accept) => accept(user));
      const items = matches && page.page === 1 ? [present(user)] : [];
      return reply.page(items, matches ? 1 : 0, page);
    }

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
