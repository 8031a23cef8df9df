import { badRequest, recordNotFound } from '#domain/errors.ts';
import { tokenSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { getAccessToken, revokeAccessToken } from '#store/users/access-tokens.ts';

/** Revokes a token: its owner or an admin. Revoking a revoked token changes nothing. */
export const handler = defineRoute({
  auth: 'user',
  params: tokenSchemas.byId,
  run: async ({ params: { id }, caller }) => {
    const token = await getAccessToken(id);
    if (!token) throw recordNotFound();
    if (token.user_id !== caller.id && !caller.admin) throw badRequest('400 Bad request');
    if (!token.revoked) await revokeAccessToken(token);
    return reply.noContent();
  },
});
