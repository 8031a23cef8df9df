/** Creating projects (own or for a user), changing them, and sharing them with groups. */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as createProject } from '../../functions/projects/create.ts';
import { handler as createForUser } from '../../functions/projects/create-for-user.ts';
import { handler as share } from '../../functions/projects/share.ts';
import { handler as unshare } from '../../functions/projects/unshare.ts';
import { handler as updateProject } from '../../functions/projects/update.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  emptyHeaders,
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
  apiMemberKeys,
  applyTransactionPuts,
  BOB_TOKEN,
  backend,
  batchGet,
  bobNamespace,
  cancelled,
  counterReservation,
  countRead,
  created,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenWorld,
  groupKey,
  groupMemberItem,
  listCount,
  memberKey,
  message,
  ok,
  type ProjectShareRecord,
  permissions,
  projectItem,
  projectMemberItem,
  projectRead,
  projectRecord,
  projectView,
  projectWrite,
  routeItem,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const NEW_ITEM = 'attribute_not_exists(pk)';
const GUARD = 'updated_at = :previous AND attribute_not_exists(deleting)';
const RUNNERS_TOKEN = expect.stringMatching(/^[0-9a-f]{20}$/);
const searchPending = (projectId: number) => ({
  Put: {
    TableName: TABLE,
    Item: {
      ...keys.searchPending(projectId),
      kind: 'search_pending',
      project_id: projectId,
      version: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      l1: lists.searchPending.partition,
      sid: pad(projectId),
    },
  },
});
const searchMessages = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

/** bob/notes as created now (id 41 from the project counter's block 41..50). */
const notes = {
  ...projectRecord({ id: 41, name: 'Notes', path: 'notes', namespace: bobNamespace(), creator_id: 7 }),
  default_branch: 'master',
  created_at: NOW,
  updated_at: NOW,
  last_activity_at: NOW,
  runners_token: RUNNERS_TOKEN,
};

/** The transaction creating bob/notes with bob as its owner member. */
const notesCreation = transaction(
  { Put: { TableName: TABLE, Item: projectItem(notes), ConditionExpression: NEW_ITEM } },
  { Put: { TableName: TABLE, Item: routeItem('bob/notes', 'project', 41), ConditionExpression: NEW_ITEM } },
  {
    Put: {
      TableName: TABLE,
      Item: { ...keys.projectName(70, 'notes'), kind: 'project_name', id: 41 },
      ConditionExpression: NEW_ITEM,
    },
  },
  {
    ConditionCheck: {
      TableName: TABLE,
      Key: keys.user(7),
      ConditionExpression: 'attribute_exists(pk) AND username = :path AND #name = :name',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':path': 'bob', ':name': 'Bob Builder' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  },
  listCount(lists.projectsWithVisibility('private'), 1),
  listCount(lists.namespaceProjects(70, 'private'), 1),
  searchPending(41),
  {
    Put: {
      TableName: TABLE,
      Item: projectMemberItem(41, { userId: 7, level: 50, createdBy: 7, createdAt: NOW }),
    },
  },
  listCount(lists.projectMembers(41), 1),
  listCount(lists.projectMembershipsOfUser(7), 1),
);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('POST /projects', () => {
  it("creates a project in the caller's namespace within their limit, and queues its indexing → 201", async () => {
    givenCounter('project', 50);
    applyTransactionPuts();
    expect(
      await invoke(createProject, 'POST', '/api/v4/projects', { token: BOB_TOKEN, json: { name: 'Notes' } }),
    ).toEqual(created(projectView(notes, { admin: true, extra: { permissions: permissions(50, 0) } })));
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(keys.user(7)),
      ...['private', 'internal', 'public'].map((visibility) =>
        countRead(lists.namespaceProjects(70, visibility)),
      ),
      counterReservation('project'),
      notesCreation,
      batchGet(memberKey('PROJECT', 41, 7)),
    ]);
    expect(searchMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"projectId":41}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a group namespace the caller has no access to → 400 namespace is not valid, nothing written', async () => {
    expect(
      await invoke(createProject, 'POST', '/api/v4/projects', {
        token: BOB_TOKEN,
        json: { name: 'Notes', namespace_id: 5 },
      }),
    ).toEqual(message(400, { namespace: ['is not valid'] }));
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(keys.group(5)),
      // The memberships of the group's lineage, and its ancestor's item for that group's shares.
      batchGet(memberKey('GROUP', 3, 7), memberKey('GROUP', 5, 7), groupKey(3)),
    ]);
    expect(searchMessages()).toEqual([]);
  });
});

