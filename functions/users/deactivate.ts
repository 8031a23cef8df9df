import { userSchemas } from '#domain/schemas/users.ts';
import { afterStateAction } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Deactivates an active user: 201 `true`; already deactivated: 201 `null`; blocked or banned: 403. */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  run: async ({ params: { id }, caller }) =>
    reply.created(
      await updateUser(id, (user) =>
        afterStateAction(user, 'deactivate', caller.id, new Date().toISOString()),
      ),
    ),
});
