/**
 * Sudo (an admin's token acting as another user), HEAD on GET routes, and a token revoking
 * itself, as every route sees them through the shared chain.
 */

import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as notFound } from '../../functions/not-found.ts';
import { handler as listTokens } from '../../functions/personal-access-tokens/list.ts';
import { handler as revokeSelf } from '../../functions/personal-access-tokens/revoke-self.ts';
import { handler as createUser } from '../../functions/users/create.ts';
import { handler as currentUser } from '../../functions/users/get-current.ts';
import { type EventOptions, invoke } from '../support/events.ts';
import {
  ADMIN,
  ADMIN_TOKEN,
  adminView,
  ddb,
  emptyHeaders,
  getUserInput,
  givenStoredUser,
  givenToken,
  givenUserToken,
  jsonHeaders,
  REGULAR,
  resetMocks,
  sentCommands,
  sha256,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';
import { givenListCount } from './resource-fixtures.ts';

const alice = userRecord({ id: REGULAR.id, username: 'alice', email: 'alice@example.com', name: 'Alice' });
const root = userRecord({
  id: ADMIN.id,
  username: 'root',
  email: 'root@example.com',
  name: 'Root',
  admin: true,
});
const carol = userRecord({
  id: 9,
  username: 'carol',
  email: 'carol@example.com',
  name: 'Carol',
  state: 'blocked',
});
const { is_admin: _isAdmin, namespace_id: _namespaceId, ...aliceSelf } = adminView(alice);

const SUDO_TOKEN = 'glpat-sudo-00000000000000000';
const SCOPE = 'The request requires higher privileges than provided by the access token.';
const routeLookup = (path: string) => ({
  TableName: TABLE,
  Key: keys.route(path),
  ConsistentRead: true,
});
const insufficientScope = (scope: string) => ({
  statusCode: 403,
  headers: jsonHeaders({
    'WWW-Authenticate': `Bearer realm="", error="insufficient_scope", error_description="${SCOPE}", scope="${scope}"`,
  }),
  body: { error: 'insufficient_scope', error_description: SCOPE, scope },
});

beforeEach(() => {
  resetMocks();
  givenStoredUser(alice);
  givenStoredUser(root);
  givenStoredUser(carol);
  ddb.on(GetCommand, { Key: keys.route('alice') }).resolves({
    Item: { ...keys.route('alice'), kind: 'user', id: alice.id, full_path: 'alice' },
  });
  givenToken(SUDO_TOKEN, { user: ADMIN, scopes: ['api', 'sudo'] });
  givenToken(ADMIN_TOKEN, { user: ADMIN, scopes: ['api'] });
  givenUserToken();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const asSudo = (extra: EventOptions = {}) => ({ token: SUDO_TOKEN, ...extra });

describe('sudo', () => {
  it('by id in the query: the whole request acts as that user, read once the token may impersonate', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: 'sudo=2' }))).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: aliceSelf,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(SUDO_TOKEN) },
      { GetCommand: getUserInput(2) },
      { GetCommand: getUserInput(2) },
    ]);
  });

  it('by username in the Sudo header (route, then user)', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ headers: { sudo: 'alice' } }))).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: aliceSelf,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(SUDO_TOKEN) },
      { GetCommand: routeLookup('alice') },
      { GetCommand: getUserInput(2) },
      { GetCommand: getUserInput(2) },
    ]);
  });

  it('as a body parameter, taken before the header, and never seen by the route’s parameters', async () => {
    const response = await invoke(
      currentUser,
      'GET',
      '/api/v4/user',
      asSudo({ form: { sudo: 'alice' }, headers: { sudo: '1' } }),
    );
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
  });

  it('a non-admin token → 403 Must be admin, nothing read past the credential', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN, query: 'sudo=1' })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden  - Must be admin to use sudo' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(USER_TOKEN) }]);
  });

  it('an admin token without the sudo scope → 403 insufficient_scope sudo', async () => {
    expect(
      await invoke(currentUser, 'GET', '/api/v4/user', { token: ADMIN_TOKEN, headers: { sudo: 'alice' } }),
    ).toEqual(insufficientScope('sudo'));
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('an unknown user → 404 naming the value given', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: 'sudo=404' }))).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: "404 User with ID or username '404' Not Found" },
    });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: 'sudo=nobody' }))).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: "404 User with ID or username 'nobody' Not Found" },
    });
  });

  it('an oversized identifier is an unknown user, without a read', async () => {
    const long = 'x'.repeat(3000);
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: `sudo=${long}` }))).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: `404 User with ID or username '${long}' Not Found` },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(SUDO_TOKEN) }]);
  });

  it('a blocked user cannot be acted as → 403 User is blocked', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: 'sudo=9' }))).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden  - User is blocked' },
    });
  });

  it('without a credential → 401, even on a route open to anonymous callers', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { query: 'sudo=2' })).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(sentCommands()).toEqual([]);
  });

  it('a token with only the sudo scope acts as another user; as itself the route’s scopes apply', async () => {
    givenToken('glpat-only-sudo', { user: ADMIN, scopes: ['sudo'] });
    expect(
      await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-only-sudo', query: 'sudo=alice' }),
    ).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
    expect(
      await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-only-sudo', query: 'sudo=1' }),
    ).toEqual(insufficientScope('api'));
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-only-sudo' })).toEqual(
      insufficientScope('api'),
    );
  });

  it('an admin route judges the impersonated user → 403 Forbidden', async () => {
    expect(
      await invoke(
        createUser,
        'POST',
        '/api/v4/users',
        asSudo({
          query: 'sudo=2',
          json: { email: 'x@example.com', username: 'x', name: 'X', password: 'secret123' },
        }),
      ),
    ).toEqual({ statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } });
  });

  it('the request log names the impersonated user and the admin whose token it was', async () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    await invoke(currentUser, 'GET', '/api/v4/user', asSudo({ query: 'sudo=2' }));
    await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN });
    const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.message === 'request');
    expect(
      requests.map(({ userId, impersonatedBy, status }) => ({ userId, impersonatedBy, status })),
    ).toEqual([
      { userId: 2, impersonatedBy: 1, status: 200 },
      { userId: 2, impersonatedBy: undefined, status: 200 },
    ]);
    expect(lines.join('')).not.toContain(SUDO_TOKEN);
  });
});

