import { userSchemas } from '#domain/schemas/users.ts';
import { afterStateAction } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Unblocks a blocked or banned user: 201 `true`; an active user: `false`; a deactivated one: 403. */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id }, caller }) =>
    reply.created(
      await updateUser(id, (user) => afterStateAction(user, 'unblock', caller.id, new Date().toISOString())),
    ),
});
