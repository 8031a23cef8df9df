import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as memberships } from '../../functions/users/memberships.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  getUserInput,
  givenAdminToken,
  givenStoredUser,
  givenUserToken,
  jsonHeaders,
  pad,
  resetMocks,
  SEP,
  sentCommands,
  TABLE,
  tokenLookup,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';
import { countRead, givenListCount, projectShardKeys } from './resource-fixtures.ts';

const T1 = '2026-02-01T00:00:00.000Z';
const T2 = '2026-02-02T00:00:00.000Z';
const T3 = '2026-02-03T00:00:00.000Z';

const groupMember = (groupId: number, level: number, created: string) => ({
  ...keys.groupMember(groupId, 7),
  kind: 'group_member',
  group_id: groupId,
  user_id: 7,
  access_level: level,
  created_at: created,
  l2: lists.groupMembershipsOfUser(7).partition,
  screated: `${created}${SEP}${pad(7)}`,
});
const projectMember = (projectId: number, level: number, created: string) => ({
  ...keys.projectMember(projectId, 7),
  kind: 'project_member',
  project_id: projectId,
  user_id: 7,
  access_level: level,
  created_at: created,
  l2: lists.projectMembershipsOfUser(7).partition,
  screated: `${created}${SEP}${pad(7)}`,
});

const listQuery = (partition: string, limit: number) => ({
  TableName: TABLE,
  IndexName: 'l2-created_at',
  KeyConditionExpression: '#list = :partition',
  ExpressionAttributeNames: { '#list': 'l2' },
  ExpressionAttributeValues: { ':partition': partition },
  ScanIndexForward: true,
  Limit: limit,
  ExclusiveStartKey: undefined,
});
beforeEach(() => {
  resetMocks();
  givenAdminToken();
  givenUserToken();
  givenStoredUser(userRecord());
  ddb
    .on(QueryCommand, {
      ExpressionAttributeValues: { ':partition': lists.groupMembershipsOfUser(7).partition },
    })
    .resolves({ Items: [groupMember(10, 50, T1), groupMember(11, 30, T3)] });
  ddb
    .on(QueryCommand, {
      ExpressionAttributeValues: { ':partition': lists.projectMembershipsOfUser(7).partition },
    })
    .resolves({ Items: [projectMember(20, 40, T2)] });
  ddb.on(BatchGetCommand).resolves({
    Responses: {
      [TABLE]: [
        { ...keys.group(10), name: 'Platform' },
        { ...keys.group(11), name: 'Tools' },
        { ...keys.project(20), name: 'Website' },
      ],
    },
  });
  givenListCount(lists.groupMembershipsOfUser(7), 2);
  givenListCount(lists.projectMembershipsOfUser(7), 1);
});

describe('GET /users/:id/memberships', () => {
  it('merges group and project memberships in the order they were made, with the source names → 200', async () => {
    const response = await invoke(memberships, 'GET', '/api/v4/users/7/memberships', { token: ADMIN_TOKEN });
    expect(response).toEqual({
      statusCode: 200,
      headers: expect.objectContaining({ 'X-Total': '3', 'X-Page': '1', 'X-Per-Page': '20' }),
      body: [
        { source_id: 10, source_name: 'Platform', source_type: 'Namespace', access_level: 50 },
        { source_id: 20, source_name: 'Website', source_type: 'Project', access_level: 40 },
        { source_id: 11, source_name: 'Tools', source_type: 'Namespace', access_level: 30 },
      ],
    });
    const commands = sentCommands();
    expect(commands.slice(0, 2)).toEqual([
      { GetCommand: getUserInput(7) },
      { GetCommand: tokenLookup(ADMIN_TOKEN) },
    ]);
    // Each list read only to the end of the page; the total from their counters.
    expect(commands.slice(2, 6)).toEqual(
      expect.arrayContaining([
        { QueryCommand: listQuery(lists.groupMembershipsOfUser(7).partition, 20) },
        { QueryCommand: listQuery(lists.projectMembershipsOfUser(7).partition, 20) },
        countRead(lists.groupMembershipsOfUser(7)),
        countRead(lists.projectMembershipsOfUser(7)),
      ]),
    );
    expect(commands[6]).toEqual({
      BatchGetCommand: {
        RequestItems: {
          [TABLE]: {
            Keys: [
              keys.group(10),
              keys.project(20),
              keys.group(11),
              // The project's counters are read with it.
              ...projectShardKeys(20),
            ],
            ConsistentRead: true,
          },
        },
      },
    });
    expect(commands).toHaveLength(7);
  });

  it('type=Project reads only the project list; type=Namespace only the groups', async () => {
    const projects = await invoke(memberships, 'GET', '/api/v4/users/7/memberships', {
      token: ADMIN_TOKEN,
      query: 'type=Project',
    });
    expect(projects.body).toEqual([
      { source_id: 20, source_name: 'Website', source_type: 'Project', access_level: 40 },
    ]);
    expect(projects.headers['X-Total']).toBe('1');
    const groups = await invoke(memberships, 'GET', '/api/v4/users/7/memberships', {
      token: ADMIN_TOKEN,
      query: 'type=Namespace',
    });
    expect(groups.body).toEqual([
      { source_id: 10, source_name: 'Platform', source_type: 'Namespace', access_level: 50 },
      { source_id: 11, source_name: 'Tools', source_type: 'Namespace', access_level: 30 },
    ]);
    expect(groups.headers['X-Total']).toBe('2');
  });

  it('another type → 400 type does not have a valid value; an unknown user → 404', async () => {
    expect(
      await invoke(memberships, 'GET', '/api/v4/users/7/memberships', {
        token: ADMIN_TOKEN,
        query: 'type=Group',
      }),
    ).toEqual({
      statusCode: 400,
      headers: jsonHeaders(),
      body: { error: 'type does not have a valid value' },
    });
    expect(await invoke(memberships, 'GET', '/api/v4/users/99/memberships', { token: ADMIN_TOKEN })).toEqual({
      statusCode: 404,
      headers: jsonHeaders(),
      body: { message: '404 User Not Found' },
    });
  });

  it('anonymous → 401, a non-admin (even the user themself) → 403', async () => {
    expect(await invoke(memberships, 'GET', '/api/v4/users/7/memberships')).toEqual({
      statusCode: 401,
      headers: jsonHeaders(),
      body: { message: '401 Unauthorized' },
    });
    expect(await invoke(memberships, 'GET', '/api/v4/users/2/memberships', { token: USER_TOKEN })).toEqual({
      statusCode: 403,
      headers: jsonHeaders(),
      body: { message: '403 Forbidden' },
    });
  });
});
