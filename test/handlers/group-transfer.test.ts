/** POST /groups/:id/transfer: the refusals before anything is written, and a move's writes in order. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler as transferGroup } from '../../functions/groups/transfer.ts';
import { invoke } from '../support/events.ts';
import { ddb, pinCounterShards, resetMocks, sentCommands, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  api,
  BOB_TOKEN,
  backend,
  batchGet,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupItem,
  groupKey,
  groupMemberItem,
  listCount,
  memberKey,
  message,
  projectItem,
  routeItem,
  shardKeys,
  store,
  tokenRead,
  treeQuery,
} from './resource-fixtures.ts';

const pad = (id: number) => String(id).padStart(12, '0');

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /groups/:id/transfer', () => {
  it('a target the owner may not create subgroups in → 400 Transfer failed, nothing written', async () => {
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', {
        token: USER_TOKEN,
        json: { group_id: 9 },
      }),
    ).toEqual(message(400, "Transfer failed: You don't have enough permissions."));
    // The target group is read beside the group itself, and judged once the group is allowed.
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(groupKey(5)),
      getCommand(groupKey(9)),
      batchGet(memberKey('GROUP', 3, 2), memberKey('GROUP', 5, 2), groupKey(3)),
      batchGet(memberKey('GROUP', 9, 2)),
    ]);
  });

  it('its own parent → 400 already associated; the top level of a top-level group → 400 already root', async () => {
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', {
        token: USER_TOKEN,
        json: { group_id: 3 },
      }),
    ).toEqual(message(400, 'Transfer failed: Group is already associated to the parent group.'));
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/3/transfer', { token: USER_TOKEN, json: {} }),
    ).toEqual(message(400, 'Transfer failed: Group is already a root group.'));
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/3/transfer', {
        token: USER_TOKEN,
        json: { group_id: 5 },
      }),
    ).toEqual(message(400, 'Transfer failed: Cannot transfer group to one of its subgroup.'));
    expect(sentCommands().filter((command) => 'TransactWriteCommand' in command)).toEqual([]);
  });

  it('a group the caller cannot see → 404; a group_id that is no id → 400', async () => {
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', { token: BOB_TOKEN, json: {} }),
    ).toEqual(message(404, '404 Group Not Found'));
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', {
        token: USER_TOKEN,
        json: { group_id: 'x' },
      }),
    ).toEqual({
      statusCode: 400,
      headers: expect.any(Object),
      body: { error: 'group_id is invalid' },
    });
    expect(sentCommands().filter((command) => 'TransactWriteCommand' in command)).toEqual([]);
  });

  it('a developer of the group → 403, nothing written', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 30 }));
    expect(
      await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', { token: BOB_TOKEN, json: {} }),
    ).toEqual(FORBIDDEN);
    expect(sentCommands().filter((command) => 'TransactWriteCommand' in command)).toEqual([]);
  });

  it('to the top level: the group, its route and the counters in one transaction, then its project', async () => {
    // The settle reads the old place twice: the project there, then nothing.
    ddb
      .on(QueryCommand, {
        IndexName: 'tree',
        ExpressionAttributeValues: { ':tree': tree.projects('private')(3), ':path': `${pad(3)}/${pad(5)}/` },
      })
      .resolvesOnce({ Items: [projectItem(api)] })
      .resolves({ Items: [] });
    const response = await invoke(transferGroup, 'POST', '/api/v4/groups/5/transfer', {
      token: USER_TOKEN,
      json: {},
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toMatchObject({
      id: 5,
      full_path: 'backend',
      full_name: 'Backend',
      parent_id: null,
      web_url: 'https://gitlab.example.com/groups/backend',
    });
    const moved = {
      ...backend,
      full_path: 'backend',
      full_name: 'Backend',
      parent_id: null,
      ancestor_ids: [],
    };
    const writes = sentCommands().filter(
      (command) => 'TransactWriteCommand' in command || 'UpdateCommand' in command,
    );
    expect(writes[0]).toEqual({
      TransactWriteCommand: {
        TransactItems: [
          {
            Put: {
              TableName: TABLE,
              Item: {
                ...groupItem({ ...moved, updated_at: expect.any(String) }),
                moving: expect.any(String),
                move: {
                  token: expect.any(String),
                  since: expect.any(Number),
                  from_root: 3,
                  from_prefix: `${pad(3)}/${pad(5)}/`,
                  counted: [3],
                },
              },
              ConditionExpression:
                'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name AND updated_at = :updated AND (attribute_not_exists(moves_below) OR moves_below = :zero)',
              ExpressionAttributeValues: {
                ':path': 'platform/backend',
                ':name': 'Platform / Backend',
                ':updated': backend.updated_at,
                ':zero': 0,
              },
            },
          },
          {
            Put: {
              TableName: TABLE,
              Item: routeItem('backend', 'group', 5),
              ConditionExpression: 'attribute_not_exists(pk)',
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
          listCount(lists.groupChildren(3), -1),
          listCount(lists.groupChildren(null), 1),
          {
            Update: {
              TableName: TABLE,
              Key: groupKey(3),
              UpdateExpression: 'ADD moves_below :one',
              ConditionExpression:
                'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      },
    });
    const token = (
      writes[0] as { TransactWriteCommand: { TransactItems: { Put?: { Item: { moving: string } } }[] } }
    ).TransactWriteCommand.TransactItems[0]?.Put?.Item.moving;
    // The project follows, guarded by its own state and by the group still carrying this move.
    const projectMove = (writes[1] as { TransactWriteCommand: { TransactItems: Record<string, unknown>[] } })
      .TransactWriteCommand.TransactItems;
    const update = projectMove[0] as {
      Update: {
        Key: unknown;
        ConditionExpression: string;
        ExpressionAttributeValues: Record<string, unknown>;
      };
    };
    expect(update.Update.Key).toEqual(keys.project(42));
    expect(update.Update.ConditionExpression).toBe(
      'updated_at = :previous AND attribute_not_exists(deleting)',
    );
    expect(update.Update.ExpressionAttributeValues[':previous']).toBe(api.updated_at);
    expect(Object.values(update.Update.ExpressionAttributeValues)).toEqual(
      expect.arrayContaining([
        'backend/api',
        'Backend / API',
        tree.projects('private')(5),
        `${pad(5)}/P${pad(42)}`,
        {
          ...api.namespace,
          full_path: 'backend',
          full_name: 'Backend',
          parent_id: null,
          group_ids: [5],
        },
      ]),
    );
    expect(projectMove.slice(1)).toEqual([
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: groupKey(5),
          ConditionExpression: 'moving = :token AND full_path = :path AND full_name = :name',
          ExpressionAttributeValues: { ':token': token, ':path': 'backend', ':name': 'Backend' },
        },
      },
      {
        Delete: {
          TableName: TABLE,
          Key: keys.route('platform/backend/api'),
          ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
          ExpressionAttributeValues: { ':id': 42 },
        },
      },
      { Put: { TableName: TABLE, Item: routeItem('backend/api', 'project', 42) } },
    ]);
    // The marks go: the group's with the count on its old parent, in one transaction.
    expect(writes.slice(2)).toEqual([
      {
        TransactWriteCommand: {
          TransactItems: [
            {
              Update: {
                TableName: TABLE,
                Key: groupKey(5),
                UpdateExpression: 'REMOVE moving, #move',
                ConditionExpression: 'moving = :token',
                ExpressionAttributeNames: { '#move': 'move' },
                ExpressionAttributeValues: { ':token': token },
              },
            },
            {
              Update: {
                TableName: TABLE,
                Key: groupKey(3),
                UpdateExpression: 'ADD moves_below :minus',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        },
      },
    ]);
    // The members of the moved group are read from its partition, consistently.
    expect(sentCommands()).toContainEqual({
      QueryCommand: {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.group(5).pk, ':prefix': 'MEMBER#' },
        ProjectionExpression: 'user_id',
        ConsistentRead: true,
      },
    });
    // The old place is read until empty, and the counters confirm nothing is left behind.
    const reads = sentCommands().filter(
      (command) => 'QueryCommand' in command || 'BatchGetCommand' in command,
    );
    expect(reads).toEqual(
      expect.arrayContaining([
        treeQuery(tree.groups(3), `${pad(3)}/${pad(5)}/`),
        treeQuery(tree.projects('private')(3), `${pad(3)}/${pad(5)}/`),
        // The shards of every list the move empties, in one batch.
        batchGet(
          ...shardKeys(listCounter(lists.groupChildren(5)).pk, 4),
          ...shardKeys(listCounter(lists.namespaceProjects(5, 'private')).pk, 4),
          ...shardKeys(listCounter(lists.namespaceProjects(5, 'internal')).pk, 4),
          ...shardKeys(listCounter(lists.namespaceProjects(5, 'public')).pk, 4),
        ),
      ]),
    );
  });
});
