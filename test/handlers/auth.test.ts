/** Authentication and authorization as every route sees them (through GET /user and friends). */
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as listTokens } from '../../functions/personal-access-tokens/list.ts';
import { handler as createUser } from '../../functions/users/create.ts';
import { handler as getUser } from '../../functions/users/get.ts';
import { handler as currentUser } from '../../functions/users/get-current.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN,
  ADMIN_TOKEN,
  adminView,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenToken,
  givenUserToken,
  jsonHeaders,
  REGULAR,
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';

const alice = userRecord({
  id: REGULAR.id,
  username: REGULAR.username,
  email: 'alice@example.com',
  name: 'Alice',
});
const root = userRecord({
  id: ADMIN.id,
  username: 'root',
  email: 'admin@example.com',
  name: 'Administrator',
  admin: true,
});
const { is_admin: _isAdmin, namespace_id: _namespaceId, ...aliceSelf } = adminView(alice);

const unauthorizedResponse = {
  statusCode: 401,
  headers: jsonHeaders(),
  body: { message: '401 Unauthorized' },
};
const forbiddenResponse = { statusCode: 403, headers: jsonHeaders(), body: { message: '403 Forbidden' } };

const REVOKED = 'Token was revoked. You have to re-authorize from the user.';
const EXPIRED = 'Token is expired. You can either do re-authorization or token refresh.';
const SCOPE = 'The request requires higher privileges than provided by the access token.';

beforeEach(() => {
  resetMocks();
  givenStoredUser(alice);
  givenStoredUser(root);
});

describe('no credential', () => {
  it('GET /user answers 401 without reading anything', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user')).toEqual(unauthorizedResponse);
    expect(sentCommands()).toEqual([]);
  });

  it('an empty PRIVATE-TOKEN header is no credential', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { headers: { 'private-token': '   ' } })).toEqual(
      unauthorizedResponse,
    );
    expect(sentCommands()).toEqual([]);
  });

  it('an admin route answers 401 to anonymous callers', async () => {
    expect(await invoke(createUser, 'POST', '/api/v4/users', { json: {} })).toEqual(unauthorizedResponse);
    expect(sentCommands()).toEqual([]);
  });
});

describe('an unknown token', () => {
  it('is 401 after one consistent lookup by the SHA-256 of the secret', async () => {
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-nobody' })).toEqual(
      unauthorizedResponse,
    );
    expect(sentCommands()).toEqual([
      {
        GetCommand: {
          TableName: TABLE,
          Key: keys.accessTokenHash('a24470689dc1a8646de85521c871ab1327bd568967d2f5ab693ae262cafabdf2'),
          ConsistentRead: true,
        },
      },
    ]);
  });

  it('is 401 even on a public GET', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/2', { token: 'glpat-nobody' })).toEqual(
      unauthorizedResponse,
    );
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup('glpat-nobody') }]);
  });
});

describe('a known token', () => {
  it('GET /user shows a regular user themself, without is_admin', async () => {
    givenUserToken();
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: aliceSelf,
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { GetCommand: getUserInput(2) },
    ]);
  });

  it('GET /user shows an admin with is_admin', async () => {
    givenAdminToken();
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: adminView(root),
    });
    expect(sentCommands()).toEqual([
      {
        GetCommand: {
          TableName: TABLE,
          Key: keys.accessTokenHash('a3a47a7d6a15baab6122654070c540360dd66fcf5349b06f59778bb21e1bcc6d'),
          ConsistentRead: true,
        },
      },
      { GetCommand: getUserInput(1) },
    ]);
  });

  it('GET /user answers 404 when the token outlived its user', async () => {
    givenToken('glpat-orphan', { user: { ...REGULAR, id: 99 } });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-orphan' })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
  });

  it('is accepted as a private_token query param', async () => {
    givenUserToken();
    const response = await invoke(currentUser, 'GET', '/api/v4/user', {
      query: { private_token: USER_TOKEN },
    });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
    expect(sentCommands()[0]).toEqual({ GetCommand: tokenLookup(USER_TOKEN) });
  });

  it('is accepted as a private_token body param', async () => {
    givenAdminToken();
    const response = await invoke(currentUser, 'GET', '/api/v4/user', {
      form: { private_token: ADMIN_TOKEN },
    });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: adminView(root) });
  });

  it('is accepted as Authorization: Bearer', async () => {
    givenUserToken();
    const response = await invoke(currentUser, 'GET', '/api/v4/user', {
      headers: { authorization: `Bearer ${USER_TOKEN}` },
    });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
    expect(sentCommands()[0]).toEqual({ GetCommand: tokenLookup(USER_TOKEN) });
  });

  it('takes the private_token param before the PRIVATE-TOKEN header', async () => {
    givenUserToken();
    givenAdminToken();
    const response = await invoke(currentUser, 'GET', '/api/v4/user', {
      query: { private_token: USER_TOKEN },
      token: ADMIN_TOKEN,
    });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { GetCommand: getUserInput(2) },
    ]);
  });

  it('reads the header whatever its case', async () => {
    givenUserToken();
    const response = await invoke(currentUser, 'GET', '/api/v4/user', {
      headers: { 'Private-Token': USER_TOKEN },
    });
    expect(response).toEqual({ statusCode: 200, headers: jsonHeaders(), body: aliceSelf });
  });
});

