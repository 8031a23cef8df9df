/** Groups: create, read, list, update, delete, their subgroups and projects, and project transfer. */

import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { NEVER_SYNCED } from '#domain/ldap-sync.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as createGroup } from '../../functions/groups/create.ts';
import { handler as deleteGroup } from '../../functions/groups/delete.ts';
import { handler as getGroup } from '../../functions/groups/get.ts';
import { handler as listGroups } from '../../functions/groups/list.ts';
import { handler as listGroupProjects } from '../../functions/groups/list-projects.ts';
import { handler as listSubgroups } from '../../functions/groups/list-subgroups.ts';
import { handler as transferProject } from '../../functions/groups/transfer-project.ts';
import { handler as updateGroup } from '../../functions/groups/update.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  GROUP_DELETE_QUEUE_URL,
  NOW,
  pad,
  pinCounterShards,
  REQUEST_CORRELATION,
  resetMocks,
  SEARCH_QUEUE_URL,
  sentCommands,
  sqs,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  api,
  BOB_TOKEN,
  backend,
  batchGet,
  counterReservation,
  countItems,
  countRead,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenWorld,
  groupDetailView,
  groupItem,
  groupKey,
  groupLdapQuery,
  groupMemberItem,
  groupNamespace,
  groupRecord,
  groupView,
  listCount,
  listQuery,
  memberKey,
  membershipLists,
  message,
  ok,
  pageHeaders,
  permissions,
  platform,
  projectItem,
  projectPageCounters,
  projectRead,
  projectRollupItem,
  projectView,
  projectWrite,
  qa,
  routeItem,
  store,
  tokenRead,
  transaction,
  treeQuery,
  writesSent,
} from './resource-fixtures.ts';

const NEW_ITEM = 'attribute_not_exists(pk)';
/** The group's search pending marker, put in the transaction that creates or renames it. */
const groupSearchPending = (groupId: number) => ({
  Put: {
    TableName: TABLE,
    Item: {
      ...keys.groupSearchPending(groupId),
      kind: 'group_search_pending',
      group_id: groupId,
      version: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      l1: lists.groupSearchPending.partition,
      sid: pad(groupId),
    },
  },
});
const sentMessages = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
const GROUP_NOT_FOUND = message(404, '404 Group Not Found');
/**
 * A namespace's project lists read to the end of a page, in one order, their totals, and the
 * counters of the page's projects (their rollups).
 */
