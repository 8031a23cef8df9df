/**
 * The first admin. Used by the local runtime at start and by `npm run bootstrap-admin` against a
 * deployed table: creates `root` when no such user exists and issues it a token.
 */

import { generateTokenSecret } from '#domain/access-tokens.ts';
import { newUserFrom, type User } from '#domain/users.ts';
import { createAccessToken, findGrant } from '../users/access-tokens.ts';
import { createUser, findUserByUsername } from '../users/users.ts';

export const ROOT_USERNAME = 'root';
const ROOT_SCOPES = ['api', 'read_user', 'read_api', 'sudo'];

export async function ensureRootUser(): Promise<User> {
  const existing = await findUserByUsername(ROOT_USERNAME);
  if (existing) return existing;
  const now = new Date().toISOString();
  try {
    return await createUser(
      newUserFrom(
        {
          username: ROOT_USERNAME,
          email: 'admin@example.com',
          name: 'Administrator',
          admin: true,
          can_create_group: true,
          skip_confirmation: true,
        },
        now,
      ),
      now,
    );
  } catch (error) {
    // Another process created it first.
    const created = await findUserByUsername(ROOT_USERNAME);
    if (created) return created;
    throw error;
  }
}

/**
 * Makes `secret` (or a new secret) a valid token of root and returns it. A given secret that is
 * already a live token of root is kept as it is.
 */
export async function ensureRootToken(secret?: string): Promise<{ user: User; token: string }> {
  const user = await ensureRootUser();
  if (secret) {
    const grant = await findGrant(secret);
    if (grant && grant.user.id === user.id && !grant.revoked) return { user, token: secret };
    if (grant) throw new Error('the given root token belongs to another user or was revoked');
  }
  const token = secret ?? generateTokenSecret(user.id);
  await createAccessToken(user, { name: 'root token', scopes: ROOT_SCOPES, expires_at: null }, token);
  return { user, token };
}

/** True when `secret` authenticates as an active admin. */
export async function isLiveAdminToken(secret: string): Promise<boolean> {
  const grant = await findGrant(secret);
  return Boolean(grant && !grant.revoked && grant.user.admin && grant.user.state === 'active');
}
