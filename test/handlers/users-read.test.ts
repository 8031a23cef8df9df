import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { handler as getUser } from '../../functions/users/get.ts';
import { handler as listUsers } from '../../functions/users/list.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  adminView,
  ddb,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenUserToken,
  jsonHeaders,
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  type UserRecord,
  userItem,
  userRecord,
} from './fixtures.ts';
import { countRead, givenListCount } from './resource-fixtures.ts';

const bob = userRecord();
const carol = userRecord({ id: 8, username: 'carol', email: 'carol@example.com', name: 'Carol' });
const dave = userRecord({
  id: 9,
  username: 'dave',
  email: 'dave@example.com',
  name: 'Dave',
  state: 'blocked',
});

const basicView = (user: UserRecord) => ({
  id: user.id,
  name: user.name,
  username: user.username,
  state: user.state,
  avatar_url: `https://gitlab.example.com/assets/no_avatar.png`,
  web_url: `https://gitlab.example.com/${user.username}`,
});

const entityView = (user: UserRecord) => ({
  ...basicView(user),
  created_at: user.created_at,
  bio: user.bio,
  location: user.location,
  pronouns: null,
  public_email: '',
  skype: user.skype,
  linkedin: user.linkedin,
  twitter: user.twitter,
  website_url: user.website_url,
  organization: user.organization,
});

const USERS_URL = 'https://gitlab.example.com/api/v4/users';
const link = (query: string, rel: string) => `<${USERS_URL}?${query}>; rel="${rel}"`;

/** The Query of one list page read in id order, newest first. */
const listQuery = (list: ListName, limit: number) => ({
  TableName: TABLE,
  IndexName: `${list.attribute}-id`,
  KeyConditionExpression: '#list = :partition',
  ExpressionAttributeNames: { '#list': list.attribute },
  ExpressionAttributeValues: { ':partition': list.partition },
  ScanIndexForward: false,
  Limit: limit,
  ExclusiveStartKey: undefined,
});

function givenList(list: ListName, users: UserRecord[], count: number) {
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':partition': list.partition } })
    .resolves({ Items: users.map(userItem) });
  givenListCount(list, count);
}

beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  givenStoredUser(bob);
});

describe('GET /users/:id', () => {
  it('shows anonymous callers the public entity', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/7')).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: entityView(bob),
    });
    expect(sentCommands()).toEqual([{ GetCommand: getUserInput(7) }]);
  });

  it('shows other users the public entity', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/7', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: entityView(bob),
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(USER_TOKEN) },
      { GetCommand: getUserInput(7) },
    ]);
  });

  it('shows admins everything', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/7', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: adminView(bob),
    });
  });

  it('answers 404 User Not Found for an unknown id', async () => {
    expect(await invoke(getUser, 'GET', '/api/v4/users/12345')).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: getUserInput(12345) }]);
  });

  it.each([['abc'], ['0'], ['-1'], ['1.5']])('answers 400 "id is invalid" for id %j', async (id) => {
    expect(await invoke(getUser, 'GET', `/api/v4/users/${id}`)).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'id is invalid' },
    });
    expect(sentCommands()).toEqual([]);
  });
});

