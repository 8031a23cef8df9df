/**
 * Personal access tokens: the token item (listed per user and globally) and a lookup item keyed by
 * the secret's SHA-256, which carries the owner's auth fields so authentication is one read.
 */
import { type AccessToken, hashToken, type TokenGrant } from '#domain/access-tokens.ts';
import { notFound } from '#domain/errors.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { callerOf, type User } from '#domain/users.ts';
import { type BatchReadOptions, batchGetItems, type Key } from '../table/batch.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { isAt, keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import {
  forEachListPage,
  type ListPage,
  listCountChange,
  listCountChanges,
  queryList,
} from '../table/lists.ts';
import {
  check,
  commit,
  commitUnlessDone,
  EXISTING_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  update,
} from '../table/transaction.ts';

type StoredToken = AccessToken & { token_hash: string };

const decodeToken = (item: Record<string, unknown>): AccessToken => {
  const { token_hash: _hash, kind: _kind, ...token } = stripStorage<StoredToken & { kind: string }>(item);
  return token;
};

export interface NewAccessToken {
  name: string;
  scopes: string[];
  expires_at: string | null;
}

/** Stores a token for `user` whose secret is `secret`; the user must still exist. */
export async function createAccessToken(
  user: User,
  fields: NewAccessToken,
  secret: string,
  now = new Date().toISOString(),
): Promise<AccessToken> {
  const token: AccessToken = {
    id: await nextId('personal_access_token'),
    user_id: user.id,
    name: fields.name,
    scopes: fields.scopes,
    expires_at: fields.expires_at,
    revoked: false,
    created_at: now,
    last_used_at: null,
  };
  const tokenHash = hashToken(secret);
  const grant: TokenGrant = {
    token_id: token.id,
    scopes: token.scopes,
    expires_at: token.expires_at,
    revoked: false,
    user: callerOf(user),
  };
  const item = {
    ...keys.accessToken(token.id),
    ...token,
    token_hash: tokenHash,
    kind: 'personal_access_token',
    ...inLists(lists.accessTokens, lists.accessTokensOfUser(user.id)),
    ...sortAttributes({ id: token.id, created_at: token.created_at }),
  };
  await commit([
    refusedWith(check(keys.user(user.id), EXISTING_ITEM), notFound('User')),
    put(item, NEW_ITEM),
    put({ ...keys.accessTokenHash(tokenHash), kind: 'token_grant', ...grant }, NEW_ITEM),
    ...listCountChanges(item, 1),
  ]);
  return token;
}

/** The key of the grant item for a presented secret. */
export const grantKey = (secret: string) => keys.accessTokenHash(hashToken(secret));

/** A presented secret with its hash and its grant item's key: hashed once, however often they are needed. */
export interface PresentedSecret {
  secret: string;
  hash: string;
  key: Key;
}

export function presentedSecret(secret: string): PresentedSecret {
  const hash = hashToken(secret);
  return { secret, hash, key: keys.accessTokenHash(hash) };
}

export function grantFromItem(item: Record<string, unknown> | undefined): TokenGrant | undefined {
  if (!item) return undefined;
  const { token_id, scopes, expires_at, revoked, user } = item as unknown as TokenGrant;
  return { token_id, scopes, expires_at, revoked, user };
}

/**
 * The grant for a presented secret read in one batch with other items a request needs, so the
 * credential costs no round trip of its own. Both halves come from the same consistent read.
 */
export function readGrantWith(
  secret: string | PresentedSecret,
  others: Key[],
  options?: BatchReadOptions,
): { grant: Promise<TokenGrant | undefined>; items: Promise<Record<string, unknown>[]> } {
  const key = typeof secret === 'string' ? grantKey(secret) : secret.key;
  const all = batchGetItems([key, ...others], options);
  const isGrant = (item: Record<string, unknown>) => isAt(item, key);
  const grant = all.then((items) => grantFromItem(items.find(isGrant)));
  const items = all.then((found) => found.filter((item) => !isGrant(item)));
  grant.catch(() => undefined);
  items.catch(() => undefined);
  return { grant, items };
}

/** The grant for a presented secret, read consistently so a revocation counts at once. */
export async function findGrant(secret: string | PresentedSecret): Promise<TokenGrant | undefined> {
  return grantFromItem(await getItem(typeof secret === 'string' ? grantKey(secret) : secret.key));
}

export async function getAccessToken(
  id: number,
): Promise<(AccessToken & { token_hash: string }) | undefined> {
  const item = await getItem(keys.accessToken(id));
  if (!item) return undefined;
  return { ...decodeToken(item), token_hash: String(item.token_hash) };
}

export async function listAccessTokens(query: {
  userId?: number;
  filter?: (token: AccessToken) => boolean;
  page: PageRequest;
}): Promise<ListPage<AccessToken>> {
  return queryList({
    list: query.userId === undefined ? lists.accessTokens : lists.accessTokensOfUser(query.userId),
    order: 'id',
    sort: 'asc',
    page: query.page,
    decode: decodeToken,
    filter: query.filter,
  });
}

/**
 * Marks the token and its lookup item revoked together (by id and secret hash alone: the request
 * that presented a token knows both without reading it).
 */
export async function revokeAccessToken(token: Pick<StoredToken, 'id' | 'token_hash'>): Promise<void> {
  const revoke = (key: Key) =>
    update(key, 'SET revoked = :true', { condition: EXISTING_ITEM, values: { ':true': true } });
  await commit(
    [revoke(keys.accessToken(token.id)), revoke(keys.accessTokenHash(token.token_hash))],
    notFound(),
  );
}

/** Removes every token of a deleted user (token items, lookup items, counters). Idempotent. */
export async function deleteAccessTokensOfUser(userId: number): Promise<number> {
  let removed = 0;
  await forEachListPage(lists.accessTokensOfUser(userId), 'id, token_hash', async (tokens) => {
    for (const item of tokens) {
      // Already removed by an earlier delivery of the same job: nothing left to do for it.
      const done = await commitUnlessDone([
        remove(keys.accessToken(Number(item.id)), EXISTING_ITEM),
        remove(keys.accessTokenHash(String(item.token_hash))),
        listCountChange(lists.accessTokens, -1),
        listCountChange(lists.accessTokensOfUser(userId), -1),
      ]);
      if (done) removed++;
    }
  });
  return removed;
}
