import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { handler as createToken } from '../../functions/personal-access-tokens/create.ts';
import { handler as listTokens } from '../../functions/personal-access-tokens/list.ts';
import { handler as revokeToken } from '../../functions/personal-access-tokens/revoke.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  emptyHeaders,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenUserToken,
  jsonHeaders,
  NOW,
  pinCounterShards,
  REGULAR,
  resetMocks,
  SEP,
  sentCommands,
  sha256,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';
import { cancelled, countRead, givenListCount, listCount } from './resource-fixtures.ts';

const bob = userRecord();

/** A token item as stored. */
function tokenItem(token: {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
  hash: string;
}) {
  const pad = String(token.id).padStart(12, '0');
  return {
    ...keys.accessToken(token.id),
    id: token.id,
    user_id: token.user_id,
    name: token.name,
    scopes: token.scopes,
    expires_at: token.expires_at,
    revoked: token.revoked,
    created_at: '2026-10-01T00:00:00.000Z',
    last_used_at: null,
    token_hash: token.hash,
    kind: 'personal_access_token',
    l1: lists.accessTokens.partition,
    l2: lists.accessTokensOfUser(token.user_id).partition,
    sid: pad,
    screated: `2026-10-01T00:00:00.000Z${SEP}${pad}`,
  };
}

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  ddb.on(TransactWriteCommand).resolves({});
});

describe('POST /users/:user_id/personal_access_tokens', () => {
  beforeEach(() => {
    ddb
      .on(UpdateCommand, { Key: keys.idCounter('personal_access_token') })
      .resolves({ Attributes: { value: 30 } });
  });

  it('stores the token, its hash lookup with the owner snapshot and counts in one transaction → 201', async () => {
    givenStoredUser(bob);
    const response = await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
      token: ADMIN_TOKEN,
      json: { name: 'ci', scopes: ['api', 'read_user', 'api'], expires_at: '2027-01-31' },
    });
    const secret = (response.body as { token: string }).token;
    expect(secret).toMatch(/^glpat-[A-Za-z0-9_-]{20}\.7$/);
    expect(response).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: {
        id: 21,
        name: 'ci',
        revoked: false,
        created_at: NOW,
        scopes: ['api', 'read_user'],
        user_id: 7,
        last_used_at: null,
        active: true,
        expires_at: '2027-01-31',
        token: secret,
      },
    });
    const hash = sha256(secret);
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.idCounter('personal_access_token'),
          UpdateExpression: 'ADD #value :size',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':size': 10 },
          ReturnValues: 'UPDATED_NEW',
        },
      },
      {
        TransactWriteCommand: {
          TransactItems: [
            {
              ConditionCheck: {
                TableName: TABLE,
                Key: keys.user(7),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            {
              Put: {
                TableName: TABLE,
                Item: {
                  ...keys.accessToken(21),
                  id: 21,
                  user_id: 7,
                  name: 'ci',
                  scopes: ['api', 'read_user'],
                  expires_at: '2027-01-31',
                  revoked: false,
                  created_at: NOW,
                  last_used_at: null,
                  token_hash: hash,
                  kind: 'personal_access_token',
                  l1: lists.accessTokens.partition,
                  l2: lists.accessTokensOfUser(7).partition,
                  sid: '000000000021',
                  screated: `${NOW}${SEP}000000000021`,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: TABLE,
                Item: {
                  ...keys.accessTokenHash(hash),
                  kind: 'token_grant',
                  token_id: 21,
                  scopes: ['api', 'read_user'],
                  expires_at: '2027-01-31',
                  revoked: false,
                  user: {
                    id: 7,
                    username: 'bob',
                    admin: false,
                    state: 'active',
                    can_create_group: true,
                    external: false,
                  },
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            listCount(lists.accessTokens, 1),
            listCount(lists.accessTokensOfUser(7), 1),
          ],
        },
      },
    ]);
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(secret);
  });

  it('takes scopes from a form as a single value or a[]=x pairs', async () => {
    givenStoredUser(bob);
    const single = await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
      token: ADMIN_TOKEN,
      form: { name: 'one', scopes: 'read_api' },
    });
    expect([single.statusCode, (single.body as { scopes: string[] }).scopes]).toEqual([201, ['read_api']]);
    const many = await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: { name: 'two', scopes: ['read_user', 'read_repository'] },
    });
    expect([many.statusCode, (many.body as { scopes: string[]; id: number }).scopes]).toEqual([
      201,
      ['read_user', 'read_repository'],
    ]);
    expect((many.body as { id: number; expires_at: unknown }).expires_at).toBeNull();
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('missing params → 400 in declaration order', async () => {
    expect(
      await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
        token: ADMIN_TOKEN,
        json: {},
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'name is missing, scopes is missing' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('unknown scopes and bad dates → 400', async () => {
    expect(
      await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
        token: ADMIN_TOKEN,
        json: { name: 'x', scopes: ['api', 'everything'], expires_at: '2027-02-30' },
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'scopes does not have a valid value, expires_at is invalid' },
    });
  });

  it('an unknown user → 404 User Not Found, nothing written', async () => {
    expect(
      await invoke(createToken, 'POST', '/api/v4/users/99/personal_access_tokens', {
        token: ADMIN_TOKEN,
        json: { name: 'x', scopes: ['api'] },
      }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 User Not Found' } });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(99) },
    ]);
  });

  it('a user deleted meanwhile → 404 User Not Found', async () => {
    givenStoredUser(bob);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None'));
    expect(
      await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
        token: ADMIN_TOKEN,
        json: { name: 'x', scopes: ['api'] },
      }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 User Not Found' } });
  });

  it('non-admins → 403', async () => {
    givenStoredUser(bob);
    expect(
      await invoke(createToken, 'POST', '/api/v4/users/7/personal_access_tokens', {
        token: USER_TOKEN,
        json: { name: 'x', scopes: ['api'] },
      }),
    ).toEqual({ statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } });
  });
});