describe('token state', () => {
  it('revoked → 401 invalid_token with WWW-Authenticate', async () => {
    givenToken('glpat-revoked', { user: REGULAR, revoked: true });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-revoked' })).toEqual({
      statusCode: 401,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${REVOKED}"`,
      }),
      body: { error: 'invalid_token', error_description: REVOKED },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup('glpat-revoked') }]);
  });

  it('revoked is 401 even on a public route', async () => {
    givenToken('glpat-revoked', { user: REGULAR, revoked: true });
    expect(await invoke(getUser, 'GET', '/api/v4/users/2', { token: 'glpat-revoked' })).toEqual({
      statusCode: 401,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${REVOKED}"`,
      }),
      body: { error: 'invalid_token', error_description: REVOKED },
    });
  });

  it('expired (from midnight UTC of expires_at) → 401 invalid_token', async () => {
    givenToken('glpat-expired', { user: REGULAR, expires_at: '2026-11-22' });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-expired' })).toEqual({
      statusCode: 401,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${EXPIRED}"`,
      }),
      body: { error: 'invalid_token', error_description: EXPIRED },
    });
  });

  it('expiring tomorrow still works', async () => {
    givenToken('glpat-tomorrow', { user: REGULAR, expires_at: '2026-11-23' });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-tomorrow' })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: aliceSelf,
    });
  });

  it('a blocked owner → 403 User is blocked', async () => {
    givenToken('glpat-blocked', { user: { ...REGULAR, state: 'blocked' } });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-blocked' })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden  - User is blocked' },
    });
  });
});

describe('scopes', () => {
  it('read_user may read users', async () => {
    givenToken('glpat-read-user', { user: REGULAR, scopes: ['read_user'] });
    expect(await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-read-user' })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: aliceSelf,
    });
  });

  it('read_user may not read other resources → 403 insufficient_scope', async () => {
    givenToken('glpat-read-user', { user: REGULAR, scopes: ['read_user'] });
    expect(
      await invoke(listTokens, 'GET', '/api/v4/personal_access_tokens', { token: 'glpat-read-user' }),
    ).toEqual({
      statusCode: 403,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="insufficient_scope", error_description="${SCOPE}", scope="api"`,
      }),
      body: { error: 'insufficient_scope', error_description: SCOPE, scope: 'api' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup('glpat-read-user') }]);
  });

  it('read_api may not write, even as an admin', async () => {
    givenToken('glpat-read-api', { user: ADMIN, scopes: ['read_api'] });
    const response = await invoke(createUser, 'POST', '/api/v4/users', {
      token: 'glpat-read-api',
      json: { email: 'x@example.com', name: 'X', username: 'x', password: 'password123' },
    });
    expect(response).toEqual({
      statusCode: 403,
      headers: jsonHeaders({
        'WWW-Authenticate': `Bearer realm="", error="insufficient_scope", error_description="${SCOPE}", scope="api"`,
      }),
      body: { error: 'insufficient_scope', error_description: SCOPE, scope: 'api' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup('glpat-read-api') }]);
  });
});

describe('admin routes', () => {
  it('answer 403 to a non-admin before validating anything', async () => {
    givenUserToken();
    expect(await invoke(createUser, 'POST', '/api/v4/users', { token: USER_TOKEN, json: {} })).toEqual(
      forbiddenResponse,
    );
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(USER_TOKEN) }]);
  });
});
