/**
 * The group-delete worker: removes a group marked deleted with everything under it (its projects
 * with their uploads and members, its members, its route), each step conditional.
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { tree } from '#store/table/tree-keys.ts';
import { handler } from '../../functions/workers/group-delete.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { BUCKET, ddb, NOW, pad, pinCounterShards, resetMocks, sentCommands, TABLE } from './fixtures.ts';
import {
  backend,
  getCommand,
  givenWorld,
  groupItem,
  groupKey,
  groupMemberItem,
  ldapLinksQuery,
  listCount,
  listQuery,
  memberKey,
  partitionQuery,
  projectKey,
  projectMemberItem,
  projectRead,
  shardKeys,
  shardTombstoneItems,
  store,
  transaction,
  treeQuery,
} from './resource-fixtures.ts';

const s3 = mockClient(S3Client);

/** A Query of a whole list, only the attributes a purge needs. */
const purgeQuery = (list: ListName) => ({
  QueryCommand: {
    ...listQuery(list).QueryCommand,
    Limit: undefined,
    ProjectionExpression: 'pk, sk, group_id, iid',
  },
});
const deleteKeys = (...keys: { pk: string; sk: string }[]) => ({
  BatchWriteCommand: { RequestItems: { [TABLE]: keys.map((Key) => ({ DeleteRequest: { Key } })) } },
});
/** The counter shards of a list's total (none of these lists is instance-wide: 4 shards). */
const counter = (list: ListName) => shardKeys(listCounter(list).pk, 4);

/**
 * The purge of a project's issues, merge requests and snippets (none here): their lists and their
 * lists' counters. The open issues' total is the project's own open_issues_count: its shards are
 * the project's, which stay (marked deleted) until the project's purge ends, so they are not
 * among the counters removed here.
 */
const noteablesOfProject = (id: number) => [
  purgeQuery(lists.projectIssues(id)),
  deleteKeys(...[lists.projectIssues(id), lists.projectIssuesInState(id, 'closed')].flatMap(counter)),
  purgeQuery(lists.projectMergeRequests(id)),
  deleteKeys(
    ...[
      lists.projectMergeRequests(id),
      ...['opened', 'closed', 'merged', 'locked'].map((state) =>
        lists.projectMergeRequestsInState(id, state),
      ),
    ].flatMap(counter),
  ),
  purgeQuery(lists.projectSnippets(id)),
  deleteKeys(...counter(lists.projectSnippets(id))),
];

/** The purge of a group's epics (none here): their lists, counters and iid counter. */
const epicsOfGroup = (id: number) => [
  purgeQuery(lists.groupEpics(id)),
  deleteKeys(
    ...[
      lists.groupEpics(id),
      lists.groupEpicsInState(id, 'opened'),
      lists.groupEpicsInState(id, 'closed'),
    ].flatMap(counter),
  ),
  deleteKeys(keys.epicIidCounter(id)),
];
const NOW_MS = Date.parse(NOW);
const run = (body: string, messageId = 'msg-1') =>
  handler(sqsEvent(sqsRecord(body, messageId)), lambdaContext('group-delete'));

/** A conditional delete of an item that may already belong to someone else (a route, a name). */
const deleteIfOwn = (key: { pk: string; sk: string }, id: number) =>
  transaction({
    Delete: {
      TableName: TABLE,
      Key: key,
      ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
      ExpressionAttributeValues: { ':id': id },
    },
  });
const deleteExisting = (key: { pk: string; sk: string }) => ({
  Delete: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(pk)' },
});

/** The sort key of backend's link to the `developers` LDAP group of `ldapmain`. */
const BACKEND_LINK_SK = keys.ldapGroupLink(5, 'ldapmain', 'cn', 'developers').sk;

pinCounterShards();

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
  ddb.on(BatchWriteCommand).resolves({});
  // backend as DELETE /groups/5 left it: out of its lists and the tree.
  const { l1: _l1, l2: _l2, tree: _tree, tpath: _tpath, ...marked } = groupItem(backend);
  store(
    { ...marked, deleting: true },
    groupMemberItem(backend, { userId: 7, level: 30 }),
    projectMemberItem(42, { userId: 7, level: 30 }),
    // One of its search postings, and a pending marker of a rename the index had not served.
    {
      ...keys.groupSearchPosting(5, '~bac'),
      kind: 'group_search_posting',
      group_id: 5,
      search_key: '~bac',
      l1: lists.groupSearchPostings('~bac').partition,
      sid: pad(5),
    },
    // An LDAP group link of the group.
    {
      pk: keys.group(5).pk,
      sk: BACKEND_LINK_SK,
      kind: 'ldap_group_link',
      group_id: 5,
      provider: 'ldapmain',
      cn: 'developers',
      filter: null,
      group_access: 30,
      created_at: NOW,
    },
    {
      ...keys.groupSearchPending(5),
      kind: 'group_search_pending',
      group_id: 5,
      version: 'v-1',
      l1: lists.groupSearchPending.partition,
      sid: pad(5),
    },
  );
});