describe('GET /personal_access_tokens', () => {
  const live = tokenItem({
    id: 3,
    user_id: 2,
    name: 'Laptop',
    scopes: ['api'],
    expires_at: null,
    revoked: false,
    hash: 'h3',
  });
  const old = tokenItem({
    id: 4,
    user_id: 2,
    name: 'old ci',
    scopes: ['read_api'],
    expires_at: '2026-11-22',
    revoked: false,
    hash: 'h4',
  });
  const gone = tokenItem({
    id: 5,
    user_id: 2,
    name: 'gone',
    scopes: ['api'],
    expires_at: null,
    revoked: true,
    hash: 'h5',
  });
  const entity = (item: ReturnType<typeof tokenItem>, active: boolean) => ({
    id: item.id,
    name: item.name,
    revoked: item.revoked,
    created_at: item.created_at,
    scopes: item.scopes,
    user_id: item.user_id,
    last_used_at: null,
    active,
    expires_at: item.expires_at,
  });
  const query = (list: ListName, limit: number) => ({
    TableName: TABLE,
    IndexName: `${list.attribute}-id`,
    KeyConditionExpression: '#list = :partition',
    ExpressionAttributeNames: { '#list': list.attribute },
    ExpressionAttributeValues: { ':partition': list.partition },
    ScanIndexForward: true,
    Limit: limit,
    ExclusiveStartKey: undefined,
  });
  const TOKENS_URL = 'https://gitlab.example.com/api/v4/personal_access_tokens';

  beforeEach(() => {
    ddb.on(QueryCommand).resolves({ Items: [live, old, gone] });
    givenListCount(lists.accessTokensOfUser(2), 3);
    givenListCount(lists.accessTokens, 40);
  });

  it("lists the caller's own tokens, oldest first, never their hashes", async () => {
    const response = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', { token: USER_TOKEN });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '3',
        'X-Total-Pages': '1',
        'X-Per-Page': '20',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: `<${TOKENS_URL}?page=1&per_page=20>; rel="first", <${TOKENS_URL}?page=1&per_page=20>; rel="last"`,
      }),
      body: [entity(live, true), entity(old, false), entity(gone, false)],
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { QueryCommand: query(lists.accessTokensOfUser(REGULAR.id), 20) },
      countRead(lists.accessTokensOfUser(2)),
    ]);
    expect(JSON.stringify(response.body)).not.toContain('h3');
  });

  it('a user asking for their own user_id is fine; anyone else → 403', async () => {
    const own = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: USER_TOKEN,
      query: 'user_id=2',
    });
    expect(own.statusCode).toBe(200);
    expect(own.body).toEqual([entity(live, true), entity(old, false), entity(gone, false)]);
    expect(
      await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
        token: USER_TOKEN,
        query: 'user_id=7',
      }),
    ).toEqual({ statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } });
  });

  it("admins see everyone's tokens, or one user's", async () => {
    const all = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'per_page=3',
    });
    expect(all.statusCode).toBe(200);
    expect(all.headers['X-Total']).toBe('40');
    expect(all.headers['X-Total-Pages']).toBe('14');
    expect(all.headers['X-Next-Page']).toBe('2');
    expect(sentCommands().slice(1)).toEqual([
      { QueryCommand: query(lists.accessTokens, 3) },
      countRead(lists.accessTokens),
    ]);

    ddb.resetHistory();
    const one = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: ADMIN_TOKEN,
      query: 'user_id=2',
    });
    expect(one.statusCode).toBe(200);
    expect(sentCommands().slice(1)).toEqual([
      { QueryCommand: query(lists.accessTokensOfUser(2), 20) },
      countRead(lists.accessTokensOfUser(2)),
    ]);
  });

  it('filters by state, revoked and search while reading, counting matches', async () => {
    const active = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: USER_TOKEN,
      query: 'state=inactive&revoked=false',
    });
    expect(active.statusCode).toBe(200);
    expect(active.body).toEqual([entity(old, false)]);
    expect(active.headers['X-Total']).toBe('1');
    expect(sentCommands().slice(1)).toEqual([{ QueryCommand: query(lists.accessTokensOfUser(2), 1000) }]);

    const search = await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
      token: USER_TOKEN,
      query: 'search=LAP',
    });
    expect(search.body).toEqual([entity(live, true)]);
  });

  it('a bad state → 400', async () => {
    expect(
      await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', {
        token: USER_TOKEN,
        query: 'state=expired',
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'state does not have a valid value' },
    });
  });

  it('anonymous → 401', async () => {
    expect(await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
  });
});

