/**
 * The group-transfer worker: a finished move (no mark with the message's token) is left alone, a
 * move still held by its settler defers the message (SQS visibility) to the end of the lease, and a
 * move cut short is claimed (conditionally, so one taker alone settles it), its projects still at
 * the old place moved under the same token, and its marks removed with the ancestors' counts.
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler } from '../../functions/workers/group-transfer.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { ddb, NOW, pad, resetMocks, sqs, TABLE } from './fixtures.ts';
import {
  backend,
  givenWorld,
  groupItem,
  groupKey,
  qa,
  routeItem,
  store,
  writesSent,
} from './resource-fixtures.ts';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-group-transfer';
process.env.QUEUE_URL_GROUP_TRANSFER = QUEUE;

const NOW_MS = Date.parse(NOW);
const TOKEN = 'c0ffee00-0000-4000-8000-000000000001';
const body = JSON.stringify({ groupId: 5, token: TOKEN });
const record = () => ({ ...sqsRecord(body, 'msg-1'), receiptHandle: 'handle-1' });
const run = () => handler(sqsEvent(record()), lambdaContext('group-transfer'));

/** backend (5) as the first transaction of "backend into qa" leaves it, marked `since` then. */
function givenMoveStarted(since: number, token = TOKEN): void {
  store({
    ...groupItem({
      ...backend,
      parent_id: qa.id,
      ancestor_ids: [qa.id],
      full_path: 'qa/backend',
      full_name: 'QA / Backend',
      visibility: 'private',
    }),
    moving: token,
    move: { token, since, from_root: 3, from_prefix: `${pad(3)}/${pad(5)}/`, counted: [3, 9] },
  });
  store(routeItem('qa/backend', 'group', 5));
}

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('group-transfer worker', () => {
  it('a finished move (the group carries no mark, or another move’s) → nothing written, done', async () => {
    expect(await run()).toEqual({ batchItemFailures: [] });
    givenMoveStarted(NOW_MS - 600_000, 'another-move');
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(writesSent()).toEqual([]);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a move its settler still holds → the message deferred to the lease’s end, reported failed', async () => {
    givenMoveStarted(NOW_MS - 20_000);
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE, ReceiptHandle: 'handle-1', VisibilityTimeout: 40 },
    ]);
    expect(writesSent()).toEqual([]);
  });

  it('a move another taker claimed first → deferred by a whole lease, nothing else written', async () => {
    givenMoveStarted(NOW_MS - 61_000);
    ddb.on(UpdateCommand, { Key: groupKey(5) }).rejects(
      Object.assign(new Error('The conditional request failed'), {
        name: 'ConditionalCheckFailedException',
      }),
    );
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-1' }] });
    expect(writesSent()).toEqual([claimOf(NOW_MS - 61_000)]);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE, ReceiptHandle: 'handle-1', VisibilityTimeout: 60 },
    ]);
  });

  it('a move cut short → claimed, its project moved under the same token, the marks removed → done', async () => {
    givenMoveStarted(NOW_MS - 61_000);
    expect(await run()).toEqual({ batchItemFailures: [] });
    const writes = writesSent();
    expect(writes[0]).toEqual(claimOf(NOW_MS - 61_000));
    // The project still at the old place follows, guarded by the group still carrying this token.
    const projectMove = (writes[1] as { TransactWriteCommand: { TransactItems: Record<string, unknown>[] } })
      .TransactWriteCommand.TransactItems;
    expect(projectMove[0]).toMatchObject({
      Update: { Key: keys.project(42) },
    });
    expect(projectMove[1]).toEqual({
      ConditionCheck: {
        TableName: TABLE,
        Key: groupKey(5),
        ConditionExpression: 'moving = :token AND full_path = :path AND full_name = :name',
        ExpressionAttributeValues: { ':token': TOKEN, ':path': 'qa/backend', ':name': 'QA / Backend' },
      },
    });
    expect(writes.at(-1)).toEqual({
      TransactWriteCommand: {
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: groupKey(5),
              UpdateExpression: 'REMOVE moving, #move',
              ConditionExpression: 'moving = :token',
              ExpressionAttributeNames: { '#move': 'move' },
              ExpressionAttributeValues: { ':token': TOKEN },
            },
          },
          ...[3, 9].map((id) => ({
            Update: {
              TableName: TABLE,
              Key: groupKey(id),
              UpdateExpression: 'ADD moves_below :minus',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          })),
        ],
      },
    });
    expect(sqs.calls()).toHaveLength(0);
  });

  it('a message that names no move → reported failed, nothing read or written', async () => {
    const result = await handler(
      sqsEvent(sqsRecord(JSON.stringify({ groupId: 5, token: '' }), 'bad-1')),
      lambdaContext('group-transfer'),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad-1' }] });
    expect(ddb.calls()).toHaveLength(0);
  });
});

/** The taker's claim: the mark's `since` moved to now, if it is still the one read. */
function claimOf(seen: number) {
  return {
    UpdateCommand: {
      TableName: TABLE,
      Key: groupKey(5),
      UpdateExpression: 'SET #move.#since = :now',
      ConditionExpression: 'moving = :token AND #move.#since = :seen',
      ExpressionAttributeNames: { '#move': 'move', '#since': 'since' },
      ExpressionAttributeValues: { ':now': NOW_MS, ':token': TOKEN, ':seen': seen },
    },
  };
}
