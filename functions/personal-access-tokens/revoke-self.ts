import { badRequest, unauthorized } from '#domain/errors.ts';
import { userSchemas } from '#domain/schemas/users.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { revokeAccessToken } from '#store/users/access-tokens.ts';

/**
 * Revokes the token the request presents, whatever its scopes (GitLab lets a token of any scope
 * revoke itself). Under sudo the impersonated user acts: they may revoke only their own tokens,
 * unless admin, as with DELETE /personal_access_tokens/:id.
 */
export const handler = defineRoute({
  auth: 'user',
  anyScope: true,
  params: userSchemas.none,
  run: async ({ caller, credential }) => {
    if (!credential) throw unauthorized();
    if (credential.userId !== caller.id && !caller.admin) throw badRequest('400 Bad request');
    await revokeAccessToken({ id: credential.tokenId, token_hash: credential.tokenHash });
    return reply.noContent();
  },
});