describe('DELETE /personal_access_tokens/:id', () => {
  const mine = tokenItem({
    id: 3,
    user_id: 2,
    name: 'Laptop',
    scopes: ['api'],
    expires_at: null,
    revoked: false,
    hash: 'h3',
  });
  const bobs = tokenItem({
    id: 8,
    user_id: 7,
    name: 'Bob',
    scopes: ['api'],
    expires_at: null,
    revoked: false,
    hash: 'h8',
  });
  const revoked = tokenItem({
    id: 9,
    user_id: 2,
    name: 'Old',
    scopes: ['api'],
    expires_at: null,
    revoked: true,
    hash: 'h9',
  });
  const revoke = (Key: { pk: string; sk: string }) => ({
    Update: {
      TableName: TABLE,
      Key,
      UpdateExpression: 'SET revoked = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    },
  });

  beforeEach(() => {
    for (const item of [mine, bobs, revoked]) {
      ddb.on(GetCommand, { Key: keys.accessToken(item.id) }).resolves({ Item: item });
    }
  });

  it('the owner revokes the token and its lookup item together → 204', async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/3', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { GetCommand: { TableName: TABLE, Key: keys.accessToken(3), ConsistentRead: true } },
      {
        TransactWriteCommand: {
          TransactItems: [revoke(keys.accessToken(3)), revoke(keys.accessTokenHash('h3'))],
        },
      },
    ]);
  });

  it("an admin revokes anyone's token → 204", async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/8', { token: ADMIN_TOKEN }),
    ).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [revoke(keys.accessToken(8)), revoke(keys.accessTokenHash('h8'))],
    });
  });

  it("someone else's token → 400 Bad request, nothing written", async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/8', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { message: '400 Bad request' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an already revoked token → 204 without writing', async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/9', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an unknown token → 404 Not found (record lookup miss)', async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/404', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 Not found' },
    });
  });

  it('a token deleted meanwhile → 404', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/3', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 Not Found' },
    });
  });

  it('a bad id → 400', async () => {
    expect(
      await invoke(revokeToken, 'DELETE', '/api/v4/personal_access_tokens/abc', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'id is invalid' },
    });
  });
});
