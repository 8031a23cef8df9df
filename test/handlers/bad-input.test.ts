/** Whatever a client sends, the answer is GitLab-shaped and never a 500. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { lists } from '#store/table/list-keys.ts';
import { handler as createUser } from '../../functions/users/create.ts';
import { handler as getUser } from '../../functions/users/get.ts';
import { handler as listUsers } from '../../functions/users/list.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  givenAdminToken,
  jsonHeaders,
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
} from './fixtures.ts';

beforeEach(() => {
  resetMocks();
  givenAdminToken();
});

describe('bodies', () => {
  it('a body over 6 MB → 413 before any lookup', async () => {
    const response = await invoke(createUser, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bio: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(response).toEqual({
      statusCode: 413,
      headers: jsonHeaders(),
      body: { message: '413 Request Entity Too Large' },
    });
    expect(sentCommands()).toEqual([]);
  });

  it('a JSON array body → 400 error-body', async () => {
    expect(
      await invoke(createUser, 'POST', '/api/v4/users', {
        token: ADMIN_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: '[{"email":"a@b"}]',
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'The request body must be a JSON object' },
    });
  });

  it('a base64-encoded form body is decoded', async () => {
    const response = await invoke(createUser, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('email=a%40example.com&name=A').toString('base64'),
      isBase64Encoded: true,
    });
    expect(response).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'username is missing' },
    });
  });

  it('objects and arrays where strings belong → 400 "is invalid"', async () => {
    expect(
      await invoke(createUser, 'POST', '/api/v4/users', {
        token: ADMIN_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: '{"email":{"$ne":""},"name":["a","b"],"username":"u","password":"password123","__proto__":{"admin":true}}',
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'email is invalid, name is invalid' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });
});

describe('ids and paging', () => {
  it('an id too long to be an integer → 400', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/99999999999999999999')).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'id is invalid' },
    });
  });

  it('a badly encoded path parameter → 400, not 500', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/%E0%A4%A')).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'id is invalid' },
    });
  });

  it('a repeated key where one value belongs: the last one counts, as in Rack', async () => {
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { token: ADMIN_TOKEN, query: 'per_page=5&per_page=x' }),
    ).toEqual({ statusCode: 400, headers: jsonHeaders(), body: { error: 'per_page is invalid' } });
  });

  it('an offset beyond the offset-pagination limit → 405 with GitLab message, no read', async () => {
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'page=501&per_page=100',
    });
    expect(response).toEqual({
      statusCode: 405,
      headers: jsonHeaders(),
      body: {
        message:
          'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of this type. Remaining records can be retrieved using keyset pagination.',
      },
    });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('the last page within the limit is read', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'page=500&per_page=100',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual([]);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
      TableName: TABLE,
      IndexName: 'l1-id',
      KeyConditionExpression: '#list = :partition',
      ExpressionAttributeNames: { '#list': 'l1' },
      ExpressionAttributeValues: { ':partition': lists.users.partition },
      ScanIndexForward: false,
      Limit: 50_000,
      ExclusiveStartKey: undefined,
    });
  });
});