describe('group-delete worker', () => {
  it('purges the projects (repository, uploads, members, route, name, item), the members, the route and the group', async () => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [], IsTruncated: false });
    s3.on(ListObjectsV2Command, { Prefix: 'uploads/42/' }).resolves({
      Contents: [{ Key: 'uploads/42/abc/x.png' }],
      IsTruncated: false,
    });
    s3.on(DeleteObjectCommand).resolves({});
    s3.on(DeleteObjectsCommand).resolves({});
    expect(await run('{"groupId":5}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      getCommand(groupKey(5)),
      treeQuery(tree.groups(3), '000000000003/000000000005/'),
      ...['private', 'internal', 'public'].map((visibility) =>
        listQuery(lists.namespaceProjects(5, visibility)),
      ),
      ...projectRead(42),
      // The repository lease, held while the project's files go (nothing else writes them meanwhile).
      {
        PutCommand: {
          TableName: TABLE,
          Item: {
            ...keys.repositoryLease(42),
            kind: 'repository_lease',
            holder: 'msg-1',
            until: NOW_MS + 600_000,
            expires: NOW_MS / 1000 + 600 + 86_400,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #until < :now OR holder = :holder',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':now': NOW_MS, ':holder': 'msg-1' },
        },
      },
      // The repository's commit point goes first, then its objects in the bucket.
      { DeleteCommand: { TableName: TABLE, Key: keys.repository(42) } },
      {
        DeleteCommand: {
          TableName: TABLE,
          Key: keys.repositoryLease(42),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': 'msg-1' },
        },
      },
      ...noteablesOfProject(42),
      // The project's counter shards are marked deleted (a late star, fork or issue is refused;
      // TTL ends them), then its partition is read for what else it holds.
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: shardTombstoneItems(keys.project(42).pk, 4).map((Item) => ({ PutRequest: { Item } })),
          },
        },
      },
      partitionQuery(keys.project(42).pk),
      transaction(
        deleteExisting(memberKey('PROJECT', 42, 7)),
        listCount(lists.projectMembers(42), -1),
        listCount(lists.projectMembershipsOfUser(7), -1),
      ),
      deleteIfOwn(keys.route('platform/backend/api'), 42),
      deleteIfOwn(keys.projectName(5, 'api'), 42),
      transaction(
        deleteExisting(projectKey(42)),
        listCount(lists.projectsWithVisibility('private'), -1),
        listCount(lists.namespaceProjects(5, 'private'), -1),
        ...counter(lists.projectMembers(42)).map((Key) => ({ Delete: { TableName: TABLE, Key } })),
      ),
      listQuery(lists.sharedWithGroup(5)),
      ...epicsOfGroup(5),
      // The shares of other groups with it (it keeps none of its own).
      listQuery(lists.groupsSharedWithGroup(5)),
      // Its LDAP group links.
      ldapLinksQuery(5),
      { DeleteCommand: { TableName: TABLE, Key: { pk: keys.group(5).pk, sk: BACKEND_LINK_SK } } },
      // Its LDAP sync state.
      { DeleteCommand: { TableName: TABLE, Key: keys.ldapSyncState(5) } },
      // Its labels, their titles and subscriptions, in one read of its partition (it has none).
      {
        QueryCommand: {
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.group(5).pk, ':prefix': 'LABEL' },
          ProjectionExpression: 'pk, sk',
          ConsistentRead: true,
          ExclusiveStartKey: undefined,
        },
      },
      // Its milestones (none here) and their titles, then its iid counter.
      {
        QueryCommand: {
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.group(5).pk, ':prefix': 'MILESTONE' },
          ProjectionExpression: 'pk, sk',
          ConsistentRead: true,
          ExclusiveStartKey: undefined,
        },
      },
      { DeleteCommand: { TableName: TABLE, Key: keys.groupIids(5) } },
      listQuery(lists.groupMembers(5)),
      transaction(
        deleteExisting(memberKey('GROUP', 5, 7)),
        listCount(lists.groupMembers(5), -1),
        listCount(lists.groupMembershipsOfUser(7), -1),
      ),
      // Its search postings and pending marker, in one read of its partition.
      {
        QueryCommand: {
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.group(5).pk, ':prefix': 'SEARCH' },
          ProjectionExpression: 'pk, sk',
          ConsistentRead: true,
          ExclusiveStartKey: undefined,
        },
      },
      { DeleteCommand: { TableName: TABLE, Key: keys.groupSearchPosting(5, '~bac') } },
      { DeleteCommand: { TableName: TABLE, Key: keys.groupSearchPending(5) } },
      deleteIfOwn(keys.route('platform/backend'), 5),
      transaction(deleteExisting(groupKey(5))),
    ]);
    expect(s3.calls().map((call) => call.args[0].input)).toEqual([
      // The repository: its refs document first, then whatever else is under its prefix.
      { Bucket: BUCKET, Key: 'repositories/42/refs.json' },
      { Bucket: BUCKET, Prefix: 'repositories/42/', ContinuationToken: undefined },
      { Bucket: BUCKET, Prefix: 'uploads/42/', ContinuationToken: undefined },
      { Bucket: BUCKET, Delete: { Objects: [{ Key: 'uploads/42/abc/x.png' }] } },
    ]);
  });

  it('a group already purged by an earlier delivery: one read, nothing else', async () => {
    expect(await run('{"groupId":77}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([getCommand(groupKey(77))]);
    expect(s3.calls()).toHaveLength(0);
  });

  it('an invalid message is reported as a batch item failure without touching the table', async () => {
    expect(await run('{"groupId":"5"}', 'bad-1')).toEqual({
      batchItemFailures: [{ itemIdentifier: 'bad-1' }],
    });
    expect(sentCommands()).toEqual([]);
  });
});
