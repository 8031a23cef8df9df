/**
 * The delivery sweep and the pending list it reads: a delivery joins the list (a shard by a hash of
 * its id, by created time) when written, leaves it when it settles, records when its message is
 * due while it waits, and the sweep — a Query per shard, never a Scan — sends the message of every
 * delivery nothing has been expected of for HOOK_DELIVERY_SWEEP_AGE_SECONDS again, with the same
 * delivery id, after marking it so that an overlapping run does not send it too.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryResult } from '#delivery/send.ts';
import { recordDeliveries } from '#store/hooks/hook-deliveries.ts';
import { PENDING_DELIVERY_SHARDS, pendingDeliveryShard } from '#store/table/hook-delivery-keys.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as sweep } from '../../functions/schedules/hook-delivery-sweep.ts';
import { handler as worker } from '../../functions/workers/hook-delivery.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { ddb, NOW, resetMocks, sqs, TABLE } from './fixtures.ts';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-hook-delivery';
process.env.QUEUE_URL_HOOK_DELIVERY = QUEUE;
process.env.QUEUE_DLQ_URL_HOOK_DELIVERY = `${QUEUE}-dlq`;

let answer: DeliveryResult;
vi.mock('#delivery/send.ts', () => ({ sendDelivery: async () => answer }));

const NOW_MS = Date.parse(NOW);
/** The default age: 300 s before NOW. */
const BEFORE = '2026-11-22T09:55:00.000Z';
const BEFORE_MS = Date.parse(BEFORE);

const event: ScheduledEvent = {
  version: '0',
  id: 'sweep-run-1',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: '2026-11-22T10:00:00Z',
  region: 'us-east-1',
  resources: ['arn:aws:events:us-east-1:123456789012:rule/hook-delivery-sweep'],
  detail: {},
};

const shardQuery = (shard: number, before = BEFORE, startKey?: Record<string, unknown>) => ({
  TableName: TABLE,
  IndexName: 'l1-created_at',
  KeyConditionExpression: '#list = :partition AND #sort <= :to',
  ExpressionAttributeNames: { '#list': 'l1', '#sort': 'screated' },
  ExpressionAttributeValues: { ':partition': lists.pendingDeliveries(shard).partition, ':to': before },
  ScanIndexForward: true,
  Limit: 100,
  ProjectionExpression: 'id, lease_until, due_at',
  ExclusiveStartKey: startKey,
});

const resendMark = (id: string, before = BEFORE_MS) => ({
  TableName: TABLE,
  Key: keys.hookDelivery(id),
  UpdateExpression: 'SET due_at = :now',
  ConditionExpression:
    'attribute_exists(pk) AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :before) AND (attribute_not_exists(due_at) OR due_at < :before)',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':now': NOW_MS, ':before': before, ':pending': 'pending' },
});

const sentBodies = () =>
  sqs.commandCalls(SendMessageCommand).map((call) => ({
    queue: call.args[0].input.QueueUrl,
    body: JSON.parse(String(call.args[0].input.MessageBody)),
    correlation: call.args[0].input.MessageAttributes?.CorrelationId?.StringValue,
  }));

beforeEach(() => {
  resetMocks();
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(UpdateCommand).resolves({});
  sqs.on(SendMessageCommand).resolves({});
});
afterEach(() => {
  delete process.env.HOOK_DELIVERY_SWEEP_AGE_SECONDS;
});

