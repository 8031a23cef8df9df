/**
 * A project moved out of a group keeps the group labels and milestones its issuables use: the
 * reference-changes stream consumer queues a `project-moved` rewrite for a project item whose
 * namespace's id changed out of a group (not for a rename or a group moved above it), and the
 * issuable-rewrite worker, on a page of the project's issues, makes the project's copies of what
 * they use and re-points each issue at the copied milestone by one conditional update of
 * `milestone_id` alone.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as rewriteWorker } from '../../functions/workers/issuable-rewrite.ts';
import { handler as referenceChanges } from '../../functions/workers/reference-changes.ts';
import { lambdaContext, sqsRecord } from '../support/events.ts';
import { ddb, pad, resetMocks, sentCommands, sqs, TABLE } from './fixtures.ts';
import {
  api,
  givenCounter,
  givenNextIid,
  givenWorld,
  groupNamespace,
  projectItem,
  qa,
  store,
} from './resource-fixtures.ts';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-issuable-rewrite';
process.env.QUEUE_URL_ISSUABLE_REWRITE = QUEUE_URL;

const ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab/stream/2026-01-01T00:00:00.000';
const AT = '2026-11-20T08:00:00.000Z';

function record(
  sequence: number,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): DynamoDBRecord {
  const image = (item: Record<string, unknown>) =>
    marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
  return {
    eventID: `event-${sequence}`,
    eventName: 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_795_341_598,
      Keys: { pk: { S: String(after.pk) }, sk: { S: String(after.sk) } },
      NewImage: image(after),
      OldImage: image(before),
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: ARN,
  };
}

const consume = (records: DynamoDBRecord[]) =>
  referenceChanges({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext('reference-changes'));
const run = (message: unknown) =>
  rewriteWorker({ Records: [sqsRecord(JSON.stringify(message))] }, lambdaContext('issuable-rewrite'));

const sentMessages = () =>
  sqs.commandCalls(SendMessageCommand).map((call) => ({
    QueueUrl: call.args[0].input.QueueUrl,
    body: JSON.parse(String(call.args[0].input.MessageBody)),
  }));

/** platform/backend/api (42) as it is in platform/backend, and once moved into qa. */
const inBackend = projectItem(api);
const inQa = projectItem({ ...api, namespace: groupNamespace(qa) });
const moved = { kind: 'project-moved', owner: { kind: 'project', id: 42 }, fromGroupIds: [3, 5] };