describe('GET /users', () => {
  it('refuses anonymous callers without a username → 403', async () => {
    expect(await invoke(listUsers, 'GET', '/api/v4/users')).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden  - Not authorized to access /api/v4/users' },
    });
    expect(sentCommands()).toEqual([]);
  });

  it('lets anonymous callers look a username up (case-insensitively)', async () => {
    ddb.on(GetCommand, { Key: keys.route('bob') }).resolves({
      Item: { ...keys.route('bob'), kind: 'user', id: 7, full_path: 'bob' },
    });
    expect(await invoke(listUsers, 'GET', '/api/v4/users', { query: 'username=BOB' })).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '1',
        'X-Total-Pages': '1',
        'X-Per-Page': '20',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: [
          link('page=1&per_page=20&username=BOB', 'first'),
          link('page=1&per_page=20&username=BOB', 'last'),
        ].join(', '),
      }),
      body: [basicView(bob)],
    });
    expect(sentCommands()).toEqual([
      { GetCommand: { TableName: TABLE, Key: keys.route('bob'), ConsistentRead: true } },
      { GetCommand: getUserInput(7) },
    ]);
  });

  it('answers [] for an unknown username', async () => {
    const response = await invoke(listUsers, 'GET', '/api/v4/users', { query: 'username=nobody' });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '0',
        'X-Total-Pages': '1',
        'X-Per-Page': '20',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: [
          link('page=1&per_page=20&username=nobody', 'first'),
          link('page=1&per_page=20&username=nobody', 'last'),
        ].join(', '),
      }),
      body: [],
    });
  });

  it('pages through users newest first with the full set of headers', async () => {
    givenList(lists.users, [dave, carol, bob], 3);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      query: 'per_page=2&private_token=glpat-admin-0000000000000000&active=false',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '3',
        'X-Total-Pages': '2',
        'X-Per-Page': '2',
        'X-Page': '1',
        'X-Next-Page': '2',
        'X-Prev-Page': '',
        Link: [
          link('active=false&page=2&per_page=2', 'next'),
          link('active=false&page=1&per_page=2', 'first'),
          link('active=false&page=2&per_page=2', 'last'),
        ].join(', '),
      }),
      body: [adminView(dave), adminView(carol)],
    });
    expect(sentCommands()).toEqual([
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
      { QueryCommand: listQuery(lists.users, 2) },
      countRead(lists.users),
    ]);
  });

  it('the last page has prev and no next', async () => {
    givenList(lists.users, [dave, carol, bob], 3);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'page=2&per_page=2',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '3',
        'X-Total-Pages': '2',
        'X-Per-Page': '2',
        'X-Page': '2',
        'X-Next-Page': '',
        'X-Prev-Page': '1',
        Link: [
          link('page=1&per_page=2', 'prev'),
          link('page=1&per_page=2', 'first'),
          link('page=2&per_page=2', 'last'),
        ].join(', '),
      }),
      body: [adminView(bob)],
    });
    expect(sentCommands().slice(1)).toEqual([
      { QueryCommand: listQuery(lists.users, 4) },
      countRead(lists.users),
    ]);
  });

  it('past the last page: [] with neither prev nor next', async () => {
    givenList(lists.users, [dave, carol, bob], 3);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'page=5&per_page=2',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '3',
        'X-Total-Pages': '2',
        'X-Per-Page': '2',
        'X-Page': '5',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: [link('page=1&per_page=2', 'first'), link('page=2&per_page=2', 'last')].join(', '),
      }),
      body: [],
    });
  });

  it('caps per_page at 100', async () => {
    givenList(lists.users, [dave, carol, bob], 3);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'per_page=500',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toEqual(
      jsonHeaders({
        'X-Total': '3',
        'X-Total-Pages': '1',
        'X-Per-Page': '100',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: [link('page=1&per_page=100', 'first'), link('page=1&per_page=100', 'last')].join(', '),
      }),
    );
    expect(response.body).toEqual([adminView(dave), adminView(carol), adminView(bob)]);
    expect(sentCommands()[1]).toEqual({ QueryCommand: listQuery(lists.users, 100) });
  });

  it('refuses per_page=0 → 400', async () => {
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { token: ADMIN_TOKEN, query: 'per_page=0' }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'per_page does not have a valid value' },
    });
    expect(sentCommands()).toEqual([{ GetCommand: tokenLookup(ADMIN_TOKEN) }]);
  });

  it('refuses non-numeric page params → 400', async () => {
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', {
        token: ADMIN_TOKEN,
        query: 'page=first&per_page=ten',
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'page is invalid, per_page is invalid' },
    });
  });

  it('shows regular users the basic entity', async () => {
    givenList(lists.users, [carol, bob], 2);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', { token: USER_TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual([basicView(carol), basicView(bob)]);
    expect(response.headers['X-Total']).toBe('2');
  });

  it('blocked=true reads the blocked list', async () => {
    givenList(lists.usersInState('blocked'), [dave], 1);
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'blocked=true',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual([adminView(dave)]);
    expect(sentCommands().slice(1)).toEqual([
      { QueryCommand: listQuery(lists.usersInState('blocked'), 20) },
      countRead(lists.usersInState('blocked')),
    ]);
  });

  it('search filters while reading and counts the matches', async () => {
    ddb.on(QueryCommand).resolves({ Items: [dave, carol, bob].map(userItem) });
    const response = await invoke(listUsers, 'GET', '/api/v4/users', {
      token: ADMIN_TOKEN,
      query: 'search=CAR',
    });
    expect(response).toEqual({
      statusCode: 200,
      headers: jsonHeaders({
        'X-Total': '1',
        'X-Total-Pages': '1',
        'X-Per-Page': '20',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: [
          link('page=1&per_page=20&search=CAR', 'first'),
          link('page=1&per_page=20&search=CAR', 'last'),
        ].join(', '),
      }),
      body: [adminView(carol)],
    });
    expect(sentCommands().slice(1)).toEqual([{ QueryCommand: listQuery(lists.users, 1000) }]);
  });

  it('external is for admins only → 403', async () => {
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { token: USER_TOKEN, query: 'external=true' }),
    ).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
  });

  it('refuses a bad boolean → 400', async () => {
    expect(
      await invoke(listUsers, 'GET', '/api/v4/users', { token: ADMIN_TOKEN, query: 'active=sometimes' }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'active is invalid' },
    });
  });
});
