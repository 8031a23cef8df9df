import { userSchemas } from '#domain/schemas/users.ts';
import { afterStateAction } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Blocks an active or deactivated user: 201 `true`; a user already blocked or banned: 201 with no value (`null`). */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id }, caller }) =>
    reply.created(
      await updateUser(id, (user) => afterStateAction(user, 'block', caller.id, new Date().toISOString())),
    ),
});
