/**
 * Issues and merge requests following their labels and milestones: the reference-changes stream
 * consumer queues one issuable-rewrite message per label renamed or removed and per milestone
 * removed (and nothing else); the issuable-rewrite worker rewrites a page of a project's issues,
 * each by one conditional update of `labels` alone (re-read and decided again when an edit won
 * the race), and queues the next page with the Query's cursor; a group's label also walks the
 * groups of its tree and relabels their epics likewise.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as rewriteWorker } from '../../functions/workers/issuable-rewrite.ts';
import { handler as referenceChanges } from '../../functions/workers/reference-changes.ts';
import { lambdaContext, sqsRecord, streamImage, streamRecord } from '../support/events.ts';
import { ddb, pad, resetMocks, SEP, sentCommands, sqs, TABLE } from './fixtures.ts';
import { givenWorld, store } from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-issuable-rewrite';
process.env.QUEUE_URL_ISSUABLE_REWRITE = QUEUE_URL;

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

/** A stream record of an item changing from `before` to `after` (either absent: none). */
function record(
  sequence: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): DynamoDBRecord {
  const image = (after ?? before) as Record<string, unknown>;
  return streamRecord(sequence, eventName, {
    keys: streamImage({ pk: image.pk, sk: image.sk }),
    ...(after ? { newImage: streamImage(after) } : {}),
    ...(before ? { oldImage: streamImage(before) } : {}),
  });
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

  it("a group's label: its tree's groups for their epics, and a page of its tree's projects, one message each, then the next visibility's", async () => {
    const change = { ...renamed, owner: { kind: 'group', id: 3 } };
    expect(await run({ change })).toEqual({ batchItemFailures: [] });
    expect(sentMessages()).toEqual([
      { QueueUrl: QUEUE_URL, body: { change, at: { step: 'groups' } } },
      {
        QueueUrl: QUEUE_URL,
        body: { change, at: { step: 'issuables', projectId: 42, collection: 'issues' } },
      },
      { QueueUrl: QUEUE_URL, body: { change, at: { step: 'projects', visibility: 1 } } },
    ]);
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([]);
  });

  it("a group's label, its groups' step: a message for each group of its tree", async () => {
    const change = { ...renamed, owner: { kind: 'group', id: 3 } };
    expect(await run({ change, at: { step: 'groups' } })).toEqual({ batchItemFailures: [] });
    expect(sentMessages().sort(byJson)).toEqual(
      [
        { QueueUrl: QUEUE_URL, body: { change, at: { step: 'epics', groupId: 3 } } },
        { QueueUrl: QUEUE_URL, body: { change, at: { step: 'epics', groupId: 5 } } },
      ].sort(byJson),
    );
  });

  it("a group's label, a group's epics: those that carry the old title are relabelled, then the next page", async () => {
    // Group 3's label 5 is `defect` now; backend (5) is its subgroup.
    store({ ...labelImage('defect'), ...keys.label('GROUP#3', 5), owner_kind: 'group', owner_id: 3 });
    const epicItem = (id: number, labels: string[]) => ({
      ...keys.epic(id),
      kind: 'epic',
      id,
      labels,
      updated_at: UPDATED,
    });
    ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({
      Items: [epicItem(71, ['bug']), epicItem(72, ['ui'])],
      LastEvaluatedKey: { pk: 'EPIC#72', sk: 'EPIC', l1: 'EPICS#GROUP#5', sid: pad(72) },
    });
    const change = { ...renamed, owner: { kind: 'group', id: 3 } };
    const at = { step: 'epics', groupId: 5 };
    expect(await run({ change, at })).toEqual({ batchItemFailures: [] });
    expect(sentCommands().filter((command) => 'UpdateCommand' in command)).toEqual([
      { UpdateCommand: { ...relabel(1, ['bug'], ['defect']).UpdateCommand, Key: keys.epic(71) } },
    ]);
    expect(sentMessages()).toEqual([
      {
        QueueUrl: QUEUE_URL,
        body: {
          change,
          at: { ...at, after: { pk: 'EPIC#72', sk: 'EPIC', l1: 'EPICS#GROUP#5', sid: pad(72) } },
        },
      },
    ]);
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
