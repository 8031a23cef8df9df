import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createUser } from '../../functions/users/create.ts';
import { handler as deleteIdentity } from '../../functions/users/delete-identity.ts';
import { handler as listUsers } from '../../functions/users/list.ts';
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
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';
import { cancelled, guardedUserPut } from './resource-fixtures.ts';

interface Identity {
  provider: string;
  extern_uid: string;
}

/** The key of an identity item: provider and lower-cased uid, hashed. */
const identityKey = (provider: string, uid: string) => keys.identity(provider, uid);
const identityItem = (userId: number, identity: Identity) => ({
  ...identityKey(identity.provider, identity.extern_uid),
  kind: 'identity',
  user_id: userId,
  ...identity,
});
const claim = (userId: number, identity: Identity) => ({
  Put: {
    TableName: TABLE,
    Item: identityItem(userId, identity),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});
const release = (userId: number, identity: Identity) => ({
  Delete: {
    TableName: TABLE,
    Key: identityKey(identity.provider, identity.extern_uid),
    ConditionExpression: 'attribute_not_exists(pk) OR user_id = :user',
    ExpressionAttributeValues: { ':user': userId },
  },
});
const shown = (identities: Identity[]) =>
  identities.map((identity) => ({ ...identity, saml_provider_id: null }));

const github = { provider: 'github', extern_uid: 'Octo-42' };
const bobWithGithub = { ...userRecord(), identities: [github] };

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  ddb.on(TransactWriteCommand).resolves({});
  // Id blocks for the user and its namespace.
  ddb.on(UpdateCommand).resolves({ Attributes: { value: 50 } });
});

const carol = { email: 'carol@example.com', name: 'Carol', username: 'carol', password: 'password123' };

describe('POST /users with provider and extern_uid', () => {
  it('claims the identity in the creation transaction, after email and username → 201 with identities', async () => {
    const response = await invoke(createUser, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      json: { ...carol, ...github },
    });
    expect(response.statusCode).toBe(201);
    expect((response.body as { identities: unknown }).identities).toEqual(shown([github]));
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    const userId = Number((items[0]?.Put?.Item as { id: number } | undefined)?.id);
    expect(items[0]?.Put?.Item).toMatchObject({ identities: [github] });
    expect(items.map((item) => item.Put?.Item?.pk ?? item.Update?.Key?.pk)).toEqual([
      keys.user(userId).pk,
      expect.stringMatching(/^NAMESPACE#/),
      keys.email('carol@example.com').pk,
      keys.route('carol').pk,
      identityKey('github', 'octo-42').pk,
      listCounter(lists.users).pk,
      listCounter(lists.usersInState('active')).pk,
      expect.stringMatching(/^LISTCOUNT#/),
    ]);
    expect(items[4]).toEqual(claim(userId, github));
  });

  it('one of the two without the other → 400 before anything is read', async () => {
    for (const half of [{ provider: 'github' }, { extern_uid: 'x' }]) {
      expect(
        await invoke(createUser, 'POST', '/api/v4/users', {
          token: ADMIN_TOKEN,
          json: { ...carol, ...half },
        }),
      ).toEqual({
        statusCode: 400,
        headers: jsonHeaders(),
        body: { error: 'extern_uid, provider provide all or none of parameters' },
      });
    }
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an identity another user holds → 400 identities.extern_uid has already been taken', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'None', 'None', 'None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createUser, 'POST', '/api/v4/users', {
        token: ADMIN_TOKEN,
        json: { ...carol, ...github },
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { message: { 'identities.extern_uid': ['has already been taken'] } },
    });
  });

  it('a clash of the email too is reported as the email (GitLab checks it first) → 409', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createUser, 'POST', '/api/v4/users', {
        token: ADMIN_TOKEN,
        json: { ...carol, ...github },
      }),
    ).toEqual({ statusCode: 409, headers: jsonHeaders(), body: { message: 'Email has already been taken' } });
  });
});

