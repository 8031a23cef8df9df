import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '#domain/passwords.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler } from '../../functions/users/create.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  adminView,
  ddb,
  givenAdminToken,
  jsonHeaders,
  NOW,
  pinCounterShards,
  resetMocks,
  SEP,
  sentCommands,
  TABLE,
  tokenLookup,
  userRecord,
} from './fixtures.ts';
import { listCount } from './resource-fixtures.ts';

const NEW_ITEM = 'attribute_not_exists(pk)';

const counterUpdate = (kind: string) => ({
  TableName: TABLE,
  Key: keys.idCounter(kind),
  UpdateExpression: 'ADD #value :size',
  ExpressionAttributeNames: { '#value': 'value' },
  ExpressionAttributeValues: { ':size': 10 },
  ReturnValues: 'UPDATED_NEW',
});

/**
 * The transaction that creates a user with the given stored fields and personal namespace id
 * (user 41 gets namespace 71: the mocked counters hand out 41..50 and 71..80).
 */
function creationTransaction(
  fields: { id: number; username: string; email: string; name: string } & Record<string, unknown>,
  namespaceId = fields.id + 30,
) {
  const pad = String(fields.id).padStart(12, '0');
  return {
    TransactItems: [
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...keys.user(fields.id),
            state: 'active',
            admin: false,
            can_create_group: true,
            projects_limit: 100000,
            external: false,
            bio: '',
            location: '',
            skype: '',
            linkedin: '',
            twitter: '',
            website_url: '',
            organization: '',
            confirmed_at: null,
            password_hash: expect.stringMatching(/^scrypt\$[^$]+\$[^$]+$/),
            created_at: NOW,
            updated_at: NOW,
            kind: 'user',
            l1: lists.users.partition,
            l2: lists.usersInState('active').partition,
            sid: pad,
            sname: `${fields.name.toLowerCase()}${SEP}${pad}`,
            spath: `${fields.username.toLowerCase()}${SEP}${pad}`,
            screated: `${NOW}${SEP}${pad}`,
            ...fields,
            namespace_id: namespaceId,
          },
          ConditionExpression: NEW_ITEM,
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...keys.userNamespace(namespaceId),
            kind: 'user_namespace',
            user_id: fields.id,
            l1: lists.userNamespaces.partition,
            sid: String(namespaceId).padStart(12, '0'),
          },
          ConditionExpression: NEW_ITEM,
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { ...keys.email(fields.email.toLowerCase()), kind: 'email', user_id: fields.id },
          ConditionExpression: NEW_ITEM,
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...keys.route(fields.username.toLowerCase()),
            kind: 'user',
            id: fields.id,
            full_path: fields.username,
          },
          ConditionExpression: NEW_ITEM,
        },
      },
      listCount(lists.users, 1),
      listCount(lists.usersInState('active'), 1),
      listCount(lists.userNamespaces, 1),
    ],
  };
}

const carol = {
  email: 'Carol@Example.com',
  name: 'Carol Danvers',
  username: 'Carol.D',
  password: 'password123',
};

function cancelled(...codes: string[]) {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  ddb.on(UpdateCommand, { Key: keys.idCounter('user') }).resolves({ Attributes: { value: 50 } });
  ddb.on(UpdateCommand, { Key: keys.idCounter('namespace') }).resolves({ Attributes: { value: 80 } });
  ddb.on(TransactWriteCommand).resolves({});
});

