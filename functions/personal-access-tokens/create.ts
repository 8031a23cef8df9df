import { accessTokenEntity, generateTokenSecret, TOKEN_SCOPES } from '#domain/access-tokens.ts';
import { notFound } from '#domain/errors.ts';
import { commaList, date, id, oneOf, optional, params, present, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createAccessToken } from '#store/access-tokens.ts';
import { getUser } from '#store/users.ts';

/** Admin creates a token for a user; the secret appears in this response only. */
export const handler = defineRoute({
  auth: 'admin',
  params: params({
    user_id: required(id()),
    name: required(present(str())),
    scopes: required(present(commaList(oneOf(TOKEN_SCOPES)))),
    expires_at: optional(date()),
  }),
  run: async ({ params: input }) => {
    const user = await getUser(input.user_id);
    if (!user) throw notFound('User');
    const secret = generateTokenSecret();
    const token = await createAccessToken(
      user,
      { name: input.name, scopes: [...new Set(input.scopes)], expires_at: input.expires_at ?? null },
      secret,
    );
    return reply.created({ ...accessTokenEntity(token), token: secret });
  },
});