describe('PUT /users/:id with provider and extern_uid', () => {
  it('replaces the identity of that provider: claims the new uid, releases the old → 200', async () => {
    givenStoredUser(bobWithGithub);
    const moved = { provider: 'github', extern_uid: 'octo-43' };
    const response = await invoke(updateUser, 'PUT', '/api/v4/users/7', {
      token: ADMIN_TOKEN,
      form: moved,
    });
    const next = { ...bobWithGithub, identities: [moved], updated_at: NOW };
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { ...adminView(next), identities: shown([moved]) },
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      {
        TransactWriteCommand: {
          TransactItems: [
            guardedUserPut(next, bobWithGithub.updated_at),
            claim(7, moved),
            release(7, github),
          ],
        },
      },
    ]);
  });

  it('the same uid spelled in another case keeps the item, rewritten while it is ours', async () => {
    givenStoredUser(bobWithGithub);
    const respelled = { provider: 'github', extern_uid: 'OCTO-42' };
    await invoke(updateUser, 'PUT', '/api/v4/users/7', { token: ADMIN_TOKEN, form: respelled });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(1)).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: identityItem(7, respelled),
          ConditionExpression: 'user_id = :user',
          ExpressionAttributeValues: { ':user': 7 },
        },
      },
    ]);
  });
});

describe('DELETE /users/:id/identities/:provider', () => {
  it('removes the identity and releases its uid → 204', async () => {
    givenStoredUser(bobWithGithub);
    expect(
      await invoke(deleteIdentity, 'DELETE', '/api/v4/users/7/identities/github', { token: ADMIN_TOKEN }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    const next = { ...bobWithGithub, identities: [], updated_at: NOW };
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      {
        TransactWriteCommand: {
          TransactItems: [guardedUserPut(next, bobWithGithub.updated_at), release(7, github)],
        },
      },
    ]);
  });

  it('a provider the user has no identity of → 404 Identity Not Found; an unknown user → 404 User', async () => {
    givenStoredUser(bobWithGithub);
    expect(
      await invoke(deleteIdentity, 'DELETE', '/api/v4/users/7/identities/gitlab', { token: ADMIN_TOKEN }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 Identity Not Found' } });
    expect(
      await invoke(deleteIdentity, 'DELETE', '/api/v4/users/99/identities/github', { token: ADMIN_TOKEN }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 User Not Found' } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('anonymous → 401, a non-admin → 403', async () => {
    expect(await invoke(deleteIdentity, 'DELETE', '/api/v4/users/7/identities/github')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(
      await invoke(deleteIdentity, 'DELETE', '/api/v4/users/7/identities/github', { token: USER_TOKEN }),
    ).toEqual({ statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } });
  });
});

describe('GET /users?provider=&extern_uid=', () => {
  it('finds the user by the identity key, whatever the case of the uid → 200 [user]', async () => {
    givenStoredUser(bobWithGithub);
    ddb.on(GetCommand, { Key: identityKey('github', 'octo-42') }).resolves({ Item: identityItem(7, github) });
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      query: 'provider=github&extern_uid=OCTO-42',
      token: ADMIN_TOKEN,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual([{ ...adminView(bobWithGithub), identities: shown([github]) }]);
    expect(response.headers['X-Total']).toBe('1');
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: { TableName: TABLE, Key: identityKey('github', 'octo-42'), ConsistentRead: true } },
      { GetCommand: getUserInput(7) },
    ]);
  });

  it('an identity nobody holds → 200 []; anonymous → 401; a non-admin → 403; half of it → 400', async () => {
    const none = await invoke(listUsers, 'GET', '/api/v4/users', {
      query: 'provider=github&extern_uid=nobody',
      token: ADMIN_TOKEN,
    });
    expect(none.statusCode).toBe(200);
    expect(none.body).toEqual([]);
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { query: 'provider=github&extern_uid=x' }),
    ).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', {
        query: 'provider=github&extern_uid=x',
        token: USER_TOKEN,
      }),
    ).toEqual({ statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } });
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { query: 'provider=github', token: ADMIN_TOKEN }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'extern_uid, provider provide all or none of parameters' },
    });
  });
});
