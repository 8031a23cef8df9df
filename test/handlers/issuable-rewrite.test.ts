/**
 * Issues and merge requests following their labels and milestones: the reference-changes stream
 * consumer queues one issuable-rewrite message per label renamed or removed and per milestone
 * removed (and nothing else); the issuable-rewrite worker rewrites a page of a project's issues,
 * each by one conditional update of `labels` alone (re-read and decided again when an edit won
 * the race), and queues the next page with the Query's cursor.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as rewriteWorker } from '../../functions/workers/issuable-rewrite.ts';
import { handler as referenceChanges } from '../../functions/workers/reference-changes.ts';
import { lambdaContext, sqsRecord } from '../support/events.ts';
import { ddb, pad, resetMocks, SEP, sentCommands, sqs, TABLE } from './fixtures.ts';
import { givenWorld, store } from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-issuable-rewrite';
process.env.QUEUE_URL_ISSUABLE_REWRITE = QUEUE_URL;

const ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab/stream/2026-01-01T00:00:00.000';
const UPDATED = '2026-11-20T08:00:00.000Z';

const labelImage = (title: string) => ({
  ...keys.label('PROJECT#42', 5),
  kind: 'label',
  id: 5,
  title,
  color: '#FF0000',
  description: null,
  priority: null,
  owner_kind: 'project',
  owner_id: 42,
  created_at: UPDATED,
  updated_at: UPDATED,
});

/** An item image as DynamoDB's stream sends it (strings, numbers and nulls are all these have). */
const streamImage = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      value === null
        ? { NULL: true }
        : typeof value === 'number'
          ? { N: String(value) }
          : { S: String(value) },
    ]),
  );

function record(
  sequence: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): DynamoDBRecord {
  const image = (after ?? before) as Record<string, unknown>;
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_795_341_598,
      Keys: { pk: { S: String(image.pk) }, sk: { S: String(image.sk) } },
      ...(after ? { NewImage: streamImage(after) } : {}),
      ...(before ? { OldImage: streamImage(before) } : {}),
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: ARN,
  };
}

