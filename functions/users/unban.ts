import { userSchemas } from '#domain/schemas/users.ts';
import { afterStateAction } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Lifts a ban: 201 `true`; a user who is not banned: 403 "You cannot unban <state> users." */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id }, caller }) =>
    reply.created(
      await updateUser(id, (user) => afterStateAction(user, 'unban', caller.id, new Date().toISOString())),
    ),
});
