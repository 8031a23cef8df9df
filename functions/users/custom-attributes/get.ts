import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { defineRoute } from '#http/route.ts';
import { getUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.customAttribute,
  prefetch: (input) => getUser(input.id),
  run: async ({ params: input, prefetched }) => {
    const user = await prefetched;
    if (!user) throw notFound();
    return customAttributeEntity(user.custom_attributes ?? {}, input.key);
  },
});
