/**
 * The hook-delivery worker: one attempt per message, the same message deferred (SQS visibility) by
 * the schedule or the receiver's Retry-After, settled deliveries never sent again, a temporarily
 * disabled hook's deliveries held back until it is enabled, and the message moved to the
 * dead-letter queue after the last attempt. An attempt reads its delivery only (the hook travels
 * in it); what its hook's failure count finds is kept for the next attempt; the log write after
 * the POST never fails the record; a batch's records run side by side, each settled alone.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryResult, OutgoingDelivery } from '#delivery/send.ts';
import { MAX_DELIVERY_ATTEMPTS } from '#domain/hook-deliveries.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler } from '../../functions/workers/hook-delivery.ts';
import { captured } from '../support/captured-logs.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { ddb, NOW, pad, resetMocks, sqs, TABLE } from './fixtures.ts';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-hook-delivery';
const DLQ = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-hook-delivery-dlq';
process.env.QUEUE_URL_HOOK_DELIVERY = QUEUE;
process.env.QUEUE_DLQ_URL_HOOK_DELIVERY = DLQ;

const sent: OutgoingDelivery[] = [];
let answer: DeliveryResult;
/** When set, each send waits for it (and says it started): to hold receivers open. */
let held: { started: string[]; release: Promise<void> } | undefined;
vi.mock('#delivery/send.ts', () => ({
  sendDelivery: async (delivery: OutgoingDelivery) => {
    sent.push(delivery);
    if (held) {
      held.started.push(delivery.headers['Idempotency-Key'] as string);
      await held.release;
    }
    return answer;
  },
}));

const DELIVERY_ID = '0f6b1c2d-3e4f-5a6b-a7c8-9d0e1f2a3b4c';
const deliveryKey = keys.hookDelivery(DELIVERY_ID);
const hookKey = keys.hook(7, 3);
const PAYLOAD = JSON.stringify({ object_kind: 'issue', object_attributes: { iid: 1 } });
const TOKEN = 'shh-its-a-secret-token';

/** The hook as the fan-out wrote it into the delivery. */
const target = (fields: Record<string, unknown> = {}) => ({
  url: 'https://receiver.example.com/hook',
  token: TOKEN,
  enable_ssl_verification: true,
  recent_failures: 0,
  ...fields,
});

const deliveryItem = (fields: Record<string, unknown> = {}) => ({
  ...deliveryKey,
  id: DELIVERY_ID,
  hook_id: 3,
  project_id: 7,
  trigger: 'issue_hooks',
  event_uuid: 'aaaaaaaa-bbbb-5ccc-addd-eeeeeeeeeeee',
  payload: PAYLOAD,
  target: target(),
  status: 'pending',
  attempts: 0,
  created_at: NOW,
  kind: 'hook_delivery',
  ...fields,
});

const hookItem = (fields: Record<string, unknown> = {}) => ({
  ...hookKey,
  kind: 'project_hook',
  id: 3,
  project_id: 7,
  url: 'https://receiver.example.com/hook',
  token: TOKEN,
  enable_ssl_verification: true,
  issues_events: true,
  recent_failures: 0,
  created_at: NOW,
  ...fields,
});

/** The failure count's write: what it returns (the hook after it), or its refusal. */
type FailureCount = Record<string, unknown> | ConditionalCheckFailedException;

function given(delivery: Record<string, unknown> | undefined, attempt = 1, counted?: FailureCount) {
  ddb.on(GetCommand, { Key: deliveryKey }).resolves({ Item: delivery });
  ddb.on(UpdateCommand).resolves({ Attributes: { attempts: attempt } });
  if (counted instanceof Error) ddb.on(UpdateCommand, { Key: hookKey }).rejects(counted);
  else
    ddb
      .on(UpdateCommand, { Key: hookKey })
      .resolves({ Attributes: counted ?? hookItem({ recent_failures: 1 }) });
  ddb.on(UpdateCommand, { Key: keys.idCounter('hook_log') }).resolves({ Attributes: { value: 10 } });
  ddb.on(PutCommand).resolves({});
}

/** The refusal of a failure count: the hook as stored comes with it, or nothing when it is gone. */
const refused = (stored?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(stored ? { Item: marshall(stored) } : {}),
  });

const record = sqsRecord(JSON.stringify({ deliveryId: DELIVERY_ID }), 'm-1');
const run = () => handler(sqsEvent(record), lambdaContext());
const updates = () =>
  ddb
    .commandCalls(UpdateCommand)
    .map((call) => call.args[0].input)
    .filter((input) => input.Key?.pk !== keys.idCounter('hook_log').pk);
