import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { withCustomAttribute } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { updateUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.customAttribute,
  run: async ({ params: { id, key } }) => {
    await updateUser(
      id,
      (user) => {
        // 404 `Not found` when the key is not set.
        customAttributeEntity(user.custom_attributes ?? {}, key);
        return {
          next: withCustomAttribute(user, key, undefined, new Date().toISOString()),
          result: undefined,
        };
      },
      () => notFound(),
    );
    return reply.noContent();
  },
});
