/** Members of groups: add, read, list, change and remove. */
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as addMember } from '../../functions/groups/members/add.ts';
import { handler as getMember } from '../../functions/groups/members/get.ts';
import { handler as listMembers } from '../../functions/groups/members/list.ts';
import { handler as removeMember } from '../../functions/groups/members/remove.ts';
import { handler as updateMember } from '../../functions/groups/members/update.ts';
import { invoke } from '../support/events.ts';
import {
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
  BOB_TOKEN,
  backend,
  batchGet,
  bobUser,
  created,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupKey,
  groupMemberItem,
  listCount,
  listQuery,
  memberKey,
  memberView,
  NOT_FOUND,
  ok,
  pageHeaders,
  platform,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

/** Alice is owner of platform, so of backend (5) too: the reads every request to backend makes. */
const aliceOnBackend = [
  tokenRead(USER_TOKEN),
  getCommand(groupKey(5)),
  // The memberships of backend's lineage, and platform's item for its shares with other groups.
  batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
];
/** The member copies backend's ancestors: backend must still be where it was read, not moving. */
const backendAsRead = {
  ConditionCheck: {
    TableName: TABLE,
    Key: keys.group(5),
    ConditionExpression:
      'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path',
    ExpressionAttributeValues: { ':path': 'platform/backend' },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
};
const bobInBackend = (level: number) => groupMemberItem(backend, { userId: 7, level });

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /groups/:id/members', () => {
  it('adds the member, checks the user still exists and counts both lists → 201', async () => {
    expect(
      await invoke(addMember, 'POST', '/api/v4/groups/5/members', {
        token: USER_TOKEN,
        json: { user_id: 7, access_level: 30, expires_at: '2027-01-31' },
      }),
    ).toEqual(created(memberView(bobUser, 30, '2027-01-31', NOW)));
    expect(sentCommands()).toEqual([
      ...aliceOnBackend,
      getCommand(keys.user(7)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: groupMemberItem(backend, {
              userId: 7,
              level: 30,
              expiresAt: '2027-01-31',
              createdBy: 2,
              createdAt: NOW,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.user(7),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        listCount(lists.groupMembers(5), 1),
        listCount(lists.groupMembershipsOfUser(7), 1),
        backendAsRead,
      ),
    ]);
  });

  it('a developer of the group → 403, nothing written', async () => {
    store(bobInBackend(30));
    expect(
      await invoke(addMember, 'POST', '/api/v4/groups/5/members', {
        token: BOB_TOKEN,
        json: { user_id: 2, access_level: 30 },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });

  it('an unknown user → 404 User Not Found, nothing written', async () => {
    expect(
      await invoke(addMember, 'POST', '/api/v4/groups/5/members', {
        token: USER_TOKEN,
        json: { user_id: 99, access_level: 30 },
      }),
    ).toEqual(ok({ message: '404 User Not Found' }, 404));
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /groups/:id/members/:user_id', () => {
  it('shows the member with their user', async () => {
    store(bobInBackend(30));
    expect(await invoke(getMember, 'GET', '/api/v4/groups/5/members/7', { token: USER_TOKEN })).toEqual(
      ok(memberView(bobUser, 30)),
    );
    expect(sentCommands()).toEqual([
      ...aliceOnBackend,
      getCommand(memberKey('GROUP', 5, 7)),
      getCommand(keys.user(7)),
    ]);
  });

  it('a user who is no member → 404 Not found', async () => {
    expect(await invoke(getMember, 'GET', '/api/v4/groups/5/members/7', { token: USER_TOKEN })).toEqual(
      NOT_FOUND,
    );
  });
});

describe('GET /groups/:id/members', () => {
  it('lists the direct members with their users', async () => {
    store(groupMemberItem(platform, { userId: 7, level: 20 }));
    expect(await invoke(listMembers, 'GET', '/api/v4/groups/3/members', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/3/members', 2),
      body: [memberView(aliceUser, 50), memberView(bobUser, 20)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      listQuery(lists.groupMembers(3)),
      batchGet(keys.user(2), keys.user(7)),
    ]);
  });

  it('a private group to a non-member → 404 Group Not Found', async () => {
    expect(await invoke(listMembers, 'GET', '/api/v4/groups/3/members', { token: BOB_TOKEN })).toEqual(
      ok({ message: '404 Group Not Found' }, 404),
    );
  });
});

describe('PUT /groups/:id/members/:user_id', () => {
  it('rewrites the member with the new level, keeping its expiry → 200', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30, expiresAt: '2027-01-31' }));
    expect(
      await invoke(updateMember, 'PUT', '/api/v4/groups/5/members/7', {
        token: USER_TOKEN,
        json: { access_level: 40 },
      }),
    ).toEqual(ok(memberView(bobUser, 40, '2027-01-31')));
    expect(sentCommands()).toEqual([
      ...aliceOnBackend,
      getCommand(memberKey('GROUP', 5, 7)),
      listQuery(lists.groupMembers(5)),
      getCommand(keys.user(7)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: groupMemberItem(backend, { userId: 7, level: 40, expiresAt: '2027-01-31' }),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        backendAsRead,
      ),
    ]);
  });

  it('demoting the last owner → 403, nothing written', async () => {
    expect(
      await invoke(updateMember, 'PUT', '/api/v4/groups/3/members/2', {
        token: USER_TOKEN,
        json: { access_level: 40 },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id/members/:user_id', () => {
  it('removes the member and moves both counters → 204', async () => {
    store(bobInBackend(30));
    expect(await invoke(removeMember, 'DELETE', '/api/v4/groups/5/members/7', { token: USER_TOKEN })).toEqual(
      {
        statusCode: 204,
        headers: emptyHeaders(),
        body: undefined,
      },
    );
    expect(sentCommands()).toEqual([
      ...aliceOnBackend,
      getCommand(memberKey('GROUP', 5, 7)),
      listQuery(lists.groupMembers(5)),
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: memberKey('GROUP', 5, 7),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        listCount(lists.groupMembers(5), -1),
        listCount(lists.groupMembershipsOfUser(7), -1),
      ),
    ]);
  });

  it('the last owner leaving → 403, nothing written', async () => {
    expect(await invoke(removeMember, 'DELETE', '/api/v4/groups/3/members/2', { token: USER_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });

  it('a developer removing someone else → 403', async () => {
    store(bobInBackend(30));
    expect(await invoke(removeMember, 'DELETE', '/api/v4/groups/5/members/2', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});
