import { userSchemas } from '#domain/schemas/users.ts';
import { afterStateAction } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Bans an active user: 201 `true`; any other state: 403 "You cannot ban <state> users." */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id }, caller }) =>
    reply.created(
      await updateUser(id, (user) => afterStateAction(user, 'ban', caller.id, new Date().toISOString())),
    ),
});
