import { invalidParams } from '#domain/errors.ts';
import { atLeastOneOf } from '#domain/params.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { newUserFrom, userWithAdmin } from '#domain/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createUser } from '#store/users.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: userSchemas.create,
  run: async ({ params: input, request }) => {
    const missing = atLeastOneOf(input, ['password', 'reset_password', 'force_random_password']);
    if (missing) throw invalidParams(missing);
    const now = new Date().toISOString();
    const user = await createUser(newUserFrom(input, now), now);
    return reply.created(userWithAdmin(user, request.baseUrl));
  },
});
