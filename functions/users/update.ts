import { notFound } from '#domain/errors.ts';
import { id, optional, params, required, str } from '#domain/params.ts';
import { updatedUser, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { getUser, saveUser } from '#store/users.ts';
import { userParams } from './params.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({
    id: required(id()),
    email: optional(str()),
    name: optional(str()),
    username: optional(str()),
    ...userParams,
  }),
  run: async ({ params: { id, ...fields }, request }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    const saved = await saveUser(user, updatedUser(user, fields, new Date().toISOString()));
    return userWithAdmin(saved, request.baseUrl);
  },
});
