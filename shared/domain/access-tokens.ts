/** Personal access tokens: rules and entity. The secret is shown once and stored as a SHA-256 hash. */
import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from './users.ts';

export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'sudo',
  'admin_mode',
] as const;

export interface AccessToken {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
  created_at: string;
  last_used_at: string | null;
}

/** The lookup item found by hash: the token's state plus the owner's auth snapshot. */
export interface TokenGrant {
  token_id: number;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
  user: Caller;
}

export const hashToken = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * A new token's secret: 20 random characters, then its user's id in base 36 after a dot (GitLab's
 * routable tokens carry theirs too), so a request can start reading what its user reaches beside
 * the credential itself. The id is only a hint: nothing read with it counts until the credential
 * is found to be that user's.
 */
export const generateTokenSecret = (userId: number) =>
  `glpat-${randomBytes(15).toString('base64url')}.${userId.toString(36)}`;

/** The user id a secret made by generateTokenSecret names; undefined for any other secret. */
export function tokenUserHint(secret: string): number | undefined {
  const hint = /^glpat-[\w-]{20}\.([0-9a-z]{1,10})$/.exec(secret)?.[1];
  return hint === undefined ? undefined : Number.parseInt(hint, 36);
}

/** Tokens expire at midnight UTC at the start of their expiry date. */
export function isExpired(expiresAt: string | null, now: Date = new Date()): boolean {
  return expiresAt !== null && now.toISOString().slice(0, 10) >= expiresAt;
}

export const isActive = (token: Pick<AccessToken, 'revoked' | 'expires_at'>, now?: Date) =>
  !token.revoked && !isExpired(token.expires_at, now);

/** The token a request authenticated with: its id, the hash its lookup item is keyed by, its owner. */
export interface Credential {
  tokenId: number;
  tokenHash: string;
  userId: number;
}

/** Acting as another user (sudo) takes the token's `sudo` scope, whatever the route asks for. */
export const allowsSudo = (scopes: readonly string[]) => scopes.includes('sudo');

/**
 * The user a `sudo` parameter or header names, as text (GitLab reads any value given, an empty one
 * included; all digits is an id, anything else a username). Undefined when none was given.
 */
export function sudoIdentifier(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Which scopes let a token call a route: `api` everything, `read_api` reads, `read_user` user reads. */
export function scopeAllows(scopes: readonly string[], method: string, userRead: boolean): boolean {
  if (scopes.includes('api')) return true;
  const read = method === 'GET' || method === 'HEAD';
  if (read && scopes.includes('read_api')) return true;
  return read && userRead && scopes.includes('read_user');
}

export function accessTokenEntity(token: AccessToken, now?: Date) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.created_at,
    scopes: token.scopes,
    user_id: token.user_id,
    last_used_at: token.last_used_at,
    active: isActive(token, now),
    expires_at: token.expires_at,
  };
}
