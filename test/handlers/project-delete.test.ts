/**
 * DELETE /projects/:id (one transaction, one queue send) and the project-delete worker (the
 * repository and uploads under the repository lease, then every item of the project, each step
 * conditional or harmless twice).
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { handler as deleteProject } from '../../functions/projects/delete.ts';
import { handler as worker } from '../../functions/workers/project-delete.ts';
import { invoke, lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import {
  BUCKET,
  ddb,
  NOW,
  pad,
  pinCounterShards,
  REQUEST_CORRELATION,
  resetMocks,
  sentCommands,
  sqs,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BOB_TOKEN,
  batchGet,
  cancelled,
  conditionCheck,
  FORBIDDEN,
  givenWorld,
  listCount,
  listQuery,
  ok,
  PROJECT_NOT_FOUND,
  partitionQuery,
  projectCount,
  projectItem,
  projectKey,
  projectMemberItem,
  projectRead,
  shardKeys,
  shardTombstoneItems,
  shardTombstones,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const PROJECT_DELETE_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-project-delete';
process.env.QUEUE_URL_PROJECT_DELETE = PROJECT_DELETE_QUEUE_URL;

const s3 = mockClient(S3Client);

const ROUTE = keys.route('platform/backend/api');
const NAME = keys.projectName(5, 'api');
const releaseOwned = (Key: { pk: string; sk: string }) => ({
  Delete: {
    TableName: TABLE,
    Key,
    ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
    ExpressionAttributeValues: { ':id': 42 },
  },
});

/** The mark of api (42) as read: out of its lists and the tree, guarded by what it was built from. */
const mark = (relation: 'none' | number) => ({
  Update: {
    TableName: TABLE,
    Key: projectKey(42),
    UpdateExpression: 'SET deleting = :true, forked_from_project_id = :none REMOVE l1, l2, #tree, #tpath',
    ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting) AND l1 = :l1 AND l2 = :l2 AND path_with_namespace = :path AND #name = :name AND ${
      relation === 'none'
        ? '(attribute_not_exists(forked_from_project_id) OR attribute_type(forked_from_project_id, :nullType))'
        : 'forked_from_project_id = :source'
    }`,
    ExpressionAttributeNames: { '#tree': 'tree', '#tpath': 'tpath', '#name': 'name' },
    ExpressionAttributeValues: {
      ':true': true,
      ':none': null,
      ':l1': lists.projectsWithVisibility('private').partition,
      ':l2': lists.namespaceProjects(5, 'private').partition,
      ':path': 'platform/backend/api',
      ':name': 'API',
      ...(relation === 'none' ? { ':nullType': 'NULL' } : { ':source': relation }),
    },
  },
});
/** The fork leaves its source: the link goes, and the source (still there) counts one fork less on a shard. */
const leaveSource = (sourceId: number) => [
  {
    Delete: {
      TableName: TABLE,
      Key: keys.forkLink(sourceId, 42),
      ConditionExpression: 'attribute_exists(pk)',
    },
  },
  conditionCheck(projectKey(sourceId), 'attribute_exists(pk)'),
  projectCount(sourceId, 'forks_count', -1),
];
const markTransaction = (relation: 'none' | number) =>
  transaction(
    mark(relation),
    releaseOwned(ROUTE),
    releaseOwned(NAME),
    listCount(lists.projectsWithVisibility('private'), -1),
    listCount(lists.namespaceProjects(5, 'private'), -1),
    // From now on its counter shards refuse a late star, fork or issue.
    ...shardTombstones(keys.project(42).pk, 4),
    ...(relation === 'none' ? [] : leaveSource(relation)),
  );

const sentMessages = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
});

describe('DELETE /projects/:id', () => {
  it('an owner (through the group): marks it deleted in one transaction and queues the purge → 202', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: USER_TOKEN })).toEqual(
      ok({ message: '202 Accepted' }, 202),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      markTransaction('none'),
    ]);
    expect(sentMessages()).toEqual([
      { QueueUrl: PROJECT_DELETE_QUEUE_URL, MessageBody: '{"projectId":42}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a fork: its link and its source’s forks_count go in the same transaction', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    store({ ...projectItem(api), forked_from_project_id: 43 });
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: USER_TOKEN })).toEqual(
      ok({ message: '202 Accepted' }, 202),
    );
    expect(writesSent()).toEqual([markTransaction(43)]);
    expect(sentMessages()).toHaveLength(1);
  });

  it('the relation ended meanwhile: the project is read again and deleted as it is now', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    store({ ...projectItem(api), forked_from_project_id: 43 });
    let attempts = 0;
    ddb.on(TransactWriteCommand).callsFake(() => {
      if (++attempts > 1) return {};
      // Someone removed the fork relation just before our write.
      store(projectItem(api));
      throw cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None', 'ConditionalCheckFailed');
    });
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: USER_TOKEN })).toEqual(
      ok({ message: '202 Accepted' }, 202),
    );
    expect(sentCommands().slice(4)).toEqual([
      markTransaction(43),
      ...projectRead(42),
      markTransaction('none'),
    ]);
    expect(sentMessages()).toHaveLength(1);
  });

  it('a maintainer → 403, nothing written or queued', async () => {
    store(projectMemberItem(42, { userId: 7, level: 40 }));
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a private project the caller cannot see → 404 Project Not Found, nothing written or queued', async () => {
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: BOB_TOKEN })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('deleted by someone else between the read and the write → 404, nothing queued', async () => {
    ddb.on(TransactWriteCommand).callsFake(() => {
      store({ ...projectItem(api), deleting: true });
      throw cancelled('ConditionalCheckFailed', 'None', 'None', 'None', 'None');
    });
    expect(await invoke(deleteProject, 'DELETE', '/api/v4/projects/42', { token: USER_TOKEN })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(sentCommands().slice(4)).toEqual([markTransaction('none'), ...projectRead(42)]);
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('project-delete worker', () => {
  const HOOK = keys.hook(42, 11);
  const LOG = keys.hookLog(11, NOW, 900);
  const DELIVERY = keys.hookDelivery('d-1');
  const LINK = keys.forkLink(42, 50);
  const LEASE = keys.repositoryLease(42);
  const run = (body: string, messageId = 'msg-1') =>
    worker(sqsEvent(sqsRecord(body, messageId)), lambdaContext('project-delete'));

  beforeEach(() => {
    ddb.on(BatchWriteCommand).resolves({});
    // api as DELETE /projects/42 left it: out of its lists and the tree, route and name released.
    const { l1: _l1, l2: _l2, tree: _tree, tpath: _tpath, ...marked } = projectItem(api);
    store(
      { ...marked, deleting: true },
      projectMemberItem(42, { userId: 7, level: 30 }),
      { ...HOOK, kind: 'project_hook', id: 11, project_id: 42 },
      { ...LINK, kind: 'fork_link', source_id: 42, fork_id: 50, created_at: NOW },
      {
        ...LOG,
        kind: 'hook_log',
        id: 900,
        hook_id: 11,
        delivery_id: 'd-1',
        l1: lists.hookLogsOfOutcome(11, 'successful').partition,
        sid: pad(900),
      },
      {
        ...DELIVERY,
        kind: 'hook_delivery',
        id: 'd-1',
        status: 'delivered',
        payload_blob: 'hook-payloads/e-1.json',
      },
    );
    s3.on(ListObjectsV2Command).callsFake((input: { Prefix: string }) => ({
      Contents: [{ Key: `${input.Prefix}object` }],
      IsTruncated: false,
    }));
    s3.on(DeleteObjectsCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
  });

  const deleteKeys = (...keys: { pk: string; sk: string }[]) => ({
    BatchWriteCommand: { RequestItems: { [TABLE]: keys.map((Key) => ({ DeleteRequest: { Key } })) } },
  });
  /** The counter shards of a list's total (4: none of these lists is instance-wide). */
  const counter = (list: ListName) => shardKeys(listCounter(list).pk, 4);
  const purgeQuery = (list: ListName) => ({
    QueryCommand: {
      ...listQuery(list).QueryCommand,
      Limit: undefined,
      ProjectionExpression: 'pk, sk, group_id, iid',
    },
  });
  /** The hook's attempts of one outcome, found for the purge whatever their day. */
  const logListQuery = (outcome: string) => ({
    QueryCommand: {
      ...listQuery(lists.hookLogsOfOutcome(11, outcome)).QueryCommand,
      Limit: undefined,
      ProjectionExpression: 'pk, sk, delivery_id',
    },
  });
  const deleteExisting = (Key: { pk: string; sk: string }) => ({
    Delete: { TableName: TABLE, Key, ConditionExpression: 'attribute_exists(pk)' },
  });
  const leaseTaken = {
    PutCommand: {
      TableName: TABLE,
      Item: {
        ...LEASE,
        kind: 'repository_lease',
        holder: 'msg-1',
        until: Date.parse(NOW) + 600_000,
        expires: Date.parse(NOW) / 1000 + 600 + 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR #until < :now OR holder = :holder',
      ExpressionAttributeValues: { ':now': Date.parse(NOW), ':holder': 'msg-1' },
      ExpressionAttributeNames: { '#until': 'until' },
    },
  };
  const leaseReleased = {
    DeleteCommand: {
      TableName: TABLE,
      Key: LEASE,
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeValues: { ':holder': 'msg-1' },
    },
  };

  it('the repository and uploads under the lease, then issues, MRs, snippets, forks, hook logs, the partition, route, name and item', async () => {
    expect(await run('{"projectId":42}')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([
      ...projectRead(42),
      leaseTaken,
      // The repository's commit point goes first, then its objects in the bucket.
      { DeleteCommand: { TableName: TABLE, Key: keys.repository(42) } },
      leaseReleased,
      purgeQuery(lists.projectIssues(42)),
      // The open issues' total is the project's open_issues_count: its shards are the project's,
      // which stay marked deleted, so they are not among the list counters removed here.
      deleteKeys(...[lists.projectIssues(42), lists.projectIssuesInState(42, 'closed')].flatMap(counter)),
      purgeQuery(lists.projectMergeRequests(42)),
      deleteKeys(
        ...[
          lists.projectMergeRequests(42),
          ...['opened', 'closed', 'merged', 'locked'].map((state) =>
            lists.projectMergeRequestsInState(42, state),
          ),
        ].flatMap(counter),
      ),
      purgeQuery(lists.projectSnippets(42)),
      deleteKeys(...counter(lists.projectSnippets(42))),
      // Its counter shards stay marked deleted (TTL ends them); the rest of its partition goes.
      {
        BatchWriteCommand: {
          RequestItems: {
            [TABLE]: shardTombstoneItems(keys.project(42).pk, 4).map((Item) => ({ PutRequest: { Item } })),
          },
        },
      },
      partitionQuery(keys.project(42).pk),
      // The fork stays and loses its source, only while it still names this one.
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: projectKey(50),
          UpdateExpression: 'SET forked_from_project_id = :none',
          ConditionExpression: 'attribute_exists(pk) AND forked_from_project_id = :source',
          ExpressionAttributeValues: { ':none': null, ':source': 42 },
        },
      },
      logListQuery('successful'),
      batchGet(DELIVERY),
      deleteKeys(DELIVERY),
      deleteKeys(LOG),
      logListQuery('client_failure'),
      logListQuery('server_failure'),
      transaction(deleteExisting(LINK)),
      transaction(deleteExisting(HOOK)),
      transaction(
        deleteExisting(keys.projectMember(42, 7)),
        listCount(lists.projectMembers(42), -1),
        listCount(lists.projectMembershipsOfUser(7), -1),
      ),
      transaction(releaseOwned(ROUTE)),
      transaction(releaseOwned(NAME)),
      transaction(
        deleteExisting(projectKey(42)),
        ...counter(lists.projectMembers(42)).map((Key) => ({ Delete: { TableName: TABLE, Key } })),
      ),
    ]);
    expect(s3.calls().map((call) => call.args[0].input)).toEqual([
      // The refs document first: a removal cut short leaves no state naming missing packs.
      { Bucket: BUCKET, Key: 'repositories/42/refs.json' },
      { Bucket: BUCKET, Prefix: 'repositories/42/' },
      { Bucket: BUCKET, Delete: { Objects: [{ Key: 'repositories/42/object' }] } },
      { Bucket: BUCKET, Prefix: 'uploads/42/' },
      { Bucket: BUCKET, Delete: { Objects: [{ Key: 'uploads/42/object' }] } },
      { Bucket: BUCKET, Key: 'hook-payloads/e-1.json' },
    ]);
  });

  it('another job holds the repository lease: the message fails (retried later) and nothing is removed', async () => {
    ddb.on(PutCommand).rejects(Object.assign(new Error('held'), { name: 'ConditionalCheckFailedException' }));
    expect(await run('{"projectId":42}')).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    expect(sentCommands()).toEqual([...projectRead(42), leaseTaken]);
    expect(s3.calls()).toHaveLength(0);
  });

  it('a project already purged, or one not marked deleted: one read, nothing else', async () => {
    expect(await run('{"projectId":77}')).toEqual({ batchItemFailures: [] });
    expect(await run('{"projectId":43}', 'msg-2')).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([...projectRead(77), ...projectRead(43)]);
    expect(s3.calls()).toHaveLength(0);
  });
});
