import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { WRITE_DEADLINE_MS } from '#store/table/transaction.ts';
import { handler as blockUser } from '../../functions/users/block.ts';
import { handler as deleteUser } from '../../functions/users/delete.ts';
import { handler as unblockUser } from '../../functions/users/unblock.ts';
import { handler as updateUser } from '../../functions/users/update.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  adminView,
  ddb,
  emptyHeaders,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenUserToken,
  jsonHeaders,
  NOW,
  pinCounterShards,
  QUEUE_URL,
  REQUEST_CORRELATION,
  resetMocks,
  sentCommands,
  sqs,
  TABLE,
  tokenLookup,
  tokensOfUserQuery,
  USER_TOKEN,
  type UserRecord,
  userItem,
  userRecord,
} from './fixtures.ts';
import { cancelled, grantRefresh, guardedUserPut, listCount } from './resource-fixtures.ts';

const bob = userRecord();
const blockedBob = userRecord({ state: 'blocked' });

const tokenHashesQuery = (userId: number) => tokensOfUserQuery(userId, 'token_hash');

/** The user item written back, guarded by the updated_at it was read with. */
const guardedPut = (next: UserRecord, previousUpdatedAt = bob.updated_at) =>
  guardedUserPut(next, previousUpdatedAt);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  ddb.on(QueryCommand).resolves({ Items: [{ token_hash: 'hash-a' }, { token_hash: 'hash-b' }] });
  ddb.on(TransactWriteCommand).resolves({});
});

describe('PUT /users/:id', () => {
  it('changes profile fields and the email; moves the email item → 200', async () => {
    givenStoredUser(bob);
    const response = await invoke(updateUser, 'PUT', '/api/v4/users/7', {
      token: ADMIN_TOKEN,
      json: { name: 'Robert', email: 'Robert@Example.com', bio: 'Builds things', location: '' },
    });
    const next = {
      ...bob,
      name: 'Robert',
      email: 'robert@example.com',
      bio: 'Builds things',
      location: '',
      updated_at: NOW,
    };
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: adminView(next) });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      // Nothing authentication copies changed, so the token lookup items are left alone.
      { GetCommand: getUserInput(7) },
      {
        TransactWriteCommand: {
          TransactItems: [
            guardedPut(next),
            {
              Put: {
                TableName: TABLE,
                Item: { ...keys.email('robert@example.com'), kind: 'email', user_id: 7 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Delete: { TableName: TABLE, Key: keys.email('bob@example.com') } },
          ],
        },
      },
    ]);
  });

  it('a new username moves the route item and refreshes the auth copy on every token', async () => {
    givenStoredUser(bob);
    const response = await invoke(updateUser, 'PUT', '/api/v4/users/7', {
      token: ADMIN_TOKEN,
      form: { username: 'builder', admin: 'true' },
    });
    const next = { ...bob, username: 'builder', admin: true, updated_at: NOW };
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: adminView(next) });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        guardedPut(next),
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.route('builder'), kind: 'user', id: 7, full_path: 'builder' },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Delete: { TableName: TABLE, Key: keys.route('bob') } },
        grantRefresh('hash-a', next),
        grantRefresh('hash-b', next),
      ],
    });
  });

  it('a change of case only rewrites the route item in place', async () => {
    givenStoredUser(bob);
    const response = await invoke(updateUser, 'PUT', '/api/v4/users/7', {
      token: ADMIN_TOKEN,
      json: { username: 'Bob' },
    });
    const next = { ...bob, username: 'Bob', updated_at: NOW };
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: adminView(next) });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        guardedPut(next),
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.route('bob'), kind: 'user', id: 7, full_path: 'Bob' },
          },
        },
        grantRefresh('hash-a', next),
        grantRefresh('hash-b', next),
      ],
    });
  });

  it('a taken email → 409', async () => {
    givenStoredUser(bob);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'None'));
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/7', {
        token: ADMIN_TOKEN,
        json: { email: 'taken@example.com' },
      }),
    ).toEqual({ statusCode: 409, headers: jsonHeaders(), body: { message: 'Email has already been taken' } });
  });

  it('a taken username → 409 (its item follows the email items)', async () => {
    givenStoredUser(bob);
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'None', 'None', 'ConditionalCheckFailed', 'None', 'None', 'None'));
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/7', {
        token: ADMIN_TOKEN,
        json: { email: 'new@example.com', username: 'taken' },
      }),
    ).toEqual({
      statusCode: 409,
      headers: jsonHeaders(),
      body: { message: 'Username has already been taken' },
    });
  });

  it('a concurrent update of the same user → 409 Resource lock', async () => {
    givenStoredUser(bob);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed'));
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/7', { token: ADMIN_TOKEN, json: { bio: 'x' } }),
    ).toEqual({
      statusCode: 409,
      headers: jsonHeaders(),
      body: { message: '409 Conflict: Resource lock' },
    });
  });

  it('invalid attributes → 400 message-body, nothing written', async () => {
    givenStoredUser(bob);
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/7', {
        token: ADMIN_TOKEN,
        json: { email: 'nope', password: 'short' },
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an unknown id → 404 User Not Found', async () => {
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/99', { token: ADMIN_TOKEN, json: { bio: 'x' } }),
    ).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(99) },
    ]);
  });

  it('non-admins → 403', async () => {
    givenStoredUser(bob);
    expect(
      await invoke(updateUser, 'PUT', '/api/v4/users/7', { token: USER_TOKEN, json: { bio: 'x' } }),
    ).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(USER_TOKEN) }]);
  });
});

