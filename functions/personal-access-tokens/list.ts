import { type AccessToken, accessTokenEntity, isActive } from '#domain/access-tokens.ts';
import { forbidden } from '#domain/errors.ts';
import { tokenSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { listAccessTokens } from '#store/users/access-tokens.ts';

/** The caller's tokens; admins see everyone's, or one user's with `user_id`. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: tokenSchemas.list,
  run: async ({ params: input, caller, page }) => {
    if (input.user_id !== undefined && input.user_id !== caller.id && !caller.admin) throw forbidden();
    const userId = caller.admin ? input.user_id : caller.id;
    const now = new Date();
    const filters: ((token: AccessToken) => boolean)[] = [];
    if (input.state) filters.push((token) => isActive(token, now) === (input.state === 'active'));
    if (input.revoked !== undefined) filters.push((token) => token.revoked === input.revoked);
    if (input.search) {
      const term = input.search.toLowerCase();
      filters.push((token) => token.name.toLowerCase().includes(term));
    }
    const result = await listAccessTokens({
      userId,
      page,
      filter: filters.length ? (token) => filters.every((accept) => accept(token)) : undefined,
    });
    return reply.page(
      result.items.map((token) => accessTokenEntity(token, now)),
      result.total,
      page,
    );
  },
});
