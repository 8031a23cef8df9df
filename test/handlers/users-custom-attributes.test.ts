import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as deleteAttribute } from '../../functions/users/custom-attributes/delete.ts';
import { handler as getAttribute } from '../../functions/users/custom-attributes/get.ts';
import { handler as listAttributes } from '../../functions/users/custom-attributes/list.ts';
import { handler as setAttribute } from '../../functions/users/custom-attributes/set.ts';
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
  resetMocks,
  sentCommands,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';
import { guardedUserPut } from './resource-fixtures.ts';

const bob = { ...userRecord(), custom_attributes: { color: 'red', size: 'L' } };

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  ddb.on(TransactWriteCommand).resolves({});
});

const base = '/api/v4/users/7/custom_attributes';

describe('GET /users/:id/custom_attributes[/:key]', () => {
  it('lists every attribute and reads one → 200', async () => {
    givenStoredUser(bob);
    expect(await invoke(listAttributes, 'GET', base, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: [
        { key: 'color', value: 'red' },
        { key: 'size', value: 'L' },
      ],
    });
    expect(await invoke(getAttribute, 'GET', `${base}/size`, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { key: 'size', value: 'L' },
    });
    // The user is read beside the credential (prefetch), in the same tick.
    expect(sentCommands()).toEqual([
      { GetCommand: getUserInput(7) },
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
    ]);
  });

  it('a user who never had any → []; a key not set → 404 Not found; an unknown user → 404 Not Found', async () => {
    givenStoredUser(userRecord());
    expect((await invoke(listAttributes, 'GET', base, { token: ADMIN_TOKEN })).body).toEqual([]);
    expect(await invoke(getAttribute, 'GET', `${base}/color`, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 Not found' },
    });
    expect(
      await invoke(listAttributes, 'GET', '/api/v4/users/99/custom_attributes', { token: ADMIN_TOKEN }),
    ).toEqual({ statusCode: 404, headers: jsonHeaders(), body: { message: '404 Not Found' } });
  });
});

describe('PUT and DELETE /users/:id/custom_attributes/:key', () => {
  it('sets a value on the user item, guarded by its updated_at → 200 {key, value}', async () => {
    givenStoredUser(bob);
    expect(
      await invoke(setAttribute, 'PUT', `${base}/color`, { token: ADMIN_TOKEN, form: { value: 'blue' } }),
    ).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { key: 'color', value: 'blue' } });
    const next = { ...bob, custom_attributes: { size: 'L', color: 'blue' }, updated_at: NOW };
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { GetCommand: getUserInput(7) },
      { TransactWriteCommand: { TransactItems: [guardedUserPut(next, bob.updated_at)] } },
    ]);
  });

  it('deletes a key → 204; a key not set → 404 Not found, nothing written', async () => {
    givenStoredUser(bob);
    expect(await invoke(deleteAttribute, 'DELETE', `${base}/color`, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    const next = { ...bob, custom_attributes: { size: 'L' }, updated_at: NOW };
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [guardedUserPut(next, bob.updated_at)],
    });
    expect(await invoke(deleteAttribute, 'DELETE', `${base}/shape`, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 Not found' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('a value is required → 400', async () => {
    expect(await invoke(setAttribute, 'PUT', `${base}/color`, { token: ADMIN_TOKEN })).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'value is missing' },
    });
  });
});

describe('authorization', () => {
  it.each([
    ['GET', base, listAttributes],
    ['GET', `${base}/color`, getAttribute],
    ['PUT', `${base}/color`, setAttribute],
    ['DELETE', `${base}/color`, deleteAttribute],
  ] as const)('%s %s: anonymous → 401, a non-admin → 403', async (method, path, handler) => {
    givenStoredUser(bob);
    const form = method === 'PUT' ? { value: 'x' } : undefined;
    expect(await invoke(handler, method, path, { form })).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(await invoke(handler, method, path, { token: USER_TOKEN, form })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
