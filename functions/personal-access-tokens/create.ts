import { accessTokenEntity, generateTokenSecret } from '#domain/access-tokens.ts';
import { notFound } from '#domain/errors.ts';
import { tokenSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createAccessToken } from '#store/users/access-tokens.ts';
import { getUser } from '#store/users/users.ts';

/** Admin creates a token for a user; the secret appears in this response only. */
export const handler = defineRoute({
  auth: 'admin',
  params: tokenSchemas.create,
  run: async ({ params: input }) => {
    const user = await getUser(input.user_id);
    if (!user) throw notFound('User');
    const secret = generateTokenSecret(user.id);
    const token = await createAccessToken(
      user,
      { name: input.name, scopes: [...new Set(input.scopes)], expires_at: input.expires_at ?? null },
      secret,
    );
    return reply.created({ ...accessTokenEntity(token), token: secret });
  },
});
