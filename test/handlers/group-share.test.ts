/**
 * Groups shared with groups: POST /groups/:id/share, DELETE /groups/:id/share/:group_id, the access
 * a share gives to the invited group's members, and GET /projects/:id/groups.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as share } from '../../functions/groups/share.ts';
import { handler as unshare } from '../../functions/groups/unshare.ts';
import { handler as getProject } from '../../functions/projects/get.ts';
import { handler as listProjectGroups } from '../../functions/projects/list-groups.ts';
import { invoke } from '../support/events.ts';
import { emptyHeaders, NOW, resetMocks, sentCommands, TABLE, tokenLookup, USER_TOKEN } from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BASE_URL,
  BOB_TOKEN,
  backend,
  batchGet,
  countRead,
  created,
  getCommand,
  givenWorld,
  groupDetailView,
  groupItem,
  groupKey,
  groupMemberItem,
  listCount,
  listQuery,
  memberKey,
  message,
  ok,
  pageHeaders,
  permissions,
  platform,
  projectItem,
  projectKey,
  projectRecord,
  projectView,
  qa,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

/** platform's share with qa as the group item keeps it. */
const qaShare = (level: number, expiresAt: string | null = null) => ({
  group_id: 9,
  group_name: 'QA',
  group_full_path: 'qa',
  group_access_level: level,
  expires_at: expiresAt,
  group_ids: [9],
});
/** The share as GitLab shows it in `shared_with_groups`. */
const qaShareView = (level: number) => ({
  group_id: 9,
  group_name: 'QA',
  group_full_path: 'qa',
  group_access_level: level,
  expires_at: null,
});
/** platform, shared with qa at `level`. */
const givenPlatformSharedWithQa = (level: number) =>
  store({ ...groupItem(platform), shared_with_groups: [qaShare(level)] });

