/** Members of projects: add, read, list, change and remove. */
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as addMember } from '../../functions/projects/members/add.ts';
import { handler as getMember } from '../../functions/projects/members/get.ts';
import { handler as listMembers } from '../../functions/projects/members/list.ts';
import { handler as removeMember } from '../../functions/projects/members/remove.ts';
import { handler as updateMember } from '../../functions/projects/members/update.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  emptyHeaders,
  NOW,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  aliceUser,
  api,
  apiMemberKeys,
  BOB_TOKEN,
  backend,
  batchGet,
  bobUser,
  created,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupNamespace,
  listCount,
  listQuery,
  memberKey,
  memberView,
  message,
  NOT_FOUND,
  ok,
  PROJECT_NOT_FOUND,
  pageHeaders,
  projectItem,
  projectMemberItem,
  projectRead,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

/** Alice is owner of api through platform: the reads every request to api makes. */
const aliceOnApi = [tokenRead(USER_TOKEN), ...projectRead(42), batchGet(...apiMemberKeys(2))];
const userKey = (id: number) => keys.user(id);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /projects/:id/members', () => {
  it('adds the member, checks the user still exists and counts both lists → 201', async () => {
    expect(
      await invoke(addMember, 'POST', '/api/v4/projects/42/members', {
        token: USER_TOKEN,
        json: { user_id: 7, access_level: 30 },
      }),
    ).toEqual(created(memberView(bobUser, 30, null, NOW)));
    expect(sentCommands()).toEqual([
      ...aliceOnApi,
      getCommand(userKey(7)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: projectMemberItem(42, { userId: 7, level: 30, createdBy: 2, createdAt: NOW }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: { TableName: TABLE, Key: userKey(7), ConditionExpression: 'attribute_exists(pk)' },
        },
        listCount(lists.projectMembers(42), 1),
        listCount(lists.projectMembershipsOfUser(7), 1),
      ),
    ]);
  });

  it("a group's membership lock → 403 with the reason, nothing written", async () => {
    store(projectItem({ ...api, namespace: groupNamespace(backend, { membership: true }) }));
    expect(
      await invoke(addMember, 'POST', '/api/v4/projects/42/members', {
        token: USER_TOKEN,
        json: { user_id: 7, access_level: 30 },
      }),
    ).toEqual(message(403, '403 Forbidden  - Membership is locked by group settings'));
    expect(writesSent()).toEqual([]);
  });

  it('a project the caller cannot see → 404 Project Not Found', async () => {
    expect(
      await invoke(addMember, 'POST', '/api/v4/projects/42/members', {
        token: BOB_TOKEN,
        json: { user_id: 7, access_level: 30 },
      }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /projects/:id/members/:user_id', () => {
  it('shows the member with their user', async () => {
    expect(await invoke(getMember, 'GET', '/api/v4/projects/43/members/7', { token: USER_TOKEN })).toEqual(
      ok(memberView(bobUser, 50)),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 2)),
      getCommand(memberKey('PROJECT', 43, 7)),
      getCommand(userKey(7)),
    ]);
  });

  it('a user who is no member → 404 Not found', async () => {
    expect(await invoke(getMember, 'GET', '/api/v4/projects/43/members/2', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });
});

describe('GET /projects/:id/members', () => {
  it('lists the direct members with their users', async () => {
    store(projectMemberItem(43, { userId: 2, level: 20 }));
    expect(await invoke(listMembers, 'GET', '/api/v4/projects/43/members', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/43/members', 2),
      body: [memberView(aliceUser, 20), memberView(bobUser, 50)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 2)),
      listQuery(lists.projectMembers(43)),
      batchGet(userKey(2), userKey(7)),
    ]);
  });
});

describe('PUT /projects/:id/members/:user_id', () => {
  it('rewrites the member with the new level → 200', async () => {
    store(projectMemberItem(42, { userId: 7, level: 30 }));
    expect(
      await invoke(updateMember, 'PUT', '/api/v4/projects/42/members/7', {
        token: USER_TOKEN,
        json: { access_level: 40, expires_at: '2027-03-01' },
      }),
    ).toEqual(ok(memberView(bobUser, 40, '2027-03-01')));
    expect(sentCommands()).toEqual([
      ...aliceOnApi,
      getCommand(memberKey('PROJECT', 42, 7)),
      getCommand(userKey(7)),
      transaction({
        Put: {
          TableName: TABLE,
          Item: projectMemberItem(42, { userId: 7, level: 40, expiresAt: '2027-03-01' }),
          ConditionExpression: 'attribute_exists(pk)',
        },
      }),
    ]);
  });

  it('a maintainer granting owner → 403, nothing written', async () => {
    store(projectMemberItem(42, { userId: 7, level: 40 }), projectMemberItem(42, { userId: 2, level: 30 }));
    expect(
      await invoke(updateMember, 'PUT', '/api/v4/projects/42/members/2', {
        token: BOB_TOKEN,
        json: { access_level: 50 },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /projects/:id/members/:user_id', () => {
  it('removes the member and moves both counters → 204', async () => {
    store(projectMemberItem(42, { userId: 7, level: 30 }));
    expect(
      await invoke(removeMember, 'DELETE', '/api/v4/projects/42/members/7', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      ...aliceOnApi,
      getCommand(memberKey('PROJECT', 42, 7)),
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: memberKey('PROJECT', 42, 7),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        listCount(lists.projectMembers(42), -1),
        listCount(lists.projectMembershipsOfUser(7), -1),
      ),
    ]);
  });

  it('the owner of a personal project stays → 403, nothing written', async () => {
    expect(
      await invoke(removeMember, 'DELETE', '/api/v4/projects/43/members/7', { token: ADMIN_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});
