import { userSchemas } from '#domain/schemas/users.ts';
import { withoutIdentity } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

/** Removes the user's identity of a provider (and frees its uid for another user). */
export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.identity,
  run: async ({ params: { id, provider } }) => {
    await updateUser(id, (user) => ({
      next: withoutIdentity(user, provider, new Date().toISOString()),
      result: undefined,
    }));
    return reply.noContent();
  },
});
