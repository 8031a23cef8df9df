/**
 * Groups shared with groups: POST /groups/:id/share, DELETE /groups/:id/share/:group_id, the access
 * a share gives to the invited group's members, and GET /projects/:id/groups.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as share } from '../../functions/groups/share.ts';
import { handler as unshare } from '../../functions/groups/unshare.ts';
import { handler as getProject } from '../../functions/projects/get.ts';
import { handler as listProjects } from '../../functions/projects/list.ts';
import { handler as listProjectGroups } from '../../functions/projects/list-groups.ts';
import { invoke } from '../support/events.ts';
import {
  emptyHeaders,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
} from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BASE_URL,
  BOB_TOKEN,
  backend,
  batchGet,
  countItems,
  countRead,
  created,
  dotfiles,
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
  projectPageCounters,
  projectRead,
  projectRecord,
  projectRollupItem,
  projectShardKeys,
  projectView,
  qa,
  store,
  tokenRead,
  transaction,
  treeQuery,
  writesSent,
} from './resource-fixtures.ts';

/** Both groups of a new share must be live, not moving, and where they were read. */
const PLACED_AS_READ =
  'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path';

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
/** Bob's membership lists (project and group memberships), each read to at most 1000. */
const bobsMembershipLists = [
  listQuery(lists.projectMembershipsOfUser(7), { limit: 1001 }),
  listQuery(lists.groupMembershipsOfUser(7), { limit: 1001 }),
];
/** platform, shared with qa at `level`. */
const givenPlatformSharedWithQa = (level: number) =>
  store({ ...groupItem(platform), shared_with_groups: [qaShare(level)] });

/** The reads of platform's detail: its shared projects, alice's membership lists, its projects and their counters. */
const platformDetailLists = [
  listQuery(lists.sharedWithGroup(3)),
  listQuery(lists.projectMembershipsOfUser(2), { limit: 1001 }),
  listQuery(lists.groupMembershipsOfUser(2), { limit: 1001 }),
  ...['private', 'internal', 'public'].map((visibility) =>
    listQuery(lists.namespaceProjects(3, visibility), { order: 'name', limit: 100, asc: true }),
  ),
  ...['private', 'internal', 'public'].map((visibility) => countRead(lists.namespaceProjects(3, visibility))),
];