beforeEach(() => {
  resetMocks();
  givenWorld();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('reference-changes consumer, project items', () => {
  it('queues the carry of a project moved into another namespace, not of a group renamed or moved above it', async () => {
    const namespace = inBackend.namespace as Record<string, unknown>;
    const renamed = {
      ...inBackend,
      namespace: { ...namespace, path: 'back', full_path: 'platform/back' },
      path_with_namespace: 'platform/back/api',
    };
    const above = { ...inBackend, namespace: { ...namespace, group_ids: [9, 5], full_path: 'qa/backend' } };
    const described = { ...inBackend, description: 'Changed' };
    expect(
      await consume([
        record(1, inBackend, inQa),
        record(2, inBackend, renamed),
        record(3, inBackend, above),
        record(4, inBackend, described),
        // Out of a personal namespace: nothing to carry.
        record(5, { ...inQa, namespace: { ...namespace, id: 7, kind: 'user', group_ids: [] } }, inQa),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentMessages()).toEqual([{ QueueUrl: QUEUE_URL, body: { change: moved } }]);
    // It reads and writes nothing itself.
    expect(sentCommands()).toEqual([]);
  });
});

describe('issuable-rewrite worker, a project moved', () => {
  const groupLabel = (groupId: number, id: number, title: string, color: string) => ({
    ...keys.label(`GROUP#${groupId}`, id),
    kind: 'label',
    id,
    title,
    color,
    description: `${title} here`,
    priority: null,
    owner_kind: 'group',
    owner_id: groupId,
    created_at: AT,
    updated_at: AT,
  });
  const milestone = {
    ...keys.milestone('GROUP#3', 8),
    kind: 'milestone',
    id: 8,
    iid: 1,
    owner_kind: 'group',
    owner_id: 3,
    title: 'v1',
    description: 'the first',
    state: 'closed',
    start_date: '2026-02-01',
    due_date: '2026-03-01',
    created_at: AT,
    updated_at: AT,
  };
  const issue = (iid: number, labels: string[], milestoneId: number | null) => ({
    ...keys.issue(42, iid),
    labels,
    milestone_id: milestoneId,
    updated_at: AT,
  });

  beforeEach(() => {
    store(
      inQa,
      groupLabel(5, 11, 'bug', '#123456'),
      groupLabel(5, 12, 'shared', '#654321'),
      groupLabel(3, 13, 'unused', '#111111'),
      groupLabel(9, 14, 'shared', '#ABCDEF'),
      milestone,
    );
    givenCounter('label', 100);
    givenCounter('milestone', 200);
    givenNextIid(keys.projectIids(42), 'milestone', 4);
    ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({
      Items: [issue(1, ['bug', 'shared'], 8), issue(2, [], null)],
    });
  });

  it("makes the project's label and milestone its issues use, re-points them and queues the merge requests", async () => {
    const at = { step: 'issuables', projectId: 42, collection: 'issues' };
    expect(await run({ change: moved, at })).toEqual({ batchItemFailures: [] });
    const puts = sentCommands()
      .filter((command) => 'TransactWriteCommand' in command)
      .flatMap(
        (command) =>
          (command.TransactWriteCommand as { TransactItems: { Put?: { Item: Record<string, unknown> } }[] })
            .TransactItems,
      )
      .flatMap((entry) =>
        entry.Put && ['label', 'milestone'].includes(String(entry.Put.Item.kind)) ? [entry.Put.Item] : [],
      );
    expect(puts).toEqual([
      expect.objectContaining({
        pk: 'PROJECT#42',
        kind: 'label',
        title: 'bug',
        color: '#123456',
        description: 'bug here',
        priority: null,
        owner_kind: 'project',
        owner_id: 42,
      }),
      expect.objectContaining({
        pk: 'PROJECT#42',
        kind: 'milestone',
        iid: 4,
        title: 'v1',
        description: 'the first',
        state: 'closed',
        start_date: '2026-02-01',
        due_date: '2026-03-01',
        owner_kind: 'project',
        owner_id: 42,
      }),
    ]);
    const copy = Number(puts[1]?.id);
    expect(copy).not.toBe(8);
    // The issue's own update (the others take ids and iids).
    const issueUpdates = ddb
      .commandCalls(UpdateCommand)
      .filter((call) => String(call.args[0].input.Key?.pk).startsWith('ISSUE#'))
      .map((call) => ({ UpdateCommand: call.args[0].input }));
    expect(issueUpdates).toEqual([
      {
        UpdateCommand: {
          TableName: TABLE,
          Key: keys.issue(42, 1),
          UpdateExpression: 'SET #milestone = :to',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #milestone = :from',
          ExpressionAttributeNames: { '#milestone': 'milestone_id', '#deleting': 'deleting' },
          ExpressionAttributeValues: { ':to': copy, ':from': 8 },
        },
      },
    ]);
    expect(sentMessages()).toEqual([
      {
        QueueUrl: QUEUE_URL,
        body: { change: moved, at: { step: 'issuables', projectId: 42, collection: 'merge_requests' } },
      },
    ]);
  });

  it('run again, uses the label and milestone made the first time', async () => {
    store(
      {
        ...groupLabel(5, 101, 'bug', '#123456'),
        ...keys.label('PROJECT#42', 101),
        owner_kind: 'project',
        owner_id: 42,
      },
      { ...milestone, ...keys.milestone('PROJECT#42', 201), id: 201, owner_kind: 'project', owner_id: 42 },
    );
    ddb.on(QueryCommand, { IndexName: 'l1-id' }).resolves({ Items: [issue(1, ['bug', 'shared'], 201)] });
    const at = { step: 'issuables', projectId: 42, collection: 'issues', after: { sid: pad(1) } };
    expect(await run({ change: moved, at })).toEqual({ batchItemFailures: [] });
    expect(sentCommands().filter((command) => 'TransactWriteCommand' in command)).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
  });
});
