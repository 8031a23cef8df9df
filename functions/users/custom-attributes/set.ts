import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { withCustomAttribute } from '#domain/users.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.setCustomAttribute,
  run: async ({ params: { id, key, value } }) => {
    await updateUser(
      id,
      (user) => ({
        next: withCustomAttribute(user, key, value, new Date().toISOString()),
        result: undefined,
      }),
      () => notFound(),
    );
    return { key, value };
  },
});
