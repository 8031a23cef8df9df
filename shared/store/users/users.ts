/**
 * Users: one item per user, a route item for the username, an item for the email and one per
 * external identity (provider and uid), each unique through its key.
 */
import { type ApiError, conflict, notFound, validationFailed } from '#domain/errors.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { callerOf, type Identity, type User, type UserState } from '#domain/users.ts';
import { userNamespaceItem } from '../projects/namespace-items.ts';
import { batchGetItems } from '../table/batch.ts';
import { nextId } from '../table/ids.ts';
import { getItem } from '../table/items.ts';
import { keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import {
  forEachListPage,
  type ListPage,
  listCountChange,
  listCountChanges,
  queryList,
} from '../table/lists.ts';
import {
  commit,
  EXISTING_ITEM,
  isLockLost,
  lockLost,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  retrying,
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';

const decodeUser = (item: Record<string, unknown>) => stripStorage<User & { kind: string }>(item) as User;

function userItem(user: User): Record<string, unknown> {
  return {
    ...keys.user(user.id),
    ...user,
    kind: 'user',
    ...inLists(lists.users, lists.usersInState(user.state)),
    ...sortAttributes({ id: user.id, name: user.name, path: user.username, created_at: user.created_at }),
  };
}

/** GitLab checks the email before the username when reporting a clash. */
const emailTaken = () => conflict('Email has already been taken');
const usernameTaken = () => conflict('Username has already been taken');
const emailItem = (user: User) => ({ ...keys.email(user.email), kind: 'email', user_id: user.id });
const routeItem = (user: User) => ({
  ...keys.route(user.username),
  kind: 'user',
  id: user.id,
  full_path: user.username,
});

/** What the identity validation of the user model reports when another user has the identity. */
const identityTaken = () => validationFailed({ 'identities.extern_uid': ['has already been taken'] });

/** Identities with a blank uid claim nothing (GitLab validates the uid's uniqueness only when present). */
const claimedIdentities = (user: User) =>
  new Map(
    (user.identities ?? [])
      .filter((identity) => identity.extern_uid !== '')
      .map((identity) => [keys.identity(identity.provider, identity.extern_uid).pk, identity]),
  );

const identityItem = (userId: number, identity: Identity) => ({
  ...keys.identity(identity.provider, identity.extern_uid),
  kind: 'identity',
  user_id: userId,
  provider: identity.provider,
  extern_uid: identity.extern_uid,
});

/** Removes an identity item only while it is the user's. */
const releaseIdentity = (userId: number, identity: Identity) =>
  remove(
    keys.identity(identity.provider, identity.extern_uid),
    'attribute_not_exists(pk) OR user_id = :user',
    {
      ':user': userId,
    },
  );

/** The identity items a change of the user's identities claims, rewrites and releases. */
function identityChanges(previous: User | undefined, next: User): (TransactItem | Step)[] {
  const before = previous ? claimedIdentities(previous) : new Map<string, Identity>();
  const after = claimedIdentities(next);
  const changes: (TransactItem | Step)[] = [];
  for (const [pk, identity] of after) {
    const held = before.get(pk);
    if (!held) changes.push(refusedWith(put(identityItem(next.id, identity), NEW_ITEM), identityTaken));
    else if (held.extern_uid !== identity.extern_uid)
      // The same uid in another case: still ours, rewritten as now spelled.
      changes.push(put(identityItem(next.id, identity), 'user_id = :user', { ':user': next.id }));
  }
  for (const [pk, identity] of before) if (!after.has(pk)) changes.push(releaseIdentity(next.id, identity));
  return changes;
}

export type NewUser = Omit<User, 'id' | 'created_at' | 'updated_at'>;

/**
 * Creates a user; username and email uniqueness are conditions of the same transaction, which
 * also records the user's personal namespace (so a first project is one transaction too).
 */
export async function createUser(fields: NewUser, now = new Date().toISOString()): Promise<User> {
  const [id, namespaceId] = await Promise.all([nextId('user'), nextId('namespace')]);
  const user: User = { ...fields, id, created_at: now, updated_at: now, namespace_id: namespaceId };
  const item = userItem(user);
  await commit(
    [
      put(item, NEW_ITEM),
      put(userNamespaceItem(namespaceId, user.id), NEW_ITEM),
      refusedWith(put(emailItem(user), NEW_ITEM), emailTaken),
      refusedWith(put(routeItem(user), NEW_ITEM), usernameTaken),
      // After email and username: GitLab reports those clashes first.
      ...identityChanges(undefined, user),
      ...listCountChanges(item, 1),
      listCountChange(lists.userNamespaces, 1),
    ],
    notFound('User'),
  );
  return user;
}

export async function getUser(id: number): Promise<User | undefined> {
  const item = await getItem(keys.user(id));
  return item ? decodeUser(item) : undefined;
}

/** Finds a user by username (case-insensitive, like GitLab's routes) with two key reads. */
export async function findUserByUsername(username: string): Promise<User | undefined> {
  const route = await getItem(keys.route(username));
  if (route?.kind !== 'user') return undefined;
  return getUser(Number(route.id));
}

/** The user holding an email address (the sync's last way of matching a directory entry). */
export async function findUserByEmail(email: string): Promise<User | undefined> {
  const item = await getItem(keys.email(email));
  if (item?.kind !== 'email') return undefined;
  const user = await getUser(Number(item.user_id));
  return user && user.email.toLowerCase() === email.toLowerCase() ? user : undefined;
}

/** A user by id or username. */
export const findUser = (reference: string) =>
  /^\d+$/.test(reference) ? getUser(Number(reference)) : findUserByUsername(reference);

export async function getUsers(ids: number[]): Promise<Map<number, User>> {
  return usersFrom(await batchGetItems(ids.map((id) => keys.user(id))));
}

/** The users among items read by their keys, by id. */
export const usersFrom = (items: Record<string, unknown>[]): Map<number, User> =>
  new Map(items.map((item) => [Number(item.id), decodeUser(item)]));

export interface UserListQuery {
  state?: UserState;
  filter?: (user: User) => boolean;
  page: PageRequest;
}

/** Users in id order, newest first (GitLab's UsersFinder order). */
export async function listUsers(query: UserListQuery): Promise<ListPage<User>> {
  return queryList({
    list: query.state ? lists.usersInState(query.state) : lists.users,
    order: 'id',
    sort: 'desc',
    page: query.page,
    decode: decodeUser,
    filter: query.filter,
  });
}

/** Ids of the token lookup items that carry a copy of the user's auth fields. */
async function tokenHashesOf(userId: number): Promise<string[]> {
  const hashes: string[] = [];
  await forEachListPage(lists.accessTokensOfUser(userId), 'token_hash', async (tokens) => {
    hashes.push(...tokens.map((item) => String(item.token_hash)));
  });
  return hashes;
}

/** Transaction items that refresh the auth snapshot (callerOf) on each of the user's token lookup items. */
const refreshAuthCopies = (hashes: string[], user: User): TransactItem[] =>
  hashes.map((hash) =>
    update(keys.accessTokenHash(hash), 'SET #user = :user', {
      condition: EXISTING_ITEM,
      names: { '#user': 'user' },
      values: { ':user': callerOf(user) },
    }),
  );

/** Transaction items that remove the user's token lookup items (the user goes). */
const removeTokenLookups = (hashes: string[]): TransactItem[] =>
  hashes.map((hash) => remove(keys.accessTokenHash(hash)));

/**
 * Writes a changed user: the item itself (guarded by its previous `updated_at`, so two concurrent
 * updates cannot both win), moved username/email items, list counters and the auth copies.
 */
export async function saveUser(previous: User, next: User): Promise<User> {
  const authChanged = JSON.stringify(callerOf(next)) !== JSON.stringify(callerOf(previous));
  // Only a change to what authentication copies needs the user's token lookup items.
  const hashes = authChanged ? await tokenHashesOf(previous.id) : [];
  const items: (TransactItem | Step)[] = [
    refusedWith(
      put(userItem(next), 'updated_at = :previous', { ':previous': previous.updated_at }),
      lockLost,
    ),
  ];
  if (next.email.toLowerCase() !== previous.email.toLowerCase()) {
    items.push(refusedWith(put(emailItem(next), NEW_ITEM), emailTaken), remove(keys.email(previous.email)));
  }
  if (next.username.toLowerCase() !== previous.username.toLowerCase()) {
    items.push(
      refusedWith(put(routeItem(next), NEW_ITEM), usernameTaken),
      remove(keys.route(previous.username)),
    );
  } else if (next.username !== previous.username) {
    items.push(put(routeItem(next)));
  }
  items.push(...identityChanges(previous, next));
  if (next.state !== previous.state) {
    items.push(listCountChange(lists.usersInState(previous.state), -1));
    items.push(listCountChange(lists.usersInState(next.state), 1));
  }
  if (authChanged) items.push(...refreshAuthCopies(hashes, next));
  await commit(items, notFound('User'));
  return next;
}

/** Attempts at a read-change-write before a lost race is reported as 409. */
const MAX_ATTEMPTS = 10;

/**
 * A change computed from the user as stored: `change` gets the current user and returns the user
 * to save (none: nothing to write) and the result. When someone saved the user in between, it is
 * read again and `change` decides again, so a rule is always applied to the state it changes.
 */
export function updateUser<T>(
  id: number,
  change: (current: User) => { next?: User; result: T },
  missing: () => ApiError = () => notFound('User'),
): Promise<T> {
  const attempt = async () => {
    const current = await getUser(id);
    if (!current) throw missing();
    const { next, result } = change(current);
    if (next) await saveUser(current, next);
    return result;
  };
  return retrying(
    { times: MAX_ATTEMPTS, retry: isLockLost, backoff: true },
    undefined,
    attempt,
    async () => undefined,
  );
}

/** The user who holds an external identity (the directory sync finds its users this way). */
export async function findUserByIdentity(provider: string, externUid: string): Promise<User | undefined> {
  const item = await getItem(keys.identity(provider, externUid));
  if (item?.kind !== 'identity') return undefined;
  const user = await getUser(Number(item.user_id));
  // The user item is the truth: an identity it no longer lists finds nobody.
  const holds = user?.identities?.some(
    (identity) =>
      identity.provider === provider && identity.extern_uid.toLowerCase() === externUid.toLowerCase(),
  );
  return holds ? user : undefined;
}

/** Removes the user, its username and email, and every token lookup item, in one transaction. */
export async function deleteUser(user: User): Promise<void> {
  const hashes = await tokenHashesOf(user.id);
  const namespaceId = user.namespace_id;
  await commit(
    [
      remove(keys.user(user.id), EXISTING_ITEM),
      remove(keys.email(user.email)),
      remove(keys.route(user.username)),
      ...(namespaceId
        ? [remove(keys.userNamespace(namespaceId)), listCountChange(lists.userNamespaces, -1)]
        : []),
      listCountChange(lists.users, -1),
      listCountChange(lists.usersInState(user.state), -1),
      ...[...claimedIdentities(user).values()].map((identity) => releaseIdentity(user.id, identity)),
      ...removeTokenLookups(hashes),
    ],
    notFound('User'),
  );
}
