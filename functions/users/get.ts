import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { userEntity, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { getUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'optional',
  userRead: true,
  params: userSchemas.byId,
  run: async ({ params: { id }, caller, request }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    return caller?.admin ? userWithAdmin(user, request.baseUrl) : userEntity(user, request.baseUrl);
  },
});