describe('POST /projects/user/:user_id', () => {
  it("admins create a project in a user's namespace, owned by that user → 201", async () => {
    givenCounter('project', 50);
    applyTransactionPuts();
    expect(
      await invoke(createForUser, 'POST', '/api/v4/projects/user/7', {
        token: ADMIN_TOKEN,
        json: { name: 'Notes' },
      }),
    ).toEqual(created(projectView(notes, { admin: true, extra: { permissions: permissions(0, 0) } })));
    expect(sentCommands()).toEqual([
      tokenRead(ADMIN_TOKEN),
      getCommand(keys.user(7)),
      counterReservation('project'),
      notesCreation,
      batchGet(memberKey('PROJECT', 41, 1)),
    ]);
    expect(searchMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"projectId":41}', ...REQUEST_CORRELATION },
    ]);
  });

  it('an unknown user → 404 User Not Found, nothing written', async () => {
    expect(
      await invoke(createForUser, 'POST', '/api/v4/projects/user/99', {
        token: ADMIN_TOKEN,
        json: { name: 'Notes' },
      }),
    ).toEqual(message(404, '404 User Not Found'));
    expect(writesSent()).toEqual([]);
  });

  it('non-admins → 403', async () => {
    expect(
      await invoke(createForUser, 'POST', '/api/v4/projects/user/7', {
        token: USER_TOKEN,
        json: { name: 'Notes' },
      }),
    ).toEqual(FORBIDDEN);
  });
});

describe('PUT /projects/:id', () => {
  it('rewrites the project from a fresh read, marks it for the index and queues it → 200', async () => {
    const changed = {
      ...api,
      wiki_enabled: false,
      description: 'Core API',
      updated_at: NOW,
      last_activity_at: NOW,
    };
    expect(
      await invoke(updateProject, 'PUT', '/api/v4/projects/42', {
        token: USER_TOKEN,
        json: { description: 'Core API', wiki_enabled: false },
      }),
    ).toEqual(
      ok(
        projectView(changed, {
          admin: true,
          extra: { wiki_enabled: false, permissions: permissions(0, 50) },
        }),
      ),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      ...projectRead(42),
      transaction(projectWrite(changed, GUARD, { ':previous': api.updated_at }), searchPending(42)),
    ]);
    expect(searchMessages()).toEqual([
      { QueueUrl: SEARCH_QUEUE_URL, MessageBody: '{"projectId":42}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a maintainer renaming → 403, nothing written', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 40 }));
    expect(
      await invoke(updateProject, 'PUT', '/api/v4/projects/42', {
        token: BOB_TOKEN,
        json: { name: 'Renamed' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

/** api shared with qa (9) as a developer share. */
const qaShare: ProjectShareRecord = {
  group_id: 9,
  group_name: 'QA',
  group_full_path: 'qa',
  group_access_level: 30,
  expires_at: null,
  group_ids: [9],
};
const shareKey = keys.projectShare(42, 9);

describe('POST /projects/:id/share', () => {
  it('writes the link and the project’s shared_with_groups in one transaction → 201 with the link', async () => {
    givenCounter('project_group_link', 10);
    const shared = { ...api, shared_with_groups: [qaShare], updated_at: NOW };
    expect(
      await invoke(share, 'POST', '/api/v4/projects/42/share', {
        token: USER_TOKEN,
        json: { group_id: 9, group_access: 30 },
      }),
    ).toEqual(created({ id: 1, project_id: 42, group_id: 9, group_access: 30, expires_at: null }));
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      // The group is read beside the project; judged once the caller may share the project.
      getCommand(keys.group(9)),
      batchGet(...apiMemberKeys(2)),
      batchGet(memberKey('GROUP', 9, 2)),
      counterReservation('project_group_link'),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...shareKey,
              id: 1,
              project_id: 42,
              group_id: 9,
              group_access: 30,
              expires_at: null,
              kind: 'project_share',
              l1: lists.sharedWithGroup(9).partition,
              sid: pad(42),
              tree: tree.shares(9),
              tpath: `${pad(9)}/S${pad(42)}`,
            },
            ConditionExpression: NEW_ITEM,
          },
        },
        projectWrite(shared, GUARD, { ':previous': api.updated_at }),
        listCount(lists.sharedWithGroup(9), 1),
        // The share copies qa's place: qa must still be where it was read, not moving.
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.group(9),
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path',
            ExpressionAttributeValues: { ':path': 'qa' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ),
    ]);
  });

  it('the group the project is in → 409, nothing written', async () => {
    expect(
      await invoke(share, 'POST', '/api/v4/projects/42/share', {
        token: USER_TOKEN,
        json: { group_id: 3, group_access: 30 },
      }),
    ).toEqual(message(409, 'Project cannot be shared with the group it is in or one of its ancestors.'));
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /projects/:id/share/:group_id', () => {
  it('removes the link and the share from the project in one transaction → 204', async () => {
    store(projectItem({ ...api, shared_with_groups: [qaShare] }));
    expect(await invoke(unshare, 'DELETE', '/api/v4/projects/42/share/9', { token: USER_TOKEN })).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2, 9)),
      transaction(
        { Delete: { TableName: TABLE, Key: shareKey, ConditionExpression: 'attribute_exists(pk)' } },
        projectWrite({ ...api, updated_at: NOW }, 'updated_at = :previous', { ':previous': api.updated_at }),
        listCount(lists.sharedWithGroup(9), -1),
      ),
    ]);
  });

  it('a group it is not shared with → 404 Group Link Not Found', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None'));
    expect(await invoke(unshare, 'DELETE', '/api/v4/projects/42/share/9', { token: USER_TOKEN })).toEqual(
      message(404, '404 Group Link Not Found'),
    );
  });

  it('a developer → 403, nothing written', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(await invoke(unshare, 'DELETE', '/api/v4/projects/42/share/9', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});
