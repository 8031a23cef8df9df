import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as activateUser } from '../../functions/users/activate.ts';
import { handler as banUser } from '../../functions/users/ban.ts';
import { handler as blockUser } from '../../functions/users/block.ts';
import { handler as deactivateUser } from '../../functions/users/deactivate.ts';
import { handler as getCurrentUser } from '../../functions/users/get-current.ts';
import { handler as unbanUser } from '../../functions/users/unban.ts';
import { handler as unblockUser } from '../../functions/users/unblock.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN,
  ADMIN_TOKEN,
  ddb,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenToken,
  givenUserToken,
  jsonHeaders,
  NOW,
  pinCounterShards,
  REGULAR,
  resetMocks,
  sentCommands,
  tokenLookup,
  tokensOfUserQuery,
  USER_TOKEN,
  type UserRecord,
  userItem,
  userRecord,
} from './fixtures.ts';
import { grantRefresh, guardedUserPut, listCount } from './resource-fixtures.ts';

const bob = userRecord();

/** The transaction that moves bob from `from` to `to` (one token, hash-a). */
const stateMove = (from: UserRecord, to: UserRecord['state']) => {
  const next = { ...from, state: to, updated_at: NOW };
  return {
    TransactItems: [
      guardedUserPut(next, from.updated_at),
      listCount(lists.usersInState(from.state), -1),
      listCount(lists.usersInState(to), 1),
      grantRefresh('hash-a', next),
    ],
  };
};

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  ddb.on(QueryCommand).resolves({ Items: [{ token_hash: 'hash-a' }] });
  ddb.on(TransactWriteCommand).resolves({});
});

const post = (handler: typeof banUser, action: string, token: string | undefined = ADMIN_TOKEN, id = 7) =>
  invoke(handler, 'POST', `/api/v4/users/${id}/${action}`, token ? { token } : {});

describe('POST /users/:id/ban, /unban, /deactivate, /activate', () => {
  it('bans an active user: state lists and the token copies move in one transaction → 201 true', async () => {
    givenStoredUser(bob);
    expect(await post(banUser, 'ban')).toEqual({ statusCode: 201, headers: jsonHeaders(), body: true });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      { QueryCommand: tokensOfUserQuery(7, 'token_hash') },
      { TransactWriteCommand: stateMove(bob, 'banned') },
    ]);
  });

  it('unbans a banned user → 201 true', async () => {
    const banned = userRecord({ state: 'banned' });
    givenStoredUser(banned);
    expect(await post(unbanUser, 'unban')).toEqual({ statusCode: 201, headers: jsonHeaders(), body: true });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual(stateMove(banned, 'active'));
  });

  it('deactivates an active user and activates it again → 201 true each', async () => {
    givenStoredUser(bob);
    expect(await post(deactivateUser, 'deactivate')).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: true,
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual(stateMove(bob, 'deactivated'));

    const deactivated = userRecord({ state: 'deactivated' });
    givenStoredUser(deactivated);
    expect(await post(activateUser, 'activate')).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: true,
    });
    expect(ddb.commandCalls(TransactWriteCommand)[1]?.args[0].input).toEqual(
      stateMove(deactivated, 'active'),
    );
  });

  it.each([
    ['ban', banUser, 'blocked', 403, { message: 'You cannot ban blocked users.' }],
    ['ban', banUser, 'banned', 403, { message: 'You cannot ban banned users.' }],
    ['unban', unbanUser, 'active', 403, { message: 'You cannot unban active users.' }],
    [
      'deactivate',
      deactivateUser,
      'blocked',
      403,
      { message: '403 Forbidden  - A blocked user cannot be deactivated by the API' },
    ],
    ['deactivate', deactivateUser, 'deactivated', 201, null],
    [
      'activate',
      activateUser,
      'blocked',
      403,
      { message: '403 Forbidden  - A blocked user must be unblocked to be activated' },
    ],
    [
      'activate',
      activateUser,
      'banned',
      403,
      { message: '403 Forbidden  - A blocked user must be unblocked to be activated' },
    ],
    ['activate', activateUser, 'active', 201, false],
    [
      'unblock',
      unblockUser,
      'deactivated',
      403,
      { message: '403 Forbidden  - Deactivated users cannot be unblocked by the API' },
    ],
    ['block', blockUser, 'banned', 201, null],
  ] as const)('%s of a %s user → %i, nothing written', async (action, handler, state, status, body) => {
    givenStoredUser(userRecord({ state }));
    expect(await post(handler, action)).toEqual({ statusCode: status, headers: jsonHeaders(), body });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
    ]);
  });

  it('an admin blocking themself → 403, nothing written', async () => {
    givenStoredUser(userRecord({ id: 1, username: 'root', admin: true }));
    expect(await post(blockUser, 'block', ADMIN_TOKEN, 1)).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden  - The API initiating user cannot be blocked by the API' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a concurrent change of the user: read again and decided on the new state', async () => {
    // First read: active; the save loses to a concurrent ban; second read: banned → 403.
    ddb
      .on(GetCommand, { Key: keys.user(7) })
      .resolvesOnce({ Item: userItem(bob) })
      .resolves({ Item: userItem(userRecord({ state: 'banned', updated_at: NOW })) });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    expect(await post(banUser, 'ban')).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: 'You cannot ban banned users.' },
    });
    expect(ddb.commandCalls(GetCommand, { Key: keys.user(7) })).toHaveLength(2);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it.each([
    ['ban', banUser],
    ['unban', unbanUser],
    ['deactivate', deactivateUser],
    ['activate', activateUser],
  ] as const)('%s: anonymous → 401, a non-admin → 403, an unknown user → 404', async (action, handler) => {
    expect(await post(handler, action, '')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(await post(handler, action, USER_TOKEN)).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
    expect(await post(handler, action, ADMIN_TOKEN, 99)).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('tokens of users who may not use the API', () => {
  it.each([
    ['banned', '403 Forbidden  - User is blocked'],
    [
      'deactivated',
      '403 Forbidden  - Your account has been deactivated by your administrator. Please log back in to reactivate your account.',
    ],
  ] as const)('a %s user → 403', async (state, message) => {
    givenToken(USER_TOKEN, { user: { ...REGULAR, state } });
    expect(await invoke(getCurrentUser, 'GET', '/api/v4/user', { token: USER_TOKEN })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(USER_TOKEN) }]);
  });

  it('an active admin passes', async () => {
    givenStoredUser(userRecord({ id: ADMIN.id, username: ADMIN.username, admin: true }));
    const response = await invoke(getCurrentUser, 'GET', '/api/v4/user', { token: ADMIN_TOKEN });
    expect(response.statusCode).toBe(200);
    expect((response.body as { state: string }).state).toBe('active');
  });
});
