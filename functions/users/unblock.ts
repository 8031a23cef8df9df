import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { getUser, saveUser } from '#store/users.ts';

/** Answers `true` when the user was unblocked now, `false` when already active. */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id } }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    if (user.state === 'active') return reply.created(false);
    await saveUser(user, { ...user, state: 'active', updated_at: new Date().toISOString() });
    return reply.created(true);
  },
});