const consume = (records: DynamoDBRecord[]) =>
  referenceChanges({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext('reference-changes'));

const sentMessages = () =>
  sqs.commandCalls(SendMessageCommand).map((call) => ({
    QueueUrl: call.args[0].input.QueueUrl,
    body: JSON.parse(String(call.args[0].input.MessageBody)),
  }));

const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

const renamed = { kind: 'label', owner: { kind: 'project', id: 42 }, labelId: 5, title: 'bug' };

beforeEach(() => {
  resetMocks();
  givenWorld();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('reference-changes consumer', () => {
  it('queues the rewrite of a label renamed or removed and of a milestone removed, and only those', async () => {
    const milestone = {
      ...keys.milestone('GROUP#5', 8),
      kind: 'milestone',
      id: 8,
      iid: 1,
      title: 'v1',
      owner_kind: 'group',
      owner_id: 5,
      state: 'active',
    };
    expect(
      await consume([
        record(1, 'MODIFY', labelImage('bug'), labelImage('defect')),
        record(2, 'MODIFY', labelImage('defect'), { ...labelImage('defect'), color: '#00FF00' }),
        record(3, 'REMOVE', labelImage('defect'), undefined),
        record(4, 'INSERT', undefined, labelImage('new')),
        record(5, 'REMOVE', milestone, undefined),
        record(6, 'MODIFY', milestone, { ...milestone, title: 'v2' }),
      ]),
    ).toEqual({ batchItemFailures: [] });
    // Records of different items are handled side by side: in any order.
    expect(sentMessages().sort(byJson)).toEqual(
      [
        { QueueUrl: QUEUE_URL, body: { change: renamed } },
        { QueueUrl: QUEUE_URL, body: { change: { ...renamed, title: 'defect' } } },
        {
          QueueUrl: QUEUE_URL,
          body: { change: { kind: 'milestone', owner: { kind: 'group', id: 5 }, milestoneId: 8 } },
        },
      ].sort(byJson),
    );
    // It reads and writes nothing itself.
    expect(sentCommands()).toEqual([]);
  });
});

describe('issuable-rewrite worker', () => {
  const issueItem = (iid: number, labels: string[], updatedAt = UPDATED) => ({
    ...keys.issue(42, iid),
    kind: 'issue',
    id: 300 + iid,
    iid,
    labels,
    updated_at: updatedAt,
    l1: 'ISSUES#PROJECT#42',
    sid: `${pad(300 + iid)}`,
    supdated: `${updatedAt}${SEP}${pad(300 + iid)}`,
  });
  const cursor = { pk: 'ISSUE#42#2', sk: 'ISSUE', l1: 'ISSUES#PROJECT#42', sid: pad(302) };
  const relabel = (iid: number, read: string[], next: string[], updatedAt = UPDATED) => ({
    UpdateCommand: {
      TableName: TABLE,
      Key: keys.issue(42, iid),
      UpdateExpression: 'SET #labels = :next',
      ConditionExpression:
        'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #updated = :read AND #labels = :labels',
      ExpressionAttributeNames: { '#labels': 'labels', '#updated': 'updated_at', '#deleting': 'deleting' },
      ExpressionAttributeValues: { ':next': next, ':read': updatedAt, ':labels': read },
    },
  });
  const run = (message: unknown) =>
    rewriteWorker({ Records: [sqsRecord(JSON.stringify(message))] }, lambdaContext('issuable-rewrite'));

  beforeEach(() => {
    // The label is `defect` now.
    store(labelImage('defect'));
    ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({
      Items: [issueItem(1, ['bug', 'ui']), issueItem(2, ['ui'])],
      LastEvaluatedKey: cursor,
    });
  });

  it('rewrites the page’s issues that carry the old title, updated time kept, and queues the next page', async () => {
    const at = { step: 'issuables', projectId: 42, collection: 'issues' };
    expect(await run({ change: renamed, at })).toEqual({ batchItemFailures: [] });
    const commands = sentCommands();
    expect(
      commands.find(
        (command) =>
          'QueryCommand' in command && (command.QueryCommand as { IndexName?: string }).IndexName === 'l1-id',
      ),
    ).toEqual({
      QueryCommand: {
        TableName: TABLE,
        IndexName: 'l1-id',
        KeyConditionExpression: '#list = :list',
        ExpressionAttributeNames: {
          '#list': 'l1',
          '#labels': 'labels',
          '#milestone': 'milestone_id',
          '#updated': 'updated_at',
          '#deleting': 'deleting',
        },
        ExpressionAttributeValues: { ':list': 'ISSUES#PROJECT#42' },
        ProjectionExpression: 'pk, sk, #labels, #milestone, #updated, #deleting',
        Limit: 100,
      },
    });
    expect(commands.filter((command) => 'UpdateCommand' in command)).toEqual([
      relabel(1, ['bug', 'ui'], ['defect', 'ui']),
    ]);
    expect(sentMessages()).toEqual([
      { QueueUrl: QUEUE_URL, body: { change: renamed, at: { ...at, after: cursor } } },
    ]);
  });

  it('an edit that won the race is read again and the rewrite decided on it', async () => {
    ddb
      .on(UpdateCommand, { Key: keys.issue(42, 1) })
      .rejectsOnce(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      )
      .resolves({});
    const later = '2026-11-21T08:00:00.000Z';
    ddb.on(GetCommand, { Key: keys.issue(42, 1) }).resolves({ Item: issueItem(1, ['bug', 'api'], later) });
    const at = { step: 'issuables', projectId: 42, collection: 'issues', after: cursor };
    expect(await run({ change: renamed, at })).toEqual({ batchItemFailures: [] });
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([
      relabel(1, ['bug', 'ui'], ['defect', 'ui']),
      relabel(1, ['bug', 'api'], ['defect', 'api'], later),
    ]);
  });

  it('a project whose other label still bears the old title is left alone', async () => {
    // The project's group (backend, 5) has a label of the old title too.
    store({ ...labelImage('bug'), ...keys.label('GROUP#5', 6), id: 6, owner_kind: 'group', owner_id: 5 });
    const at = { step: 'issuables', projectId: 42, collection: 'issues' };
    expect(await run({ change: renamed, at })).toEqual({ batchItemFailures: [] });
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([]);
    expect(sentMessages()).toEqual([]);
  });

  it("a group's label: a page of its tree's projects, one message each, then the next visibility's", async () => {
    const change = { ...renamed, owner: { kind: 'group', id: 3 } };
    expect(await run({ change })).toEqual({ batchItemFailures: [] });
    expect(sentMessages()).toEqual([
      {
        QueueUrl: QUEUE_URL,
        body: { change, at: { step: 'issuables', projectId: 42, collection: 'issues' } },
      },
      { QueueUrl: QUEUE_URL, body: { change, at: { step: 'projects', visibility: 1 } } },
    ]);
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([]);
  });

  it("a removed milestone: the page's issues that carry it lose it, then the merge requests' turn", async () => {
    ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({
      Items: [
        { ...issueItem(1, []), milestone_id: 8 },
        { ...issueItem(2, []), milestone_id: 9 },
      ],
    });
    const change = { kind: 'milestone', owner: { kind: 'group', id: 5 }, milestoneId: 8 };
    expect(await run({ change, at: { step: 'issuables', projectId: 42, collection: 'issues' } })).toEqual({
      batchItemFailures: [],
    });
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.issue(42, 1),
          UpdateExpression: 'SET #milestone = :none',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #milestone = :id',
          ExpressionAttributeNames: { '#milestone': 'milestone_id', '#deleting': 'deleting' },
          ExpressionAttributeValues: { ':none': null, ':id': 8 },
        },
      },
    ]);
    expect(sentMessages()).toEqual([
      {
        QueueUrl: QUEUE_URL,
        body: { change, at: { step: 'issuables', projectId: 42, collection: 'merge_requests' } },
      },
    ]);
  });

  it('refuses a message that is not one (unbounded cursor values, unknown steps)', async () => {
    const long = { ...cursor, sid: 'x'.repeat(5000) };
    expect(
      await run({
        change: renamed,
        at: { step: 'issuables', projectId: 42, collection: 'issues', after: long },
      }),
    ).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    expect(await run({ change: renamed, at: { step: 'everything' } })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'msg-1' }],
    });
    expect(sentCommands()).toEqual([]);
  });
});
