/**
 * PUT /projects/:id/transfer: the whole answer and the exact commands of a move into a group and
 * into a personal namespace, and of each refusal (nothing written where nothing may be).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as transfer } from '../../functions/projects/transfer.ts';
import { invoke } from '../support/events.ts';
import {
  CREATED,
  ddb,
  NOW,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
  userItem,
} from './fixtures.ts';
import {
  aliceUser,
  api,
  apiMemberKeys,
  BOB_TOKEN,
  batchGet,
  cancelled,
  countRead,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupKey,
  groupMemberItem,
  groupNamespace,
  listCount,
  memberKey,
  message,
  ok,
  PROJECT_NOT_FOUND,
  type ProjectRecord,
  permissions,
  projectMemberItem,
  projectRead,
  projectView,
  projectWrite,
  qa,
  routeItem,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';
import { withRoundTrips } from './round-trips.ts';

const GUARD = 'updated_at = :previous AND attribute_not_exists(deleting)';
const NEW_ITEM = 'attribute_not_exists(pk)';
/** Alice's personal namespace. */
const ALICE_NAMESPACE = 71;

const aliceNamespace = () => ({
  id: ALICE_NAMESPACE,
  kind: 'user' as const,
  name: 'Alice Liddell',
  path: 'alice',
  full_path: 'alice',
  parent_id: null as number | null,
  group_ids: [] as number[],
  owner_id: 2 as number | null,
  owner_created_at: CREATED,
  share_with_group_lock: false,
  membership_lock: false,
  visibility: null as string | null,
});

const put = (token: string, projectId: number, namespace: string | number) =>
  invoke(transfer, 'PUT', `/api/v4/projects/${projectId}/transfer`, { token, json: { namespace } });

/** The reads of a namespace by id: the group and the personal namespace item at once. */
const namespaceById = (id: number) => [getCommand(groupKey(id)), getCommand(keys.userNamespace(id))];
/** The read of a path without a slash: its one route, a group's or a username's. */
const namespaceByPath = (path: string) => [getCommand(keys.route(path))];
/** Alice's access to api: her memberships of it and its groups, with the groups' items. */
const aliceApiAccess = batchGet(...apiMemberKeys(2));

const failed = (refusal: string) =>
  message(400, `Failed to transfer project {:new_namespace=>["${refusal}"]}`);

/** The transaction moving api (private, in platform/backend) to `moved`'s namespace. */
function apiMove(moved: ProjectRecord, namespaceCheck: unknown) {
  const id = moved.namespace.id;
  return transaction(
    projectWrite(moved, GUARD, { ':previous': api.updated_at }),
    {
      Put: {
        TableName: TABLE,
        Item: routeItem(moved.path_with_namespace, 'project', 42),
        ConditionExpression: NEW_ITEM,
      },
    },
    { Delete: { TableName: TABLE, Key: keys.route('platform/backend/api') } },
    {
      Put: {
        TableName: TABLE,
        Item: { ...keys.projectName(id, 'api'), kind: 'project_name', id: 42 },
        ConditionExpression: NEW_ITEM,
      },
    },
    { Delete: { TableName: TABLE, Key: keys.projectName(5, 'api') } },
    listCount(lists.namespaceProjects(5, 'private'), -1),
    listCount(lists.namespaceProjects(id, 'private'), 1),
    namespaceCheck,
  );
}

const intoQa: ProjectRecord = {
  ...api,
  namespace: groupNamespace(qa),
  path_with_namespace: 'qa/api',
  name_with_namespace: 'QA / API',
  updated_at: NOW,
};
const qaCheck = {
  ConditionCheck: {
    TableName: TABLE,
    Key: groupKey(9),
    ConditionExpression:
      'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name',
    ExpressionAttributeValues: { ':path': 'qa', ':name': 'QA' },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
};

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  store({ ...userItem(aliceUser), namespace_id: ALICE_NAMESPACE }, routeItem('alice', 'user', 2));
});

