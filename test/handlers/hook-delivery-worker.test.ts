/**
 * The hook-delivery worker: one attempt per message, the same message deferred (SQS visibility) by
 * the schedule or the receiver's Retry-After, settled deliveries never sent again, a temporarily
 * disabled hook's deliveries held back until it is enabled, and the message moved to the
 * dead-letter queue after the last attempt.
 */
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryResult, OutgoingDelivery } from '#delivery/send.ts';
import { MAX_DELIVERY_ATTEMPTS } from '#domain/hook-deliveries.ts';
import { handler } from '../../functions/workers/hook-delivery.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { ddb, NOW, pad, resetMocks, sqs, TABLE } from './fixtures.ts';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-hook-delivery';
const DLQ = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-hook-delivery-dlq';
process.env.QUEUE_URL_HOOK_DELIVERY = QUEUE;
process.env.QUEUE_DLQ_URL_HOOK_DELIVERY = DLQ;

const sent: OutgoingDelivery[] = [];
let answer: DeliveryResult;
vi.mock('#delivery/send.ts', () => ({
  sendDelivery: async (delivery: OutgoingDelivery) => {
    sent.push(delivery);
    return answer;
  },
}));

const DELIVERY_ID = '0f6b1c2d-3e4f-5a6b-a7c8-9d0e1f2a3b4c';
const deliveryKey = { pk: `DELIVERY#${DELIVERY_ID}`, sk: 'DELIVERY' };
const hookKey = { pk: 'PROJECT#7', sk: `HOOK#${pad(3)}` };
const PAYLOAD = JSON.stringify({ object_kind: 'issue', object_attributes: { iid: 1 } });

const deliveryItem = (fields: Record<string, unknown> = {}) => ({
  ...deliveryKey,
  id: DELIVERY_ID,
  hook_id: 3,
  project_id: 7,
  trigger: 'issue_hooks',
  event_uuid: 'aaaaaaaa-bbbb-5ccc-addd-eeeeeeeeeeee',
  payload: PAYLOAD,
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
  token: 'shh',
  enable_ssl_verification: true,
  issues_events: true,
  recent_failures: 0,
  created_at: NOW,
  ...fields,
});

function given(
  delivery: Record<string, unknown> | undefined,
  hook: Record<string, unknown> | undefined,
  attempt = 1,
) {
  ddb.on(GetCommand, { Key: deliveryKey }).resolves({ Item: delivery });
  ddb.on(GetCommand, { Key: hookKey }).resolves({ Item: hook });
  ddb.on(UpdateCommand).resolves({ Attributes: { attempts: attempt, recent_failures: 1 } });
  ddb
    .on(UpdateCommand, { Key: { pk: 'COUNTER#hook_log', sk: 'COUNTER' } })
    .resolves({ Attributes: { value: 10 } });
  ddb.on(PutCommand).resolves({});
}

const record = sqsRecord(JSON.stringify({ deliveryId: DELIVERY_ID }), 'm-1');
const run = () => handler(sqsEvent(record), lambdaContext());
const updates = () =>
  ddb
    .commandCalls(UpdateCommand)
    .map((call) => call.args[0].input)
    .filter((input) => input.Key?.pk !== 'COUNTER#hook_log');
const response = (status: number, extra: Partial<DeliveryResult> = {}): DeliveryResult =>
  ({ kind: 'response', status, headers: {}, body: '', durationMs: 12, ...extra }) as DeliveryResult;

beforeEach(() => {
  resetMocks();
  sent.length = 0;
  sqs.on(ChangeMessageVisibilityCommand).resolves({});
  sqs.on(SendMessageCommand).resolves({});
});

describe('hook-delivery worker', () => {
  it('sends once with the delivery id as Idempotency-Key and settles it on 2xx', async () => {
    given(deliveryItem(), hookItem());
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
      'X-Gitlab-Token': 'shh',
    });
    // The claim, then the settlement.
    expect(updates()[0]).toMatchObject({
      Key: deliveryKey,
      ConditionExpression: expect.stringContaining('lease_until'),
    });
    expect(updates().at(-1)).toMatchObject({
      Key: deliveryKey,
      ExpressionAttributeValues: { ':status': 'delivered' },
    });
    // The attempt is logged with the token masked.
    const log = ddb.commandCalls(PutCommand)[0]?.args[0].input.Item as Record<string, unknown>;
    expect(log).toMatchObject({
      pk: 'HOOKLOG#3',
      kind: 'hook_log',
      response_status: '200',
      trigger: 'issue_hooks',
    });
    expect((log.request_headers as Record<string, string>)['X-Gitlab-Token']).toBe('[REDACTED]');
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('defers the same message by the schedule on 5xx and reports it failed', async () => {
    given(deliveryItem(), hookItem(), 2);
    answer = response(503);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE,
      ReceiptHandle: 'handle-m-1',
      VisibilityTimeout: 5,
    });
    expect(updates().at(-1)).toMatchObject({ ExpressionAttributeValues: { ':status': 'pending' } });
  });

  it('counts the attempt, its failure and the deferred job in the invocation’s EMF line', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      given(deliveryItem(), hookItem(), 2);
      answer = response(503);
      expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
      given(deliveryItem(), hookItem(), MAX_DELIVERY_ATTEMPTS);
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
    given(deliveryItem(), hookItem(), 1);
    answer = response(429, { retryAfterSeconds: 120 });
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(120);
  });

  it('treats other 4xx as final: settled failed, not retried', async () => {
    given(deliveryItem(), hookItem(), 1);
    answer = response(404);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(updates().at(-1)).toMatchObject({ ExpressionAttributeValues: { ':status': 'failed' } });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('moves the message to the dead-letter queue after the last attempt', async () => {
    given(deliveryItem(), hookItem(), MAX_DELIVERY_ATTEMPTS);
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
    given(deliveryItem({ status: 'delivered' }), hookItem());
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toHaveLength(0);
  });

  it('holds deliveries of a temporarily disabled hook until it is enabled, without an attempt', async () => {
    const until = new Date(Date.parse(NOW) + 90_000).toISOString();
    given(deliveryItem(), hookItem({ recent_failures: 5, disabled_until: until }));
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(sent).toHaveLength(0);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input.VisibilityTimeout).toBe(90);
  });

  it('keeps the deliveries of a permanently disabled hook as held, for a resend', async () => {
    given(deliveryItem(), hookItem({ recent_failures: 40 }));
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toEqual([
      expect.objectContaining({ Key: deliveryKey, ExpressionAttributeValues: { ':status': 'held' } }),
    ]);
  });

  it('ends a delivery whose hook was deleted', async () => {
    given(deliveryItem(), undefined);
    answer = response(200);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(sent).toHaveLength(0);
    expect(updates()).toEqual([
      expect.objectContaining({ ExpressionAttributeValues: { ':status': 'failed' } }),
    ]);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.TableName)).toEqual([TABLE, TABLE]);
  });
});
