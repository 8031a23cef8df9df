/**
 * What a worker that paces its own retries may do to the message it handles: defer it
 * (ChangeMessageVisibility) and move it to its dead-letter queue, on AWS (the exact SQS calls) and
 * in the local dispatcher (the deferred message comes back after that delay, the dead-lettered one
 * lands on the queue's dead-letter list and is not retried).
 */
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deadLetter,
  deferMessage,
  registerLocalDispatch,
  registerLocalQueueControl,
} from '#queue/publish.ts';
import { defineWorker } from '#queue/worker.ts';
import { LocalQueues } from '../../bin/local/queue.ts';
import { workers } from '../../functions/workers.ts';
import { sqsRecord } from '../support/events.ts';

const sqs = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/hook-delivery';
const DLQ_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/hook-delivery-dlq';
const body = JSON.stringify({ deliveryId: 'd-1' });

const record = (): SQSRecord => ({ ...sqsRecord(body, 'msg-1'), receiptHandle: 'handle-1' });

beforeEach(() => {
  sqs.reset();
  process.env.AWS_REGION = 'us-east-1';
  delete process.env.QUEUE_MODE;
  process.env.QUEUE_URL_HOOK_DELIVERY = QUEUE_URL;
  process.env.QUEUE_DLQ_URL_HOOK_DELIVERY = DLQ_URL;
});

afterEach(() => {
  delete process.env.QUEUE_MODE;
  delete process.env.QUEUE_URL_HOOK_DELIVERY;
  delete process.env.QUEUE_DLQ_URL_HOOK_DELIVERY;
  registerLocalDispatch(undefined);
  registerLocalQueueControl(undefined);
});

describe('on AWS', () => {
  it('deferMessage changes the visibility of the record’s receipt handle, in whole seconds up to 12 hours', async () => {
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    await deferMessage('hook-delivery', record(), 60);
    await deferMessage('hook-delivery', record(), 1.2);
    await deferMessage('hook-delivery', record(), 86_400);
    await deferMessage('hook-delivery', record(), -5);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual(
      [60, 2, 43_200, 0].map((VisibilityTimeout) => ({
        QueueUrl: QUEUE_URL,
        ReceiptHandle: 'handle-1',
        VisibilityTimeout,
      })),
    );
  });

  it('deferMessage refuses a delay that is no number, and a queue without its URL', async () => {
    await expect(deferMessage('hook-delivery', record(), Number.NaN)).rejects.toThrow(/cannot defer/);
    delete process.env.QUEUE_URL_HOOK_DELIVERY;
    await expect(deferMessage('hook-delivery', record(), 5)).rejects.toThrow(/no queue URL configured/);
    expect(sqs.calls()).toHaveLength(0);
  });

  it('deadLetter sends the record’s body to the queue’s dead-letter queue, with its correlation id', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'dlq-1' });
    await deadLetter('hook-delivery', record());
    const correlated: SQSRecord = {
      ...record(),
      messageAttributes: {
        CorrelationId: {
          dataType: 'String',
          stringValue: 'req-7',
          stringListValues: [],
          binaryListValues: [],
        },
      },
    };
    await deadLetter('hook-delivery', correlated);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      {
        QueueUrl: DLQ_URL,
        MessageBody: body,
        MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: 'msg-1' } },
      },
      {
        QueueUrl: DLQ_URL,
        MessageBody: body,
        MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: 'req-7' } },
      },
    ]);
    delete process.env.QUEUE_DLQ_URL_HOOK_DELIVERY;
    await expect(deadLetter('hook-delivery', record())).rejects.toThrow(/no dead-letter queue URL/);
  });
});

describe('in the local dispatcher', () => {
  const definition = workers.find((worker) => worker.queue === 'hook-delivery')!;

  function localQueue(handle: (record: SQSRecord, receives: number[]) => Promise<void>) {
    const receives: number[] = [];
    const queues = new LocalQueues();
    queues.register(
      definition,
      defineWorker('hook-delivery', async (_message, received) => {
        receives.push(Date.now());
        await handle(received, receives);
      }),
    );
    process.env.QUEUE_MODE = 'local';
    registerLocalDispatch(queues.send);
    registerLocalQueueControl({ defer: queues.defer, deadLetter: queues.deadLetter });
    queues.start();
    return { queues, receives };
  }

  it('brings a deferred message back after the delay the worker asked for, not its own backoff', async () => {
    const { queues, receives } = localQueue(async (received, seen) => {
      if (seen.length === 1) {
        await deferMessage('hook-delivery', received, 0.6);
        throw new Error('retry later');
      }
    });
    try {
      queues.send('hook-delivery', body);
      await queues.drain(5_000);
      expect(receives).toHaveLength(2);
      // The local backoff after a first failure is 200 ms; the deferral asked for 600.
      expect(receives[1]! - receives[0]!).toBeGreaterThanOrEqual(590);
      expect(queues.deadLetters('hook-delivery')).toEqual([]);
    } finally {
      queues.stop();
    }
  });

  it('falls back to its own backoff when a deferred message succeeds or was not deferred', async () => {
    const { queues, receives } = localQueue(async (_received, seen) => {
      if (seen.length === 1) throw new Error('plain failure');
    });
    try {
      queues.send('hook-delivery', body);
      await queues.drain(5_000);
      expect(receives).toHaveLength(2);
      expect(receives[1]! - receives[0]!).toBeLessThan(590);
    } finally {
      queues.stop();
    }
  });

  it('puts a dead-lettered message on the dead-letter list and does not retry it', async () => {
    const { queues, receives } = localQueue(async (received) => {
      await deadLetter('hook-delivery', received);
    });
    try {
      queues.send('hook-delivery', body);
      await queues.drain(5_000);
      expect(receives).toHaveLength(1);
      expect(queues.deadLetters('hook-delivery')).toEqual([body]);
    } finally {
      queues.stop();
    }
  });

  it('refuses to defer a message that is not in flight', () => {
    const queues = new LocalQueues();
    queues.register(definition, async () => ({ batchItemFailures: [] }));
    expect(() => queues.defer('hook-delivery', 'unknown#1', 5)).toThrow(/no message in flight/);
    expect(() => queues.deadLetter('nope', { messageId: 'm', body, attributes: {} })).toThrow(
      /unknown queue nope/,
    );
  });
});
