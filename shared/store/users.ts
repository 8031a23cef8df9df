/** Users: one item per user, a route item for the username and an item for the email. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound } from '#domain/errors.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { type Caller, callerOf, type User, type UserState } from '#domain/users.ts';
import { batchGetItems } from './batch.ts';
import { documentClient, tableName } from './client.ts';
import { nextId } from './ids.ts';
import { getItem } from './items.ts';
import { keys, lists, sortAttributes, stripStorage } from './keys.ts';
import { type ListPage, listCountChange, queryList } from './lists.ts';
import { indexName } from './table.ts';
import { ConditionFailed, type TransactItem, transact } from './transact.ts';

const decodeUser = (item: Record<string, unknown>) => stripStorage<User & { kind: string }>(item) as User;

function userItem(user: User): Record<string, unknown> {
  return {
    ...keys.user(user.id),
    ...user,
    kind: 'user',
    l1: lists.users,
    l2: lists.usersInState(user.state),
    ...sortAttributes({ id: user.id, name: user.name, path: user.username, created_at: user.created_at }),
  };
}

const put = (Item: Record<string, unknown>, condition?: string): TransactItem => ({
  Put: { TableName: tableName(), Item, ...(condition ? { ConditionExpression: condition } : {}) },
});
const remove = (Key: { pk: string; sk: string }, condition?: string): TransactItem => ({
  Delete: { TableName: tableName(), Key, ...(condition ? { ConditionExpression: condition } : {}) },
});
const NEW_ITEM = 'attribute_not_exists(pk)';

export type NewUser = Omit<User, 'id' | 'created_at' | 'updated_at'>;

/**
 * Creates a user; username and email uniqueness are conditions of the same transaction, which
 * also records the user's personal namespace (so a first project is one transaction too).
 */
export async function createUser(fields: NewUser, now = new Date().toISOString()): Promise<User> {
  const [id, namespaceId] = await Promise.all([nextId('user'), nextId('namespace')]);
  const user: User = { ...fields, id, created_at: now, updated_at: now };
  try {
    await transact([
      put({ ...userItem(user), namespace_id: namespaceId }, NEW_ITEM),
      put({ ...keys.userNamespace(namespaceId), kind: 'user_namespace', user_id: user.id }, NEW_ITEM),
      put({ ...keys.email(user.email), kind: 'email', user_id: user.id }, NEW_ITEM),
      put({ ...keys.route(user.username), kind: 'user', id: user.id, full_path: user.username }, NEW_ITEM),
      listCountChange(lists.users, 1),
      listCountChange(lists.usersInState(user.state), 1),
    ]);
  } catch (error) {
    throw uniquenessError(error, 2, 3);
  }
  return { ...user, namespace_id: namespaceId } as User;
}

/** GitLab checks the email before the username when reporting a clash. */
function uniquenessError(error: unknown, emailIndex: number, routeIndex: number): unknown {
  if (!(error instanceof ConditionFailed)) return error;
  if (error.failedAt(emailIndex)) return conflict('Email has already been taken');
  if (error.failedAt(routeIndex)) return conflict('Username has already been taken');
  return notFound('User');
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

export async function getUsers(ids: number[]): Promise<Map<number, User>> {
  const items = await batchGetItems(ids.map((id) => keys.user(id)));
  return new Map(items.map((item) => [Number(item.id), decodeUser(item)]));
}

export interface UserListQuery {
  state?: UserState;
  filter?: (user: User) => boolean;
  page: PageRequest;
}

/** Users in id order, newest first (GitLab's UsersFinder order). */
export async function listUsers(query: UserListQuery): Promise<ListPage<User>> {
  return queryList({
    list: query.state ? 'l2' : 'l1',
    partition: query.state ? lists.usersInState(query.state) : lists.users,
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
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName('l2', 'id'),
        KeyConditionExpression: 'l2 = :list',
        ExpressionAttributeValues: { ':list': lists.accessTokensOfUser(userId) },
        ProjectionExpression: 'token_hash',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) hashes.push(String(item.token_hash));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return hashes;
}

/** Transaction items that refresh the auth snapshot on each of the user's token lookup items. */
function refreshGrants(hashes: string[], caller: Caller | undefined): TransactItem[] {
  return hashes.map((hash) =>
    caller
      ? {
          Update: {
            TableName: tableName(),
            Key: keys.accessTokenHash(hash),
            UpdateExpression: 'SET #user = :user',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#user': 'user' },
            ExpressionAttributeValues: { ':user': caller },
          },
        }
      : remove(keys.accessTokenHash(hash)),
  );
}

/**
 * Writes a changed user: the item itself (guarded by its previous `updated_at`, so two concurrent
 * updates cannot both win), moved username/email items, list counters and the auth copies.
 */
export async function saveUser(previous: User, next: User): Promise<User> {
  const authChanged = JSON.stringify(callerOf(next)) !== JSON.stringify(callerOf(previous));
  // Only a change to what authentication copies needs the user's token lookup items.
  const hashes = authChanged ? await tokenHashesOf(previous.id) : [];
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: userItem(next),
        ConditionExpression: 'updated_at = :previous',
        ExpressionAttributeValues: { ':previous': previous.updated_at },
      },
    },
  ];
  let emailIndex = -1;
  let routeIndex = -1;
  if (next.email.toLowerCase() !== previous.email.toLowerCase()) {
    emailIndex =
      items.push(put({ ...keys.email(next.email), kind: 'email', user_id: next.id }, NEW_ITEM)) - 1;
    items.push(remove(keys.email(previous.email)));
  }
  if (next.username.toLowerCase() !== previous.username.toLowerCase()) {
    routeIndex =
      items.push(
        put({ ...keys.route(next.username), kind: 'user', id: next.id, full_path: next.username }, NEW_ITEM),
      ) - 1;
    items.push(remove(keys.route(previous.username)));
  } else if (next.username !== previous.username) {
    items.push(put({ ...keys.route(next.username), kind: 'user', id: next.id, full_path: next.username }));
  }
  if (next.state !== previous.state) {
    items.push(listCountChange(lists.usersInState(previous.state), -1));
    items.push(listCountChange(lists.usersInState(next.state), 1));
  }
  if (authChanged) items.push(...refreshGrants(hashes, callerOf(next)));
  try {
    await transact(items);
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedAt(0)) {
      throw conflict('409 Conflict: Resource lock');
    }
    throw uniquenessError(error, emailIndex, routeIndex);
  }
  return next;
}

/** Removes the user, its username and email, and every token lookup item, in one transaction. */
/** The personal namespace's id, recorded on the user item (users from before it was allocated at creation may lack it). */
const namespaceIdOf = (user: User) => (user as User & { namespace_id?: number }).namespace_id;

export async function deleteUser(user: User): Promise<void> {
  const hashes = await tokenHashesOf(user.id);
  try {
    await transact([
      remove(keys.user(user.id), 'attribute_exists(pk)'),
      remove(keys.email(user.email)),
      remove(keys.route(user.username)),
      ...(namespaceIdOf(user) ? [remove(keys.userNamespace(namespaceIdOf(user) as number))] : []),
      listCountChange(lists.users, -1),
      listCountChange(lists.usersInState(user.state), -1),
      ...refreshGrants(hashes, undefined),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw notFound('User');
    throw error;
  }
}
