import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { userPublic, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { getUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'user',
  userRead: true,
  params: userSchemas.none,
  run: async ({ caller, request }) => {
    const user = await getUser(caller.id);
    if (!user) throw notFound('User');
    return user.admin ? userWithAdmin(user, request.baseUrl) : userPublic(user, request.baseUrl);
  },
});