const namespaceLists = (namespaceId: number, order: string, limit: number, asc: boolean, page: number[]) => [
  ...['private', 'internal', 'public'].map((visibility) =>
    listQuery(lists.namespaceProjects(namespaceId, visibility), { order, limit, asc }),
  ),
  ...['private', 'internal', 'public'].map((visibility) =>
    countRead(lists.namespaceProjects(namespaceId, visibility)),
  ),
  // The counters of the projects on the page (one rollup each), read once it is cut.
  projectPageCounters(...page),
];
/** api's counters as its rollup holds them: what a page of projects shows (no shards stored). */
const countedApi = { ...api, star_count: 2, forks_count: 1 };
const apiRollup = projectRollupItem(countedApi, 3);
/** api as alice sees it on a page: owner through platform, its counters from its rollup. */
const apiForAlice = projectView(countedApi, {
  admin: true,
  extra: { permissions: permissions(0, 50), open_issues_count: 3 },
});

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /groups', () => {
  beforeEach(() => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  });

  it('creates a top-level group with its route, its creator as owner and the counters → 201', async () => {
    givenCounter('namespace', 20);
    const mobile = groupRecord({
      id: 11,
      name: 'Mobile',
      path: 'mobile',
      full_path: 'mobile',
      full_name: 'Mobile',
      description: '',
      created_at: NOW,
      updated_at: NOW,
    });
    expect(
      await invoke(createGroup, 'POST', '/api/v4/groups', {
        token: USER_TOKEN,
        json: { name: 'Mobile', path: 'mobile' },
      }),
    ).toEqual(created(groupDetailView(mobile)));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      counterReservation('namespace'),
      transaction(
        { Put: { TableName: TABLE, Item: groupItem(mobile), ConditionExpression: NEW_ITEM } },
        { Put: { TableName: TABLE, Item: routeItem('mobile', 'group', 11), ConditionExpression: NEW_ITEM } },
        {
          Put: {
            TableName: TABLE,
            Item: groupMemberItem(mobile, { userId: 2, level: 50, createdBy: 2, createdAt: NOW }),
          },
        },
        listCount(lists.groupsWithVisibility('private'), 1),
        listCount(lists.groupChildren(null), 1),
        listCount(lists.groupMembers(11), 1),
        listCount(lists.groupMembershipsOfUser(2), 1),
        groupSearchPending(11),
      ),
    ]);
    expect(sentMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"groupId":11}', ...REQUEST_CORRELATION },
    ]);
  });

  it('creates a subgroup under a group the caller owns, checking the parent’s path and name', async () => {
    givenCounter('namespace', 20);
    const mobile = groupRecord({
      id: 11,
      name: 'Mobile',
      path: 'mobile',
      full_path: 'platform/mobile',
      full_name: 'Platform / Mobile',
      description: 'Apps',
      visibility: 'private',
      parent_id: 3,
      ancestor_ids: [3],
      created_at: NOW,
      updated_at: NOW,
    });
    expect(
      await invoke(createGroup, 'POST', '/api/v4/groups', {
        token: USER_TOKEN,
        json: { name: 'Mobile', path: 'mobile', parent_id: 3, description: 'Apps' },
      }),
    ).toEqual(created(groupDetailView(mobile)));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      counterReservation('namespace'),
      transaction(
        { Put: { TableName: TABLE, Item: groupItem(mobile), ConditionExpression: NEW_ITEM } },
        {
          Put: {
            TableName: TABLE,
            Item: routeItem('platform/mobile', 'group', 11),
            ConditionExpression: NEW_ITEM,
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: groupMemberItem(mobile, { userId: 2, level: 50, createdBy: 2, createdAt: NOW }),
          },
        },
        listCount(lists.groupsWithVisibility('private'), 1),
        listCount(lists.groupChildren(3), 1),
        listCount(lists.groupMembers(11), 1),
        listCount(lists.groupMembershipsOfUser(2), 1),
        groupSearchPending(11),
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: groupKey(3),
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name',
            ExpressionAttributeValues: { ':path': 'platform', ':name': 'Platform' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ),
    ]);
    expect(sentMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"groupId":11}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a parent the caller cannot see → 404 Group Not Found, nothing written', async () => {
    expect(
      await invoke(createGroup, 'POST', '/api/v4/groups', {
        token: BOB_TOKEN,
        json: { name: 'Mobile', path: 'mobile', parent_id: 3 },
      }),
    ).toEqual(GROUP_NOT_FOUND);
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 7)),
    ]);
  });
});