describe('DELETE /users/:id', () => {
  it('removes the user, its lookup items and token grants at once, then queues the cleanup → 204', async () => {
    givenStoredUser(bob);
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    expect(await invoke(deleteUser, 'DELETE', '/api/v4/users/7', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      { QueryCommand: tokenHashesQuery(7) },
      {
        TransactWriteCommand: {
          TransactItems: [
            {
              Delete: {
                TableName: TABLE,
                Key: keys.user(7),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            { Delete: { TableName: TABLE, Key: keys.email('bob@example.com') } },
            { Delete: { TableName: TABLE, Key: keys.route('bob') } },
            listCount(lists.users, -1),
            listCount(lists.usersInState('active'), -1),
            { Delete: { TableName: TABLE, Key: keys.accessTokenHash('hash-a') } },
            { Delete: { TableName: TABLE, Key: keys.accessTokenHash('hash-b') } },
          ],
        },
      },
    ]);
    expect(sqs).toHaveReceivedCommandExactlyOnceWith(SendMessageCommand, {
      QueueUrl: QUEUE_URL,
      MessageBody: '{"userId":7}',
      ...REQUEST_CORRELATION,
    });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: '{"userId":7}', ...REQUEST_CORRELATION },
    ]);
  });

  it('counts a blocked user out of the blocked list', async () => {
    givenStoredUser(blockedBob);
    ddb.on(QueryCommand).resolves({ Items: [] });
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-2' });
    const response = await invoke(deleteUser, 'DELETE', '/api/v4/users/7', { token: ADMIN_TOKEN });
    expect(response).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(3)).toEqual([
      listCount(lists.users, -1),
      listCount(lists.usersInState('blocked'), -1),
    ]);
  });

  it('an unknown id → 404 User Not Found, nothing written or queued', async () => {
    expect(await invoke(deleteUser, 'DELETE', '/api/v4/users/99', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(99) },
    ]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a user deleted meanwhile → 404, nothing queued', async () => {
    givenStoredUser(bob);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None'));
    expect(await invoke(deleteUser, 'DELETE', '/api/v4/users/7', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(sqs.calls()).toHaveLength(0);
  });

  it('non-admins → 403, anonymous → 401', async () => {
    givenStoredUser(bob);
    expect(await invoke(deleteUser, 'DELETE', '/api/v4/users/7', { token: USER_TOKEN })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
    expect(await invoke(deleteUser, 'DELETE', '/api/v4/users/7')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('POST /users/:id/block and /unblock', () => {
  // A draw of 0.5 lands on shard 8 of the state lists' 16.
  pinCounterShards(0.5);

  it('blocks an active user: moves it between state lists and refreshes its grants → 201 true', async () => {
    givenStoredUser(bob);
    expect(await invoke(blockUser, 'POST', '/api/v4/users/7/block', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: true,
    });
    const next = { ...bob, state: 'blocked' as const, updated_at: NOW };
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      { QueryCommand: tokenHashesQuery(7) },
      {
        TransactWriteCommand: {
          TransactItems: [
            guardedPut(next),
            listCount(lists.usersInState('active'), -1, 8),
            listCount(lists.usersInState('blocked'), 1, 8),
            grantRefresh('hash-a', next),
            grantRefresh('hash-b', next),
          ],
        },
      },
    ]);
    expect(userItem(next).l2).toBe(lists.usersInState('blocked').partition);
  });

  it('blocking a blocked user changes nothing → 201 null', async () => {
    givenStoredUser(blockedBob);
    expect(await invoke(blockUser, 'POST', '/api/v4/users/7/block', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: null,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
    ]);
  });

  it('unblocks a blocked user → 201 true', async () => {
    givenStoredUser(blockedBob);
    expect(await invoke(unblockUser, 'POST', '/api/v4/users/7/unblock', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: true,
    });
    const next = { ...bob, state: 'active' as const, updated_at: NOW };
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        guardedPut(next),
        listCount(lists.usersInState('blocked'), -1, 8),
        listCount(lists.usersInState('active'), 1, 8),
        grantRefresh('hash-a', next),
        grantRefresh('hash-b', next),
      ],
    });
  });

  it('a block that keeps conflicting with other transactions past the write deadline → 503 with Retry-After, nothing written', async () => {
    givenStoredUser(bob);
    // Each attempt loses to a concurrent transaction, and takes 60% of the deadline (the clock is faked).
    ddb.on(TransactWriteCommand).callsFake(() => {
      vi.setSystemTime(Date.now() + WRITE_DEADLINE_MS * 0.6);
      throw cancelled('TransactionConflict', 'None', 'None', 'None', 'None');
    });
    expect(await invoke(blockUser, 'POST', '/api/v4/users/7/block', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 503,
      headers: jsonHeaders({ 'Retry-After': '1' }),
      body: { message: '503 Service Unavailable' },
    });
    // Tried again once within the deadline (the pause drawn with the pinned random is 0), then given up.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('unblocking an active user changes nothing → 201 false', async () => {
    givenStoredUser(bob);
    expect(await invoke(unblockUser, 'POST', '/api/v4/users/7/unblock', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: false,
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an unknown id → 404 User Not Found', async () => {
    expect(await invoke(blockUser, 'POST', '/api/v4/users/99/block', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(await invoke(unblockUser, 'POST', '/api/v4/users/99/unblock', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
  });

  it('non-admins → 403', async () => {
    givenStoredUser(bob);
    expect(await invoke(blockUser, 'POST', '/api/v4/users/7/block', { token: USER_TOKEN })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
  });
});
