import { notFound } from '#domain/errors.ts';
import { id, optional, params, required, str } from '#domain/params.ts';
import { updatedUser, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { followUserRename } from '#store/namespaces.ts';
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
    if (saved.username !== user.username || saved.name !== user.name) await followUserRename(saved);
    return userWithAdmin(saved, request.baseUrl);
  },
});