/** The reads of platform's detail: its shared projects, alice's membership lists, its projects and their counters. */
const platformDetailLists = [
  listQuery('l1', 'SHARES#GROUP#3'),
  listQuery('l2', 'MEMBERSHIPS#PROJECT#USER#2', { limit: 1001 }),
  listQuery('l2', 'MEMBERSHIPS#GROUP#USER#2', { limit: 1001 }),
  ...['private', 'internal', 'public'].map((visibility) =>
    listQuery('l2', `PROJECTS#NS#3#${visibility}`, { order: 'name', limit: 100, asc: true }),
  ),
  ...['private', 'internal', 'public'].map((visibility) => countRead(`PROJECTS#NS#3#${visibility}`)),
];

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /groups/:id/share', () => {
  it('an owner shares the group: the link, the appended share and the count in one transaction → 201 with the group', async () => {
    expect(
      await invoke(share, 'POST', '/api/v4/groups/3/share', {
        token: USER_TOKEN,
        json: { group_id: 9, group_access: 30 },
      }),
    ).toEqual(created({ ...groupDetailView(platform), shared_with_groups: [qaShareView(30)] }));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      // The invited group, as the caller may see it.
      getCommand(groupKey(9)),
      batchGet(memberKey('GROUP', 9, 2)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: {
              pk: 'GROUP#3',
              sk: 'SHARE#9',
              kind: 'group_share',
              shared_group_id: 3,
              shared_with_group_id: 9,
              group_access: 30,
              expires_at: null,
              created_at: NOW,
              l1: 'GROUPSHARES#GROUP#9',
              sid: '000000000003',
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: groupKey(3),
            UpdateExpression:
              'SET shared_with_groups = list_append(if_not_exists(shared_with_groups, :none), :share), updated_at = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
            ExpressionAttributeValues: { ':none': [], ':share': [qaShare(30)], ':now': NOW },
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: groupKey(9),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        listCount('GROUPSHARES#GROUP#9', 1),
      ),
      // The detail's projects and, beside them, shared_with_groups as alice sees it: the invited
      // group now, and her memberships of it.
      ...platformDetailLists.slice(1, 3),
      platformDetailLists[0],
      batchGet(groupKey(9), memberKey('GROUP', 9, 2)),
      ...platformDetailLists.slice(3),
    ]);
  });

  it('a developer of the group → 404 Not Found (the service refuses), nothing written', async () => {
    store(groupMemberItem(platform, { userId: 7, level: 30 }));
    expect(
      await invoke(share, 'POST', '/api/v4/groups/3/share', {
        token: BOB_TOKEN,
        json: { group_id: 9, group_access: 30 },
      }),
    ).toEqual(message(404, 'Not Found'));
    expect(writesSent()).toEqual([]);
  });

  it('a group shared already → 409 with GitLab’s validation message, nothing written', async () => {
    givenPlatformSharedWithQa(20);
    expect(
      await invoke(share, 'POST', '/api/v4/groups/3/share', {
        token: USER_TOKEN,
        json: { group_id: 9, group_access: 30 },
      }),
    ).toEqual(message(409, 'Shared group The group has already been shared with this group'));
    expect(writesSent()).toEqual([]);
  });

  it('a group the caller cannot see → 404 Group Not Found, nothing written', async () => {
    expect(
      await invoke(share, 'POST', '/api/v4/groups/3/share', {
        token: USER_TOKEN,
        json: { group_id: 99, group_access: 30 },
      }),
    ).toEqual(message(404, '404 Group Not Found'));
    expect(writesSent()).toEqual([]);
  });

  it('a level that is no member level → 400, nothing written', async () => {
    expect(
      await invoke(share, 'POST', '/api/v4/groups/3/share', {
        token: USER_TOKEN,
        json: { group_id: 9, group_access: 35 },
      }),
    ).toEqual(ok({ error: 'group_access does not have a valid value' }, 400));
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id/share/:group_id', () => {
  it('an owner ends the share: the link, the rewritten shares (guarded by updated_at) and the count → 204', async () => {
    givenPlatformSharedWithQa(30);
    expect(await invoke(unshare, 'DELETE', '/api/v4/groups/3/share/9', { token: USER_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      // The group's own share invites qa: alice's membership of it is read in the same batch.
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 9, 2)),
      getCommand(groupKey(3)),
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: { pk: 'GROUP#3', sk: 'SHARE#9' },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: groupKey(3),
            UpdateExpression: 'SET shared_with_groups = :next, updated_at = :now',
            ConditionExpression: 'updated_at = :previous',
            ExpressionAttributeValues: { ':next': [], ':now': NOW, ':previous': platform.updated_at },
          },
        },
        listCount('GROUPSHARES#GROUP#9', -1),
      ),
    ]);
  });

  it('no such share → 404 Group Link Not Found, nothing written', async () => {
    expect(await invoke(unshare, 'DELETE', '/api/v4/groups/3/share/9', { token: USER_TOKEN })).toEqual(
      message(404, '404 Group Link Not Found'),
    );
    expect(writesSent()).toEqual([]);
  });

  it('a developer of the group → 204 as GitLab answers, and the share stays', async () => {
    givenPlatformSharedWithQa(30);
    store(groupMemberItem(platform, { userId: 7, level: 30 }));
    expect(await invoke(unshare, 'DELETE', '/api/v4/groups/3/share/9', { token: BOB_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(writesSent()).toEqual([]);
  });
});

describe('access through a group share', () => {
  it('a maintainer of qa reaches api (in platform/backend) at the share’s reporter level', async () => {
    givenPlatformSharedWithQa(20);
    store(groupMemberItem(qa, { userId: 7, level: 40 }));
    expect(await invoke(getProject, 'GET', '/api/v4/projects/42', { token: BOB_TOKEN })).toEqual(
      ok(projectView(api, { extra: { permissions: permissions(0, 20) } })),
    );
    expect(sentCommands()).toEqual([
      batchGet(tokenLookup(BOB_TOKEN).Key, projectKey(42)),
      batchGet(...apiMemberKeys(7)),
      // Platform keeps a share: bob's membership of the invited group, not guessed on a cold container.
      batchGet(memberKey('GROUP', 9, 7)),
    ]);
  });

  it('an expired share gives nothing: 404 Project Not Found', async () => {
    store(
      { ...groupItem(platform), shared_with_groups: [qaShare(20, '2020-01-01')] },
      groupMemberItem(qa, { userId: 7, level: 40 }),
    );
    expect(await invoke(getProject, 'GET', '/api/v4/projects/42', { token: BOB_TOKEN })).toEqual(
      message(404, '404 Project Not Found'),
    );
  });
});

describe('GET /projects/:id/groups', () => {
  /** api, shared with qa at developer level. */
  const sharedApi = projectRecord({
    id: 42,
    name: 'API',
    path: 'api',
    namespace: { ...api.namespace },
    description: 'The backend API',
    shared_with_groups: [{ ...qaShare(30) }],
  });
  const basicGroup = (group: typeof platform) => ({
    id: group.id,
    web_url: `${BASE_URL}/groups/${group.full_path}`,
    name: group.name,
    avatar_url: null,
    full_name: group.full_name,
    full_path: group.full_path,
  });

  it('lists the namespace’s group and its ancestors, newest first, in one batch', async () => {
    expect(
      await invoke(listProjectGroups, 'GET', '/api/v4/projects/42/groups', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/42/groups', 2),
      body: [basicGroup(backend), basicGroup(platform)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(projectKey(42)),
      batchGet(...apiMemberKeys(2)),
      batchGet(groupKey(3), groupKey(5)),
    ]);
  });

  it('with_shared adds the groups it is shared with at shared_min_access_level or above', async () => {
    store(projectItem(sharedApi));
    const asked = async (query: string) =>
      (await invoke(listProjectGroups, 'GET', '/api/v4/projects/42/groups', { token: USER_TOKEN, query }))
        .body;
    expect(await asked('with_shared=true')).toEqual([
      basicGroup(qa),
      basicGroup(backend),
      basicGroup(platform),
    ]);
    expect(await asked('with_shared=true&shared_min_access_level=40')).toEqual([
      basicGroup(backend),
      basicGroup(platform),
    ]);
    expect(await asked('with_shared=true&skip_groups[]=5&search=qa')).toEqual([basicGroup(qa)]);
  });

  it('a private project to a non-member → 404 Project Not Found', async () => {
    expect(
      await invoke(listProjectGroups, 'GET', '/api/v4/projects/42/groups', { token: BOB_TOKEN }),
    ).toEqual(message(404, '404 Project Not Found'));
  });
});