describe('hook-delivery-sweep schedule', () => {
  it('queries every shard of the pending list up to the age, and resends only what is overdue', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':partition': lists.pendingDeliveries(3).partition } })
      .resolves({
        Items: [
          // Written, its message lost: never leased, nothing due.
          { id: 'lost' },
          // Being tried now (a live lease), or waiting for a retry due later: left alone.
          { id: 'leased', lease_until: NOW_MS + 20_000 },
          { id: 'retrying', lease_until: NOW_MS - 3_600_000, due_at: NOW_MS + 60_000 },
          // Its worker died holding the lease long ago, its retry long overdue.
          { id: 'stale', lease_until: BEFORE_MS - 1, due_at: BEFORE_MS - 10 },
          // Resent by another run just now: left alone.
          { id: 'resent', due_at: NOW_MS - 1000 },
        ],
      });
    ddb
      .on(UpdateCommand, { Key: keys.hookDelivery('stale') })
      .resolves({})
      .on(UpdateCommand, { Key: keys.hookDelivery('lost') })
      .resolves({});

    expect(await sweep(event, lambdaContext())).toEqual({ resent: 2 });

    const queries = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries).toHaveLength(PENDING_DELIVERY_SHARDS);
    expect(queries).toEqual(
      expect.arrayContaining(
        Array.from({ length: PENDING_DELIVERY_SHARDS }, (_, shard) => shardQuery(shard)),
      ),
    );
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual(
      expect.arrayContaining([resendMark('lost'), resendMark('stale')]),
    );
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
    // The same message as the fan-out's: the delivery id, hence the receiver's Idempotency-Key.
    expect(sentBodies()).toEqual(
      expect.arrayContaining([
        { queue: QUEUE, body: { deliveryId: 'lost' }, correlation: 'sweep-run-1' },
        { queue: QUEUE, body: { deliveryId: 'stale' }, correlation: 'sweep-run-1' },
      ]),
    );
    expect(sentBodies()).toHaveLength(2);
  });

  it('sends nothing for a delivery that settled, was claimed or resent since it was read', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':partition': lists.pendingDeliveries(0).partition } })
      .resolves({ Items: [{ id: 'raced' }] });
    ddb.on(UpdateCommand).rejects(
      Object.assign(new Error('The conditional request failed'), {
        name: 'ConditionalCheckFailedException',
      }),
    );
    expect(await sweep(event, lambdaContext())).toEqual({ resent: 0 });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('reads a shard page by page, and takes its age from HOOK_DELIVERY_SWEEP_AGE_SECONDS', async () => {
    process.env.HOOK_DELIVERY_SWEEP_AGE_SECONDS = '60';
    const before = '2026-11-22T09:59:00.000Z';
    const next = { ...keys.hookDelivery('a'), l1: lists.pendingDeliveries(5).partition, screated: 'x' };
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':partition': lists.pendingDeliveries(5).partition } })
      .resolvesOnce({ Items: [{ id: 'a' }], LastEvaluatedKey: next })
      .resolvesOnce({ Items: [{ id: 'b' }] });
    expect(await sweep(event, lambdaContext())).toEqual({ resent: 2 });
    const shard5 = ddb
      .commandCalls(QueryCommand)
      .map((call) => call.args[0].input)
      .filter(
        (input) => input.ExpressionAttributeValues?.[':partition'] === lists.pendingDeliveries(5).partition,
      );
    expect(shard5).toEqual([shardQuery(5, before), shardQuery(5, before, next)]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      resendMark('a', Date.parse(before)),
      resendMark('b', Date.parse(before)),
    ]);
  });
});