describe('PUT /projects/:id/transfer', () => {
  it('an owner of the project moves it into a group they maintain → 200, in 3 reads and one transaction', async () => {
    store(groupMemberItem(qa, { userId: 2, level: 40 }));
    const { value, rounds } = await withRoundTrips(() => put(USER_TOKEN, 42, 9));
    expect(value).toEqual(
      ok(projectView(intoQa, { admin: true, extra: { permissions: permissions(0, 40) } })),
    );
    expect(sentCommands()).toEqual([
      ...namespaceById(9),
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      aliceApiAccess,
      batchGet(memberKey('GROUP', 9, 2)),
      apiMove(intoQa, qaCheck),
    ]);
    // Token, project and namespace | the project's access | the group's access | the write.
    expect(rounds).toBe(4);
  });

  it("into the caller's personal namespace by path, within their project limit → 200", async () => {
    const intoAlice: ProjectRecord = {
      ...api,
      namespace: aliceNamespace(),
      path_with_namespace: 'alice/api',
      name_with_namespace: 'Alice Liddell / API',
      updated_at: NOW,
    };
    const { value, rounds } = await withRoundTrips(() => put(USER_TOKEN, 42, 'alice'));
    expect(value).toEqual(
      ok(
        projectView(intoAlice, {
          admin: true,
          extra: {
            permissions: permissions(0, 0),
            owner: {
              id: 2,
              name: 'Alice Liddell',
              username: 'alice',
              state: 'active',
              avatar_url: 'https://gitlab.example.com/assets/no_avatar.png',
              web_url: 'https://gitlab.example.com/alice',
              created_at: CREATED,
            },
          },
        }),
      ),
    );
    expect(sentCommands()).toEqual([
      ...namespaceByPath('alice'),
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      getCommand(keys.user(2)),
      aliceApiAccess,
      ...['private', 'internal', 'public'].map((visibility) =>
        countRead(lists.namespaceProjects(71, visibility)),
      ),
      apiMove(intoAlice, {
        ConditionCheck: {
          TableName: TABLE,
          Key: keys.user(2),
          ConditionExpression: 'attribute_exists(pk) AND username = :path AND #name = :name',
          ExpressionAttributeValues: { ':path': 'alice', ':name': 'Alice Liddell' },
          ExpressionAttributeNames: { '#name': 'name' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }),
    ]);
    // Token, project and route | user and the project's access | the project count | the write.
    expect(rounds).toBe(4);
  });

  it('the namespace it is in already → 400, nothing written', async () => {
    expect(await put(USER_TOKEN, 42, 5)).toEqual(failed('Project is already in this namespace.'));
    expect(sentCommands()).toEqual([
      ...namespaceById(5),
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      aliceApiAccess,
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      batchGet(groupKey(3)),
    ]);
  });

  it('a group where the caller may not create projects (developer) → 400 no permission, nothing written', async () => {
    store(groupMemberItem(qa, { userId: 7, level: 30 }));
    expect(await put(BOB_TOKEN, 43, 'qa')).toEqual(
      failed("You don't have permission to transfer projects into that namespace."),
    );
    expect(sentCommands()).toEqual([
      ...namespaceByPath('qa'),
      tokenRead(BOB_TOKEN),
      ...projectRead(43),
      getCommand(groupKey(9)),
      batchGet(memberKey('PROJECT', 43, 7)),
      batchGet(memberKey('GROUP', 9, 7)),
    ]);
  });

  it('a project with the same path in the target: the transaction is refused → 400, nothing else written', async () => {
    store(groupMemberItem(qa, { userId: 2, level: 40 }));
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('None', 'ConditionalCheckFailed', 'None', 'None', 'None', 'None', 'None', 'None'));
    expect(await put(USER_TOKEN, 42, 9)).toEqual(
      failed('Project with same name or path in target namespace already exists'),
    );
    expect(writesSent()).toEqual([apiMove(intoQa, qaCheck)]);
  });

  it('an unknown namespace → 404 Namespace Not Found, nothing written', async () => {
    expect(await put(USER_TOKEN, 42, 999)).toEqual(message(404, '404 Namespace Not Found'));
    expect(sentCommands()).toEqual([
      ...namespaceById(999),
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      aliceApiAccess,
    ]);
  });

  it('a group the caller is no member of → 404 Namespace Not Found, nothing written', async () => {
    expect(await put(USER_TOKEN, 42, 9)).toEqual(message(404, '404 Namespace Not Found'));
    expect(writesSent()).toEqual([]);
  });

  it('a maintainer of the project (not its owner) → 403, nothing written', async () => {
    store(projectMemberItem(42, { userId: 7, level: 40 }));
    expect(await put(BOB_TOKEN, 42, 9)).toEqual(FORBIDDEN);
    expect(sentCommands()).toEqual([
      ...namespaceById(9),
      tokenRead(BOB_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(7)),
    ]);
  });

  it('a project the caller may not see → 404 Project Not Found, nothing written', async () => {
    expect(await put(BOB_TOKEN, 42, 9)).toEqual(PROJECT_NOT_FOUND);
    expect(sentCommands()).toEqual([
      ...namespaceById(9),
      tokenRead(BOB_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(7)),
    ]);
  });
});