const deliveryUpdates = () => updates().filter((input) => input.Key?.pk === deliveryKey.pk);
const response = (status: number, extra: Partial<DeliveryResult> = {}): DeliveryResult =>
  ({ kind: 'response', status, headers: {}, body: '', durationMs: 12, ...extra }) as DeliveryResult;
/** A delivery kept a day longer than the log item of an attempt made now (HOOK_LOG_DAYS 31). */
const EXPIRES = Date.parse(NOW) / 1000 + 32 * 86_400;

beforeEach(() => {
  resetMocks();
  sent.length = 0;
  held = undefined;
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
  sqs.on(SendMessageCommand).resolves({});
});

describe('hook-delivery worker', () => {
  it('sends once with the delivery id as Idempotency-Key and settles it on 2xx', async () => {
    given(deliveryItem());
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: 'https://receiver.example.com/hook',
      body: PAYLOAD,
      verifyTls: true,
    });
    expect(sent[0]?.headers).toMatchObject({
      'Idempotency-Key': DELIVERY_ID,
      'X-Gitlab-Event': 'Issue Hook',
      'X-Gitlab-Event-UUID': 'aaaaaaaa-bbbb-5ccc-addd-eeeeeeeeeeee',
      'X-Gitlab-Token': TOKEN,
    });
    // The claim, then the settlement, which drops the hook's secrets from the delivery.
    expect(updates()[0]).toMatchObject({
      Key: deliveryKey,
      ConditionExpression: expect.stringContaining('lease_until'),
    });
    expect(updates().at(-1)).toEqual({
      TableName: TABLE,
      Key: deliveryKey,
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
    // A hook without failures is not written on success.
    expect(updates().filter((input) => input.Key?.pk === hookKey.pk)).toEqual([]);
    // The attempt is logged in its hook's partition of the day, by created time and id, the token
    // masked, the request body left in the delivery, and no local-index attribute.
    const log = ddb.commandCalls(PutCommand)[0]?.args[0].input.Item as Record<string, unknown>;
    expect(log).toEqual({
      ...keys.hookLog(3, NOW, 1),
      id: 1,
      hook_id: 3,
      delivery_id: DELIVERY_ID,
      url: 'https://receiver.example.com/hook',
      trigger: 'issue_hooks',
      request_headers: expect.objectContaining({
        'X-Gitlab-Token': '[REDACTED]',
        'Idempotency-Key': DELIVERY_ID,
      }),
      response_headers: {},
      response_body: '',
      execution_duration: 0.012,
      response_status: '200',
      internal_error_message: null,
      created_at: NOW,
      kind: 'hook_log',
      l1: lists.hookLogsOfOutcome(3, 'successful').partition,
      l2: lists.hookLogsWithStatus(3, '200').partition,
      sid: pad(1),
      screated: `${NOW}\u0000${pad(1)}`,
      expires: Date.parse(NOW) / 1000 + 31 * 86_400,
    });
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('reads no hook item: the delivery carries what the attempt needs, and the hook’s deletion mark is read beside the claim', async () => {
    given(
      deliveryItem({ target: target({ signing_token: `whsec_${Buffer.alloc(32, 3).toString('base64')}` }) }),
    );
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: deliveryKey, ConsistentRead: true },
      { TableName: TABLE, Key: keys.hookGone(3), ConsistentRead: true },
    ]);
    expect(sent[0]?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(sent[0]?.headers['X-Gitlab-Token']).toBe(TOKEN);
  });

  it('sends nothing for a hook deleted since the fan-out: its mark ends the delivery failed', async () => {
    given(deliveryItem({ target: target() }));
    ddb
      .on(GetCommand, { Key: keys.hookGone(3) })
      .resolves({ Item: { ...keys.hookGone(3), kind: 'hook_gone' } });
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([]);
    const ends = ddb
      .commandCalls(UpdateCommand)
      .map((call) => call.args[0].input)
      .filter(
        (input) => input.Key?.pk === deliveryKey.pk && String(input.UpdateExpression).includes('#status'),
      );
    expect(ends.map((input) => input.ExpressionAttributeValues?.[':status'])).toContain('failed');
  });

  it('defers the same message by the schedule on 5xx, keeping the hook as its failure count found it', async () => {
    // Changed since the fan-out: a new url, its token removed, a signing token added.
    const { token: _removed, ...moved } = hookItem({
      recent_failures: 2,
      url: 'https://receiver.example.com/moved',
      signing_token: 'whsec_new',
    });
    given(deliveryItem(), 2, moved);
    answer = response(503);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE,
      ReceiptHandle: 'handle-m-1',
      VisibilityTimeout: 5,
    });
    // The failure counted on the hook, which the write returns: no read.
    expect(updates().find((input) => input.Key?.pk === hookKey.pk)).toMatchObject({
      UpdateExpression: 'ADD recent_failures :one',
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(updates().at(-1)).toEqual({
      TableName: TABLE,
      Key: deliveryKey,
      UpdateExpression:
        'SET #status = :status, due_at = :due, expires = :expires, #target = :target REMOVE lease_until',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status', '#target': 'target' },
      ExpressionAttributeValues: {
        ':status': 'pending',
        ':due': Date.parse(NOW) + 5000,
        ':expires': EXPIRES,
        ':target': {
          url: 'https://receiver.example.com/moved',
          signing_token: 'whsec_new',
          enable_ssl_verification: true,
          recent_failures: 2,
        },
      },
    });
    // The delivery and the hook's deletion mark; never the hook.
    expect(ddb.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('counts the attempt, its failure and the deferred job in the invocation’s EMF line', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      given(deliveryItem(), 2);
      answer = response(503);
      expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
      given(deliveryItem(), MAX_DELIVERY_ATTEMPTS);
      expect(await run()).toEqual({ batchItemFailures: [] });
    } finally {
      out.mockRestore();
      vi.unstubAllEnvs();
    }
    const metrics = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(metrics).toEqual([
      expect.objectContaining({
        worker: 'hook-delivery',
        WebhookDeliveryAttempts: 1,
        WebhookDeliveryFailures: 1,
        JobsRetried: 1,
      }),
      expect.objectContaining({
        worker: 'hook-delivery',
        WebhookDeliveryAttempts: 1,
        WebhookDeliveryFailures: 1,
        JobsFailed: 1,
      }),
    ]);
    expect(metrics.map((line) => Object.keys(line).filter((key) => key.startsWith('Jobs')))).toEqual([
      ['JobsRetried'],
      ['JobsFailed'],
    ]);
  });

  it('honours a longer Retry-After on 429', async () => {
    given(deliveryItem(), 1);
    answer = response(429, { retryAfterSeconds: 120 });
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(120);
  });

  it('treats other 4xx as final: settled failed, not retried', async () => {
    given(deliveryItem(), 1);
    answer = response(404);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(updates().at(-1)).toMatchObject({ ExpressionAttributeValues: { ':status': 'failed' } });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('moves the message to the dead-letter queue after the last attempt', async () => {
    given(deliveryItem(), MAX_DELIVERY_ATTEMPTS);
    answer = { kind: 'failed', error: 'connect ECONNREFUSED', durationMs: 3 };
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: DLQ,
      MessageBody: record.body,
      // The message carried no correlation id: its own id stands for it.
      MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: record.messageId } },
    });
    expect(updates().at(-1)).toMatchObject({ ExpressionAttributeValues: { ':status': 'failed' } });
  });

  it('never sends a delivery that is settled already (a duplicate message)', async () => {
    given(deliveryItem({ status: 'delivered' }));
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toHaveLength(0);
  });

  it('holds deliveries of a temporarily disabled hook until it is enabled, without an attempt', async () => {
    const until = new Date(Date.parse(NOW) + 90_000).toISOString();
    given(deliveryItem({ target: target({ recent_failures: 5, disabled_until: until }) }));
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sent).toHaveLength(0);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(90);
  });

  it('keeps the deliveries of a permanently disabled hook as held, for a resend', async () => {
    given(deliveryItem({ target: target({ recent_failures: 40 }) }));
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toEqual([
      expect.objectContaining({
        Key: deliveryKey,
        ExpressionAttributeValues: expect.objectContaining({ ':status': 'held' }),
      }),
    ]);
  });

  it('a hook disabled meanwhile (by other deliveries’ failures): the refused count says until when, the retry waits for it', async () => {
    const until = new Date(Date.parse(NOW) + 300_000).toISOString();
    given(deliveryItem(), 1, refused(hookItem({ recent_failures: 6, disabled_until: until })));
    answer = response(500);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(300);
    expect(deliveryUpdates().at(-1)?.ExpressionAttributeValues).toMatchObject({
      ':status': 'pending',
      ':due': Date.parse(NOW) + 300_000,
      ':target': { recent_failures: 6, disabled_until: until },
    });
  });

  it('ends a delivery whose hook was deleted after the fan-out once its failure count finds it gone', async () => {
    given(deliveryItem(), 1, refused());
    answer = { kind: 'failed', error: 'connect ECONNREFUSED', durationMs: 3 };
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(1);
    expect(deliveryUpdates().at(-1)).toMatchObject({ ExpressionAttributeValues: { ':status': 'failed' } });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('a delivery written before deliveries carried their hook reads it; ends when it was deleted', async () => {
    const { target: _target, ...older } = deliveryItem();
    given(older);
    ddb.on(GetCommand, { Key: hookKey }).resolves({ Item: undefined });
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toEqual([
      expect.objectContaining({
        ExpressionAttributeValues: expect.objectContaining({ ':status': 'failed' }),
      }),
    ]);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.TableName)).toEqual([TABLE, TABLE]);
  });

  it('a delivery written before deliveries carried their hook is sent to the hook as read', async () => {
    const { target: _target, ...older } = deliveryItem();
    given(older);
    ddb
      .on(GetCommand, { Key: hookKey })
      .resolves({ Item: hookItem({ url: 'https://receiver.example.com/read' }) });
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent.map((delivery) => delivery.url)).toEqual(['https://receiver.example.com/read']);
  });
});