describe('GET /groups/:id', () => {
  it('shows the group with the projects the caller sees and their permissions', async () => {
    store(...countItems(lists.namespaceProjects(5, 'private'), 1), apiRollup);
    expect(await invoke(getGroup, 'GET', '/api/v4/groups/5', { token: USER_TOKEN })).toEqual(
      // Alice owns it: she sees how it was LDAP-synced (never).
      ok({ ...groupDetailView(backend, [apiForAlice], []), ...NEVER_SYNCED }),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      listQuery(lists.sharedWithGroup(5)),
      ...membershipLists(2),
      // Its LDAP group links and sync state, beside the access check (no links: the entity shows
      // no `ldap_group_links`).
      groupLdapQuery(5),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      // Once the group is read, beside the access check: its projects as members see them (every
      // visibility's list), used as she turns out to be one.
      ...namespaceLists(5, 'name', 100, true, [42]),
    ]);
  });

  it('a private group to a non-member → 404 Group Not Found', async () => {
    expect(await invoke(getGroup, 'GET', '/api/v4/groups/platform', { token: BOB_TOKEN })).toEqual(
      GROUP_NOT_FOUND,
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /groups', () => {
  it("lists the caller's groups with their descendants, by name", async () => {
    expect(await invoke(listGroups, 'GET', '/api/v4/groups', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups', 2),
      body: [groupView(backend), groupView(platform)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      listQuery(lists.groupMembershipsOfUser(2)),
      treeQuery(tree.groups(3), '000000000003/'),
    ]);
  });

  it('admins read every visibility list to the end of the page, totals from the counters', async () => {
    store(
      ...countItems(lists.groupsWithVisibility('private'), 2),
      ...countItems(lists.groupsWithVisibility('internal'), 1),
    );
    expect(await invoke(listGroups, 'GET', '/api/v4/groups', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups', 3),
      body: [groupView(backend), groupView(platform), groupView(qa)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(ADMIN_TOKEN),
      ...['public', 'internal', 'private'].map((visibility) =>
        listQuery(lists.groupsWithVisibility(visibility), { order: 'name', limit: 20 }),
      ),
      ...['public', 'internal', 'private'].map((visibility) =>
        countRead(lists.groupsWithVisibility(visibility)),
      ),
    ]);
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists the direct subgroups the caller can see', async () => {
    expect(await invoke(listSubgroups, 'GET', '/api/v4/groups/3/subgroups', { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/3/subgroups', 1),
      body: [groupView(backend)],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(3)),
      batchGet(memberKey('GROUP', 3, 2)),
      listQuery(lists.groupChildren(3)),
    ]);
  });

  it('a group the caller cannot see → 404 Group Not Found', async () => {
    expect(await invoke(listSubgroups, 'GET', '/api/v4/groups/3/subgroups', { token: BOB_TOKEN })).toEqual(
      GROUP_NOT_FOUND,
    );
  });
});

describe('GET /groups/:id/projects', () => {
  it("lists the group's projects newest first, with permissions", async () => {
    store(...countItems(lists.namespaceProjects(5, 'private'), 1), apiRollup);
    expect(
      await invoke(listGroupProjects, 'GET', '/api/v4/groups/5/projects', { token: USER_TOKEN }),
    ).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/groups/5/projects', 1),
      body: [apiForAlice],
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      ...membershipLists(2),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      // Once the group is read, beside the access check: the page as members see it (every
      // visibility's list), used as she turns out to be one.
      ...namespaceLists(5, 'created_at', 20, false, [42]),
    ]);
  });
});

describe('PUT /groups/:id', () => {
  it('saves the change guarded by the group’s and its parent’s state, then shows the group', async () => {
    store(...countItems(lists.namespaceProjects(5, 'private'), 1), apiRollup);
    const changed = { ...backend, description: 'Services', updated_at: NOW };
    expect(
      await invoke(updateGroup, 'PUT', '/api/v4/groups/5', {
        token: USER_TOKEN,
        json: { description: 'Services' },
      }),
    ).toEqual(ok(groupDetailView(changed, [apiForAlice], [])));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      getCommand(groupKey(3)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: groupItem(changed),
            ConditionExpression:
              'updated_at = :previous AND full_path = :path AND full_name = :name AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND (attribute_not_exists(moves_below) OR moves_below = :zero)',
            ExpressionAttributeValues: {
              ':previous': backend.updated_at,
              ':path': 'platform/backend',
              ':name': 'Platform / Backend',
              ':zero': 0,
            },
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: groupKey(3),
            ConditionExpression: 'full_path = :path AND full_name = :name',
            ExpressionAttributeValues: { ':path': 'platform', ':name': 'Platform' },
          },
        },
      ),
      ...membershipLists(2),
      listQuery(lists.sharedWithGroup(5)),
      ...namespaceLists(5, 'name', 100, true, [42]),
    ]);
    // The description is not searched: no pending marker, no message to the index.
    expect(sentMessages()).toEqual([]);
  });

  it('a new name puts the search pending marker in the same transaction and queues the index', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const renamed = { ...qa, name: 'Quality', full_name: 'Quality', updated_at: NOW };
    expect(
      await invoke(updateGroup, 'PUT', '/api/v4/groups/9', { token: ADMIN_TOKEN, json: { name: 'Quality' } }),
    ).toEqual(ok(groupDetailView(renamed, [], [])));
    // The reads are those of any save (above); the one write is the group beside its marker.
    expect(writesSent()).toEqual([
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: groupItem(renamed),
            ConditionExpression:
              'updated_at = :previous AND full_path = :path AND full_name = :name AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND (attribute_not_exists(moves_below) OR moves_below = :zero)',
            ExpressionAttributeValues: {
              ':previous': qa.updated_at,
              ':path': 'qa',
              ':name': 'QA',
              ':zero': 0,
            },
          },
        },
        groupSearchPending(9),
      ),
    ]);
    expect(sentMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"groupId":9}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a developer of the group → 403, nothing written', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(
      await invoke(updateGroup, 'PUT', '/api/v4/groups/5', { token: BOB_TOKEN, json: { description: 'x' } }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id', () => {
  it('takes the group out of its lists, frees its path and queues the purge → 202', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    expect(await invoke(deleteGroup, 'DELETE', '/api/v4/groups/5', { token: USER_TOKEN })).toEqual(
      ok({ message: '202 Accepted' }, 202),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: groupKey(5),
            UpdateExpression: 'SET deleting = :true REMOVE l1, l2, #tree, #path',
            ExpressionAttributeNames: { '#tree': 'tree', '#path': 'tpath' },
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
            ExpressionAttributeValues: { ':true': true },
          },
        },
        {
          Delete: {
            TableName: TABLE,
            Key: keys.route('platform/backend'),
            ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
            ExpressionAttributeValues: { ':id': 5 },
          },
        },
        listCount(lists.groupsWithVisibility('private'), -1),
        listCount(lists.groupChildren(3), -1),
      ),
    ]);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: GROUP_DELETE_QUEUE_URL, MessageBody: '{"groupId":5}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a developer of the group → 403, nothing written or queued', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(await invoke(deleteGroup, 'DELETE', '/api/v4/groups/5', { token: BOB_TOKEN })).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('POST /groups/:id/projects/:project_id', () => {
  it('moves the project, its route and name into the group, then shows the group → 201', async () => {
    const moved = {
      ...api,
      namespace: groupNamespace(qa),
      path_with_namespace: 'qa/api',
      name_with_namespace: 'QA / API',
      updated_at: NOW,
    };
    // The group's detail is read after the move.
    ddb.on(TransactWriteCommand).callsFake(() => {
      store(projectItem(moved));
      return {};
    });
    store(...countItems(lists.namespaceProjects(9, 'private'), 1), apiRollup);
    const shown = { ...moved, star_count: countedApi.star_count, forks_count: countedApi.forks_count };
    expect(
      await invoke(transferProject, 'POST', '/api/v4/groups/9/projects/42', { token: ADMIN_TOKEN }),
    ).toEqual(
      created(
        groupDetailView(qa, [
          projectView(shown, {
            admin: true,
            extra: { permissions: permissions(0, 0), open_issues_count: 3 },
          }),
        ]),
      ),
    );
    expect(sentCommands()).toEqual([
      tokenRead(ADMIN_TOKEN),
      getCommand(groupKey(9)),
      ...projectRead(42),
      transaction(
        projectWrite(moved, 'updated_at = :previous AND attribute_not_exists(deleting)', {
          ':previous': api.updated_at,
        }),
        {
          Put: { TableName: TABLE, Item: routeItem('qa/api', 'project', 42), ConditionExpression: NEW_ITEM },
        },
        { Delete: { TableName: TABLE, Key: keys.route('platform/backend/api') } },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.projectName(9, 'api'), kind: 'project_name', id: 42 },
            ConditionExpression: NEW_ITEM,
          },
        },
        { Delete: { TableName: TABLE, Key: keys.projectName(5, 'api') } },
        listCount(lists.namespaceProjects(5, 'private'), -1),
        listCount(lists.namespaceProjects(9, 'private'), 1),
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: groupKey(9),
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name',
            ExpressionAttributeValues: { ':path': 'qa', ':name': 'QA' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ),
      ...membershipLists(1),
      listQuery(lists.sharedWithGroup(9)),
      ...namespaceLists(9, 'name', 100, true, [42]),
    ]);
  });

  it('a project already in the group → 400, nothing written', async () => {
    expect(
      await invoke(transferProject, 'POST', '/api/v4/groups/5/projects/42', { token: ADMIN_TOKEN }),
    ).toEqual(
      message(400, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}'),
    );
    expect(writesSent()).toEqual([]);
  });

  it('non-admins → 403', async () => {
    expect(
      await invoke(transferProject, 'POST', '/api/v4/groups/3/projects/42', { token: USER_TOKEN }),
    ).toEqual(FORBIDDEN);
  });
});
