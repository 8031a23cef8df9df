import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { updatedUser, userWithAdmin } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { followUserRename } from '#store/namespaces.ts';
import { getUser, saveUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.update,
  run: async ({ params: { id, ...fields }, request }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    const saved = await saveUser(user, updatedUser(user, fields, new Date().toISOString()));
    if (saved.username !== user.username || saved.name !== user.name) await followUserRename(saved);
    return userWithAdmin(saved, request.baseUrl);
  },
});
