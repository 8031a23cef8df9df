import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { getUser, saveUser } from '#store/users.ts';

/** Answers `true` when the user was blocked now; `null` when already blocked (GitLab answers 201 with no value). */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id } }) => {
    const user = await getUser(id);
    if (!user) throw notFound('User');
    if (user.state === 'blocked') return reply.created(null);
    await saveUser(user, { ...user, state: 'blocked', updated_at: new Date().toISOString() });
    return reply.created(true);
  },
});
