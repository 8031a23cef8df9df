import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { membershipEntity } from '#domain/user-memberships.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { userMembershipsPage } from '#store/users/user-memberships.ts';
import { getUser } from '#store/users/users.ts';

/** The groups (`Namespace`) and projects a user is a direct member of, with their level (admins only). */
export const handler = defineRoute({
  auth: 'admin',
  paginated: true,
  params: userSchemas.memberships,
  prefetch: (input) => getUser(input.id),
  run: async ({ params: input, page, prefetched }) => {
    if (!(await prefetched)) throw notFound('User');
    const result = await userMembershipsPage(input.id, input.type, page);
    const items = result.items.map(({ membership, sourceName }) => membershipEntity(membership, sourceName));
    return reply.page(items, result.total, page);
  },
});