describe('the pending list', () => {
  const ID = '0f6b1c2d-3e4f-5a6b-a7c8-9d0e1f2a3b4c';
  const key = keys.hookDelivery(ID);
  const hookKey = keys.hook(7, 3);
  /** The hook as the fan-out wrote it into the delivery. */
  const target = (fields: Record<string, unknown> = {}) => ({
    url: 'https://receiver.example.com/hook',
    enable_ssl_verification: true,
    recent_failures: 0,
    ...fields,
  });
  const delivery = (fields: Record<string, unknown> = {}) => ({
    ...key,
    id: ID,
    hook_id: 3,
    project_id: 7,
    trigger: 'issue_hooks',
    event_uuid: 'aaaaaaaa-bbbb-5ccc-addd-eeeeeeeeeeee',
    payload: '{}',
    target: target(),
    status: 'pending',
    attempts: 0,
    created_at: NOW,
    kind: 'hook_delivery',
    ...fields,
  });
  const hook = (fields: Record<string, unknown> = {}) => ({
    ...hookKey,
    kind: 'project_hook',
    id: 3,
    project_id: 7,
    url: 'https://receiver.example.com/hook',
    enable_ssl_verification: true,
    issues_events: true,
    recent_failures: 0,
    created_at: NOW,
    ...fields,
  });
  /** The delivery is kept a day longer than the log item of an attempt made now (HOOK_LOG_DAYS 31). */
  const EXPIRES = NOW_MS / 1000 + 32 * 86_400;
  const deliveryUpdates = () =>
    ddb
      .commandCalls(UpdateCommand)
      .map((call) => call.args[0].input)
      .filter((input) => input.Key?.pk === key.pk);
  const run = () => worker(sqsEvent(sqsRecord(JSON.stringify({ deliveryId: ID }), 'm-1')), lambdaContext());

  beforeEach(() => {
    ddb.on(GetCommand, { Key: key }).resolves({ Item: delivery() });
    ddb.on(UpdateCommand, { Key: key }).resolves({ Attributes: { attempts: 1 } });
    ddb.on(UpdateCommand, { Key: hookKey }).resolves({ Attributes: hook({ recent_failures: 1 }) });
    ddb.on(UpdateCommand, { Key: keys.idCounter('hook_log') }).resolves({ Attributes: { value: 10 } });
    ddb.on(PutCommand).resolves({});
  });

  it('takes a new delivery in, in the shard of its id, by created time, with what its attempts need of the hook', async () => {
    expect(
      await recordDeliveries(
        [
          {
            id: ID,
            hook_id: 3,
            project_id: 7,
            trigger: 'issue_hooks',
            event_uuid: delivery().event_uuid,
            target: target({ token: 'secret' }),
          },
        ],
        { payload: '{}' },
      ),
    ).toEqual([ID]);
    const item = ddb.commandCalls(PutCommand)[0]?.args[0].input.Item;
    expect(pendingDeliveryShard(ID)).toBeGreaterThanOrEqual(0);
    expect(pendingDeliveryShard(ID)).toBeLessThan(PENDING_DELIVERY_SHARDS);
    expect(item).toMatchObject({
      ...key,
      status: 'pending',
      l1: lists.pendingDeliveries(pendingDeliveryShard(ID)).partition,
      screated: `${NOW}\u0000${ID}`,
      target: target({ token: 'secret' }),
      expires: EXPIRES,
    });
    // No other list order: the item is in the created-time index only.
    expect(item).not.toHaveProperty('sid');
    expect(item).not.toHaveProperty('l2');
  });

  it('spreads deliveries over every shard', () => {
    const shards = new Set(Array.from({ length: 400 }, (_, n) => pendingDeliveryShard(`delivery-${n}`)));
    expect(shards.size).toBe(PENDING_DELIVERY_SHARDS);
  });

  it('lets a delivery go when it settles, and with it the hook’s secrets', async () => {
    answer = { kind: 'response', status: 200, headers: {}, body: '', durationMs: 3 } as DeliveryResult;
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(deliveryUpdates().at(-1)).toEqual({
      TableName: TABLE,
      Key: key,
      UpdateExpression:
        'SET #status = :status, expires = :expires REMOVE lease_until, due_at, #list, #sort, #target',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#list': 'l1',
        '#sort': 'screated',
        '#target': 'target',
      },
      ExpressionAttributeValues: { ':status': 'delivered', ':expires': EXPIRES },
    });
  });

  it('keeps a delivery waiting for its retry, with the time the retry is due and its hook as last found', async () => {
    answer = { kind: 'response', status: 503, headers: {}, body: '', durationMs: 3 } as DeliveryResult;
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(deliveryUpdates().at(-1)).toEqual({
      TableName: TABLE,
      Key: key,
      UpdateExpression:
        'SET #status = :status, due_at = :due, expires = :expires, #target = :target REMOVE lease_until',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status', '#target': 'target' },
      ExpressionAttributeValues: {
        ':status': 'pending',
        ':due': NOW_MS + 1000,
        ':expires': EXPIRES,
        ':target': target({ recent_failures: 1 }),
      },
    });
  });

  it('records when a temporarily disabled hook’s delivery comes back, so the sweep leaves it alone', async () => {
    const until = new Date(NOW_MS + 90_000).toISOString();
    ddb
      .on(GetCommand, { Key: key })
      .resolves({ Item: delivery({ target: target({ recent_failures: 5, disabled_until: until }) }) });
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(deliveryUpdates()).toEqual([
      {
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET due_at = :due',
        ConditionExpression: 'attribute_exists(pk) AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':due': NOW_MS + 90_000, ':pending': 'pending' },
      },
    ]);
  });
});