pinCounterShards();

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
      // The invited group is read beside the shared one; judged once the caller may see that one.
      getCommand(groupKey(9)),
      batchGet(memberKey('GROUP', 3, 2)),
      batchGet(memberKey('GROUP', 9, 2)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...keys.groupShare(3, 9),
              kind: 'group_share',
              shared_group_id: 3,
              shared_with_group_id: 9,
              shared_group_ids: [3],
              group_access: 30,
              expires_at: null,
              created_at: NOW,
              l1: lists.groupsSharedWithGroup(9).partition,
              sid: '000000000003',
              // Under qa's path in its root's share partition, beside the projects shared with it.
              tree: tree.shares(9),
              tpath: '000000000009/G000000000003',
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
            ConditionExpression: PLACED_AS_READ,
            ExpressionAttributeValues: {
              ':none': [],
              ':share': [qaShare(30)],
              ':now': NOW,
              ':path': 'platform',
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: groupKey(9),
            ConditionExpression: PLACED_AS_READ,
            ExpressionAttributeValues: { ':path': 'qa' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        listCount(lists.groupsSharedWithGroup(9), 1),
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
            Key: keys.groupShare(3, 9),
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
        listCount(lists.groupsSharedWithGroup(9), -1),
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
      batchGet(tokenLookup(BOB_TOKEN).Key, projectKey(42), ...projectShardKeys(42)),
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
      ...projectRead(42),
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

describe('GET /projects reaches the projects of groups shared with the caller’s groups', () => {
  /** platform's share with qa as its link keeps it (in qa's share partition). */
  const qaLink = (level: number) => ({
    ...keys.groupShare(3, 9),
    kind: 'group_share',
    shared_group_id: 3,
    shared_with_group_id: 9,
    shared_group_ids: [3],
    group_access: level,
    expires_at: null,
    created_at: NOW,
    l1: lists.groupsSharedWithGroup(9).partition,
    sid: '000000000003',
    tree: tree.shares(9),
    tpath: '000000000009/G000000000003',
  });
  /** The projects' counters as their rollups hold them: what a page shows (no shards stored). */
  const countedApi = { ...api, star_count: 2, forks_count: 1 };
  const countedDotfiles = { ...dotfiles, star_count: 5 };
  const apiForBob = projectView(countedApi, {
    extra: { permissions: permissions(0, 20), open_issues_count: 3 },
  });
  const dotfilesForBob = projectView(countedDotfiles, {
    admin: true,
    extra: { permissions: permissions(50, 0) },
  });

  beforeEach(() => {
    givenPlatformSharedWithQa(20);
    store(
      qaLink(20),
      groupMemberItem(qa, { userId: 7, level: 40 }),
      ...countItems(lists.projectsWithVisibility('public'), 1),
      projectRollupItem(countedApi, 3),
      projectRollupItem(countedDotfiles),
    );
  });

  it('membership=true: api (under platform) at the share’s reporter level, beside bob’s own project', async () => {
    // A cold container: no read-ahead guess for bob's credential.
    vi.resetModules();
    const coldList = (await import('../../functions/projects/list.ts')).handler;
    expect(
      await invoke(coldList, 'GET', '/api/v4/projects', { token: BOB_TOKEN, query: { membership: true } }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects', 2, { query: 'membership=true' }),
      body: [dotfilesForBob, apiForBob],
    });
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      // 2: bob's membership lists, for `permissions` and (read whole) for what he reaches.
      ...bobsMembershipLists,
      listQuery(lists.projectMembershipsOfUser(7)),
      listQuery(lists.groupMembershipsOfUser(7)),
      // 3: his group's subtree (its projects, and the shares with it: platform's among them), his
      // direct project; for `permissions`, the shares with his group.
      ...['private', 'internal', 'public'].map((visibility) =>
        treeQuery(tree.projects(visibility)(9), `${pad(9)}/`),
      ),
      treeQuery(tree.shares(9), `${pad(9)}/`),
      batchGet(projectKey(43), ...projectShardKeys(43)),
      treeQuery(tree.shares(9), `${pad(9)}/`),
      // 4: the subtree of the group shared with his: platform's projects (beside the projects shared
      // with his group, none here).
      ...['private', 'internal', 'public'].map((visibility) =>
        treeQuery(tree.projects(visibility)(3), `${pad(3)}/`),
      ),
      // 5: the page's counters (one rollup per project).
      projectPageCounters(43, 42),
    ]);
  });

  it('the default list: private api merged in with its permissions', async () => {
    vi.resetModules();
    const coldList = (await import('../../functions/projects/list.ts')).handler;
    expect(await invoke(coldList, 'GET', '/api/v4/projects', { token: BOB_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects', 2),
      body: [dotfilesForBob, apiForBob],
    });
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      // 2: bob's membership lists beside the lists everyone sees.
      ...bobsMembershipLists,
      listQuery(lists.projectsWithVisibility('public'), { order: 'created_at', limit: 20, asc: false }),
      listQuery(lists.projectsWithVisibility('internal'), { order: 'created_at', limit: 20, asc: false }),
      countRead(lists.projectsWithVisibility('public')),
      countRead(lists.projectsWithVisibility('internal')),
      // 3: his group's subtree (groups, hidden projects, shares), his direct project, its own list.
      treeQuery(tree.groups(9), `${pad(9)}/`),
      treeQuery(tree.projects('private')(9), `${pad(9)}/`, 101),
      treeQuery(tree.shares(9), `${pad(9)}/`),
      batchGet(projectKey(43), ...projectShardKeys(43)),
      listQuery(lists.namespaceProjects(9, 'private'), { order: 'created_at', limit: 20, asc: false }),
      countRead(lists.namespaceProjects(9, 'private')),
      // 4: the hidden projects of the group shared with his.
      treeQuery(tree.projects('private')(3), `${pad(3)}/`),
      // 5: the page's counters (one rollup per project).
      projectPageCounters(43, 42),
    ]);
  });

  it('min_access_level=30 leaves api out (the share caps bob at reporter)', async () => {
    expect(
      await invoke(listProjects, 'GET', '/api/v4/projects', {
        token: BOB_TOKEN,
        query: { min_access_level: 30 },
      }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects', 1, { query: 'min_access_level=30' }),
      body: [dotfilesForBob],
    });
  });

  it('an expired share reaches nothing', async () => {
    store({ ...qaLink(20), expires_at: '2020-01-01' });
    expect(
      await invoke(listProjects, 'GET', '/api/v4/projects', {
        token: BOB_TOKEN,
        query: { membership: true },
      }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects', 1, { query: 'membership=true' }),
      body: [dotfilesForBob],
    });
  });
});