describe('HEAD', () => {
  it('on a single item: GET’s status and headers, no body', async () => {
    const response = await invoke(currentUser, 'HEAD', '/api/v4/user', { token: USER_TOKEN });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: undefined });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { GetCommand: getUserInput(2) },
    ]);
  });

  it('on a list: the pagination headers, X-Total included, no body', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    givenListCount(lists.accessTokensOfUser(2), 0);
    const url = 'https://gitlab.example.com/api/v4/personal_access_tokens';
    const response = await invoke(listTokens, 'HEAD', '/api/v4/personal_access_tokens', {
      token: USER_TOKEN,
      query: 'per_page=5',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '0',
        'X-Total-Pages': '1',
        'X-Per-Page': '5',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: `<${url}?page=1&per_page=5>; rel="first", <${url}?page=1&per_page=5>; rel="last"`,
      }),
      body: undefined,
    });
  });

  it('is a read for scopes: a read_api token may HEAD', async () => {
    givenToken('glpat-read-api', { user: REGULAR, scopes: ['read_api'] });
    expect(await invoke(currentUser, 'HEAD', '/api/v4/user', { token: 'glpat-read-api' })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: undefined,
    });
  });

  it('errors keep their status and headers without a body', async () => {
    expect(await invoke(currentUser, 'HEAD', '/api/v4/user')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: undefined,
    });
    expect(await invoke(notFound, 'HEAD', '/api/v4/nothing/here')).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: undefined,
    });
  });
});

describe('DELETE /personal_access_tokens/self', () => {
  const self = { routeKey: 'DELETE /api/v4/personal_access_tokens/self', pathParameters: {} };
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
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('revokes the presented token and its lookup item, without reading the token → 204', async () => {
    expect(
      await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', {
        ...self,
        token: USER_TOKEN,
      }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      {
        TransactWriteCommand: {
          TransactItems: [revoke(keys.accessToken(200)), revoke(keys.accessTokenHash(sha256(USER_TOKEN)))],
        },
      },
    ]);
  });

  it('a token of any scope may revoke itself', async () => {
    givenToken('glpat-read-user', { user: REGULAR, token_id: 31, scopes: ['read_user'] });
    expect(
      await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', {
        ...self,
        token: 'glpat-read-user',
      }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [revoke(keys.accessToken(31)), revoke(keys.accessTokenHash(sha256('glpat-read-user')))],
    });
  });

  it('anonymous → 401; a revoked token → 401 revoked, nothing written', async () => {
    expect(await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', self)).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    givenToken('glpat-revoked', { user: REGULAR, revoked: true });
    const revoked = await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', {
      ...self,
      token: 'glpat-revoked',
    });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.body).toEqual({
      error: 'invalid_token',
      error_description: 'Token was revoked. You have to re-authorize from the user.',
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('under sudo the impersonated user may not revoke the admin’s token → 400, nothing written', async () => {
    expect(
      await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', {
        ...self,
        ...asSudo({ query: 'sudo=2' }),
      }),
    ).toEqual({ statusCode: 400, headers: jsonHeaders(), body: { message: '400 Bad request' } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a token removed meanwhile (its user deleted) → 404', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    expect(
      await invoke(revokeSelf, 'DELETE', '/api/v4/personal_access_tokens/self', {
        ...self,
        token: USER_TOKEN,
      }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 Not Found' } });
  });
});
