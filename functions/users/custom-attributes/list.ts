import { customAttributeEntities } from '#domain/custom-attributes.ts';
import { notFound } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { defineRoute } from '#http/route.ts';
import { getUser } from '#store/users/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.byId,
  prefetch: (input) => getUser(input.id),
  run: async ({ prefetched }) => {
    const user = await prefetched;
    // GitLab's custom attribute endpoints answer an unknown user with a bare 404.
    if (!user) throw notFound();
    return customAttributeEntities(user.custom_attributes ?? {});
  },
});
