import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { publish } from '#queue/publish.ts';
import { deleteUser, getUser } from '#store/users/users.ts';

/** Removes the user and its credentials at once; a worker removes the rest of its items. */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id } }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    await deleteUser(user);
    await publish('user-cleanup', { userId: user.id });
    return reply.noContent();
  },
});