describe('POST /users', () => {
  it('creates the user, its namespace, email and username items and list counts in one transaction → 201', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol });

    // Emails are stored lower-cased, as Devise does.
    const expected = userRecord({
      id: 41,
      email: 'carol@example.com',
      name: 'Carol Danvers',
      username: 'Carol.D',
      location: '',
      created_at: NOW,
      updated_at: NOW,
      confirmed_at: null,
      namespace_id: 71,
    });
    expect(response).toEqual({ statusCode: 201, headers: jsonHeaders(), body: adminView(expected) });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { UpdateCommand: counterUpdate('user') },
      { UpdateCommand: counterUpdate('namespace') },
      {
        TransactWriteCommand: creationTransaction({
          id: 41,
          email: 'carol@example.com',
          name: 'Carol Danvers',
          username: 'Carol.D',
        }),
      },
    ]);
    const item = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item;
    expect(verifyPassword('password123', String(item?.password_hash))).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain('scrypt');
    // Admins see the user's personal namespace, kept on the user item.
    expect(response.body).toHaveProperty('namespace_id', 71);
  });

  it('takes ids from the reserved blocks: two creations, one write per counter', async () => {
    const first = await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol });
    const second = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      json: { email: 'dan@example.com', name: 'Dan', username: 'dan', reset_password: true },
    });
    expect([first.statusCode, (first.body as { id: number }).id]).toEqual([201, 41]);
    expect([second.statusCode, (second.body as { id: number }).id]).toEqual([201, 42]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      counterUpdate('user'),
      counterUpdate('namespace'),
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)[1]?.args[0].input).toEqual(
      creationTransaction({ id: 42, email: 'dan@example.com', name: 'Dan', username: 'dan' }),
    );
  });

  it('reads a form body with python-gitlab style booleans and integers', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      form: {
        email: 'eve@example.com',
        name: 'Eve',
        username: 'eve',
        password: 'password123',
        admin: 'True',
        can_create_group: 'false',
        external: '1',
        skip_confirmation: 'yes',
        projects_limit: '5',
        bio: 'Hello',
      },
    });
    const expected = userRecord({
      id: 41,
      email: 'eve@example.com',
      name: 'Eve',
      username: 'eve',
      admin: true,
      can_create_group: false,
      external: true,
      projects_limit: 5,
      bio: 'Hello',
      location: '',
      created_at: NOW,
      updated_at: NOW,
      confirmed_at: NOW,
      namespace_id: 71,
    });
    expect(response).toEqual({ statusCode: 201, headers: jsonHeaders(), body: adminView(expected) });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual(
      creationTransaction({
        id: 41,
        email: 'eve@example.com',
        name: 'Eve',
        username: 'eve',
        admin: true,
        can_create_group: false,
        external: true,
        projects_limit: 5,
        bio: 'Hello',
        confirmed_at: NOW,
      }),
    );
  });

  it('takes params from the query string too (curl examples do that)', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: { email: 'q@example.com', name: 'Q', username: 'q', force_random_password: 'true' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toEqual(
      adminView(
        userRecord({
          id: 41,
          email: 'q@example.com',
          name: 'Q',
          username: 'q',
          location: '',
          created_at: NOW,
          updated_at: NOW,
          confirmed_at: null,
          namespace_id: 71,
        }),
      ),
    );
  });

  it('lists every missing required param in declaration order → 400 error-body', async () => {
    expect(await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: {} })).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'email is missing, name is missing, username is missing' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('wants a password or a way to make one', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      json: { email: 'x@example.com', name: 'X', username: 'x' },
    });
    expect(response).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: {
        error:
          'password, reset_password, force_random_password are missing, at least one parameter must be provided',
      },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('refuses params of the wrong type → 400 "is invalid"', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      json: { ...carol, admin: 'maybe', projects_limit: 'lots' },
    });
    expect(response).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'admin is invalid, projects_limit is invalid' },
    });
  });

  it('refuses malformed JSON → 400 error-body', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(response).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'The request body is not valid JSON' },
    });
  });

  it('reports model validation errors → 400 message-body, nothing written', async () => {
    const response = await invoke(handler, 'POST', '/api/v4/users', {
      token: ADMIN_TOKEN,
      json: { email: 'not-an-email', name: 'N', username: 'bad name', password: 'short', projects_limit: -1 },
    });
    expect(response).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: {
        message: {
          email: ['is invalid'],
          username: [
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
          ],
          password: ['is too short (minimum is 8 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
        },
      },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('a taken email → 409 "Email has already been taken"', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'None', 'ConditionalCheckFailed', 'None', 'None', 'None'));
    expect(await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol })).toEqual({
      statusCode: 409,
      headers: jsonHeaders(),
      body: { message: 'Email has already been taken' },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('a taken username → 409 "Username has already been taken"', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'None', 'None', 'ConditionalCheckFailed', 'None', 'None'));
    expect(await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol })).toEqual({
      statusCode: 409,
      headers: jsonHeaders(),
      body: { message: 'Username has already been taken' },
    });
  });

  it('both taken → the email is reported, as GitLab does', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'None', 'ConditionalCheckFailed', 'ConditionalCheckFailed', 'None', 'None'));
    expect(await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol })).toEqual({
      statusCode: 409,
      headers: jsonHeaders(),
      body: { message: 'Email has already been taken' },
    });
  });

  it('retries a transaction conflict, then succeeds with the same items', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None', 'None', 'None', 'None', 'None'))
      .resolves({});
    const response = await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol });
    expect([response.statusCode, (response.body as { username: string }).username]).toEqual([201, 'Carol.D']);
    const calls = ddb.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.args[0].input).toEqual(calls[0]?.args[0].input);
    expect(calls[0]?.args[0].input).toEqual(
      creationTransaction({ id: 41, email: 'carol@example.com', name: 'Carol Danvers', username: 'Carol.D' }),
    );
  });

  it('an unexpected store failure → 500 message-body without details', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('socket hang up'));
    expect(await invoke(handler, 'POST', '/api/v4/users', { token: ADMIN_TOKEN, json: carol })).toEqual({
      statusCode: 500,
      headers: jsonHeaders(),
      body: { message: '500 Internal Server Error' },
    });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});