describe('what happens after the POST never fails the record', () => {
  it('a log write that fails is logged with the delivery id (no token) and the delivery still settles', async () => {
    given(deliveryItem());
    ddb.on(PutCommand).rejects(new Error('Throughput exceeds the current capacity of your table'));
    answer = response(200);
    vi.stubEnv('LOG_LEVEL', 'info');
    let result: unknown;
    const lines = await captured(async () => {
      result = await run();
    });
    vi.unstubAllEnvs();
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(1);
    expect(updates().at(-1)).toMatchObject({
      Key: deliveryKey,
      ExpressionAttributeValues: { ':status': 'delivered' },
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'webhook attempt not logged',
        deliveryId: DELIVERY_ID,
        hookId: 3,
        error: 'Throughput exceeds the current capacity of your table',
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ message: 'job done', messageId: 'm-1' }));
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('a failure count that cannot be written: the retry is still scheduled, with the hook as it was', async () => {
    given(deliveryItem(), 1);
    ddb.on(UpdateCommand, { Key: hookKey }).rejects(new Error('ProvisionedThroughputExceededException'));
    answer = response(502);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(deliveryUpdates().at(-1)).toEqual(
      expect.objectContaining({
        UpdateExpression: 'SET #status = :status, due_at = :due, expires = :expires REMOVE lease_until',
        ExpressionAttributeValues: {
          ':status': 'pending',
          ':due': Date.parse(NOW) + 1000,
          ':expires': EXPIRES,
        },
      }),
    );
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(1);
  });
});

describe('a batch', () => {
  const IDS = ['11111111-1111-5111-a111-111111111111', '22222222-2222-5222-a222-222222222222'];
  const keyOf = (id: string) => keys.hookDelivery(id);
  const batch = () =>
    handler(
      sqsEvent(...IDS.map((id, index) => sqsRecord(JSON.stringify({ deliveryId: id }), `m-${index + 1}`))),
      lambdaContext(),
    );

  beforeEach(() => {
    given(undefined);
    for (const id of IDS) {
      ddb.on(GetCommand, { Key: keyOf(id) }).resolves({ Item: deliveryItem({ ...keyOf(id), id }) });
    }
  });

  it('runs its records side by side: two held receivers both get their request before either answers', async () => {
    let release = () => {};
    held = { started: [], release: new Promise<void>((resolve) => (release = resolve)) };
    answer = response(200);
    const done = batch();
    await vi.waitFor(() => expect(held?.started).toHaveLength(2), { timeout: 2000, interval: 5 });
    expect(new Set(held.started)).toEqual(new Set(IDS));
    // Neither settled while both receivers held their answer.
    expect(deliveryUpdates().filter((input) => input.ExpressionAttributeValues?.[':status'])).toEqual([]);
    release();
    expect(await done).toEqual({ batchItemFailures: [] });
    const settled = updates().filter((input) => input.ExpressionAttributeValues?.[':status'] === 'delivered');
    expect(settled.map((input) => input.Key)).toEqual(expect.arrayContaining(IDS.map(keyOf)));
  });

  it('a record that fails is reported alone; the other settles', async () => {
    ddb.on(GetCommand, { Key: keyOf(IDS[0] as string) }).rejects(new Error('read failed'));
    answer = response(200);
    expect(await batch()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sent.map((delivery) => delivery.headers['Idempotency-Key'])).toEqual([IDS[1]]);
  });

  it('each record is logged under its own message’s correlation id', async () => {
    answer = response(200);
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines = await captured(async () => {
      await batch();
    });
    vi.unstubAllEnvs();
    expect(
      lines
        .filter((line) => line.message === 'job done')
        .map((line) => [line.messageId, line.correlation_id])
        .sort(),
    ).toEqual([
      ['m-1', 'm-1'],
      ['m-2', 'm-2'],
    ]);
  });
});
