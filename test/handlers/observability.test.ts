/**
 * What operators read: the request's JSON log line (Lambda context, correlation id, no secret),
 * the correlation id returned as X-Request-Id and carried by every message the request queues into
 * the worker's log lines (through SQS and through the local dispatcher), LOG_LEVEL=silent keeping
 * everything quiet, and the EMF metrics of requests, jobs and webhook deliveries.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invocationScope, log, setCorrelationId } from '#observability/log.ts';
import { publish, registerLocalDispatch } from '#queue/publish.ts';
import { defineWorker } from '#queue/worker.ts';
import { LocalQueues } from '../../bin/local/queue.ts';
import { handler as deleteUser } from '../../functions/users/delete.ts';
import { handler as currentUser } from '../../functions/users/get-current.ts';
import { handler as userCleanup } from '../../functions/workers/user-cleanup.ts';
import { workers } from '../../functions/workers.ts';
import { captured } from '../support/captured-logs.ts';
import { invoke, lambdaContext, sqsEvent, sqsRecord, TEST_REQUEST_ID } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  givenAdminToken,
  givenStoredUser,
  givenUserToken,
  jsonHeaders,
  REGULAR,
  resetMocks,
  sqs,
  USER_TOKEN,
  userRecord,
} from './fixtures.ts';

const s3 = mockClient(S3Client);

const emf = (lines: Record<string, unknown>[]) => lines.filter((line) => '_aws' in line);
const logLines = (lines: Record<string, unknown>[]) => lines.filter((line) => !('_aws' in line));

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenUserToken();
  givenAdminToken();
  givenStoredUser(userRecord({ id: REGULAR.id, username: 'alice', email: 'alice@example.com' }));
  vi.stubEnv('LOG_LEVEL', 'info');
});

afterEach(() => {
  vi.unstubAllEnvs();
  registerLocalDispatch(undefined);
});

describe('the request log', () => {
  it('one JSON line per request: context, correlation id, the request’s fields, no token', async () => {
    let response: Awaited<ReturnType<typeof invoke>> | undefined;
    const lines = await captured(async () => {
      response = await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN });
    });
    expect(response?.statusCode).toBe(200);
    expect(response?.headers).toEqual(jsonHeaders());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'gitlab-api',
      cold_start: expect.any(Boolean),
      function_name: 'test-function',
      function_request_id: 'aws-req-0123456789',
      correlation_id: TEST_REQUEST_ID,
      requestId: TEST_REQUEST_ID,
      method: 'GET',
      route: 'GET /api/v4/user',
      status: 200,
      userId: REGULAR.id,
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain(USER_TOKEN);
  });

  it('takes a well-formed incoming X-Request-Id as the correlation id and answers with it', async () => {
    let responses: Awaited<ReturnType<typeof invoke>>[] = [];
    const lines = await captured(async () => {
      responses = [
        await invoke(currentUser, 'GET', '/api/v4/user', {
          token: USER_TOKEN,
          headers: { 'x-request-id': 'proxy-42.a:b' },
        }),
        await invoke(currentUser, 'GET', '/api/v4/user', {
          token: USER_TOKEN,
          headers: { 'x-request-id': 'not "safe"\nin a header' },
        }),
      ];
    });
    expect(responses.map((response) => response.headers?.['X-Request-Id'])).toEqual([
      'proxy-42.a:b',
      TEST_REQUEST_ID,
    ]);
    expect(lines.map((line) => [line.correlation_id, line.requestId])).toEqual([
      ['proxy-42.a:b', TEST_REQUEST_ID],
      [TEST_REQUEST_ID, TEST_REQUEST_ID],
    ]);
  });

  it('redacts every field whose name says secret, at any depth', async () => {
    const lines = await captured(async () => {
      log('warn', 'with secrets', {
        userId: 3,
        token: 'glpat-secret-1',
        nested: { password: 'hunter2', Authorization: 'Bearer x', safe: 'kept' },
        headers: [{ 'private-token': 'glpat-secret-2' }],
      });
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: 'with secrets',
        userId: 3,
        token: '[redacted]',
        nested: { password: '[redacted]', Authorization: '[redacted]', safe: 'kept' },
        headers: [{ 'private-token': '[redacted]' }],
      }),
    ]);
  });

  it('LOG_LEVEL=silent: nothing at all, and no metric outside Lambda by default', async () => {
    vi.stubEnv('LOG_LEVEL', 'silent');
    const lines = await captured(async () => {
      const response = await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN });
      expect(response.statusCode).toBe(200);
      log('error', 'not written');
    });
    expect(lines).toEqual([]);
  });

  it('LOG_LEVEL=warn: the request line (info) is left out, a warning is written', async () => {
    vi.stubEnv('LOG_LEVEL', 'warn');
    const lines = await captured(async () => {
      await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN });
      log('warn', 'written');
    });
    expect(lines.map((line) => [line.level, line.message])).toEqual([['WARN', 'written']]);
  });
});

describe('EMF metrics', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });

  it('one Requests count per request, by route template and status', async () => {
    const lines = await captured(async () => {
      await invoke(currentUser, 'GET', '/api/v4/user', { token: USER_TOKEN });
      await invoke(currentUser, 'GET', '/api/v4/user', { token: 'glpat-unknown-000000000000' });
    });
    expect(emf(lines)).toEqual([
      expect.objectContaining({
        service: 'gitlab-api',
        route: 'GET /api/v4/user',
        status: '200',
        Requests: 1,
      }),
      expect.objectContaining({
        service: 'gitlab-api',
        route: 'GET /api/v4/user',
        status: '401',
        Requests: 1,
      }),
    ]);
    expect(emf(lines)[0]?._aws).toMatchObject({
      Timestamp: expect.any(Number),
      CloudWatchMetrics: [
        {
          Namespace: 'GitlabApi',
          Dimensions: [['service', 'route', 'status']],
          Metrics: [{ Name: 'Requests', Unit: 'Count' }],
        },
      ],
    });
    expect(logLines(lines)).toEqual([]);
  });

  it('job outcomes per worker: succeeded and failed records of one batch in one line', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    s3.on(ListObjectsV2Command).resolves({});
    const lines = await captured(async () => {
      const result = await userCleanup(
        sqsEvent(sqsRecord('{"userId":7}', 'm-1'), sqsRecord('{"userId":"x"}', 'm-2')),
        lambdaContext('user-cleanup'),
      );
      expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    });
    expect(emf(lines)).toEqual([
      expect.objectContaining({ worker: 'user-cleanup', JobsSucceeded: 1, JobsFailed: 1 }),
    ]);
  });
});

describe('correlation from a request into its jobs', () => {
  it('through SQS: the message carries the request’s id, the worker logs under it', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(TransactWriteCommand).resolves({});
    s3.on(ListObjectsV2Command).resolves({});
    givenStoredUser(userRecord());
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    let status: number | undefined;
    const requestLines = await captured(async () => {
      const response = await invoke(deleteUser, 'DELETE', '/api/v4/users/7', {
        token: ADMIN_TOKEN,
        headers: { 'x-request-id': 'client-id-1' },
      });
      status = response.statusCode;
    });
    expect(status).toBe(204);
    expect(requestLines.map((line) => [line.message, line.correlation_id])).toEqual([
      ['request', 'client-id-1'],
    ]);
    const sent = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(sent).toEqual([
      {
        QueueUrl: expect.any(String),
        MessageBody: '{"userId":7}',
        MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: 'client-id-1' } },
      },
    ]);
    const received: SQSRecord = {
      ...sqsRecord(sent[0]?.MessageBody ?? '', 'm-1'),
      messageAttributes: {
        CorrelationId: {
          dataType: 'String',
          stringValue: 'client-id-1',
          stringListValues: [],
          binaryListValues: [],
        },
      },
    };
    const lines = await captured(async () => {
      expect(await userCleanup(sqsEvent(received), lambdaContext('user-cleanup'))).toEqual({
        batchItemFailures: [],
      });
    });
    expect(lines).toEqual([
      expect.objectContaining({
        message: 'job done',
        queue: 'user-cleanup',
        messageId: 'm-1',
        correlation_id: 'client-id-1',
        function_name: 'user-cleanup',
      }),
    ]);
  });

  it('a message without one is logged under its own message id', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    s3.on(ListObjectsV2Command).resolves({});
    const lines = await captured(() =>
      userCleanup(sqsEvent(sqsRecord('{"userId":7}', 'm-9')), lambdaContext('user-cleanup')),
    );
    expect(lines.map((line) => [line.message, line.correlation_id])).toEqual([['job done', 'm-9']]);
  });

  it('through the local dispatcher the same way', async () => {
    const definition = workers.find((worker) => worker.queue === 'user-cleanup');
    if (!definition) throw new Error('user-cleanup is missing from the worker table');
    const seen: (string | undefined)[] = [];
    const queues = new LocalQueues();
    queues.register(
      definition,
      defineWorker('user-cleanup', async (_message, record) => {
        seen.push(record.messageAttributes.CorrelationId?.stringValue);
        log('info', 'handled');
      }),
    );
    vi.stubEnv('QUEUE_MODE', 'local');
    registerLocalDispatch(queues.send);
    queues.start();
    const lines = await captured(async () => {
      // A request's chain sets the id; here the logger is given it as the chain would.
      setCorrelationId('local-req-1');
      await publish('user-cleanup', { userId: 7 });
      await queues.drain(5_000);
    });
    queues.stop();
    expect(seen).toEqual(['local-req-1']);
    expect(lines.map((line) => [line.message, line.correlation_id])).toEqual([
      ['handled', 'local-req-1'],
      ['job done', 'local-req-1'],
    ]);
  });

  it('locally, requests handled side by side each keep their own id (one process, many invocations)', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    // The first request's write is slow: the second one queues its job meanwhile.
    let writes = 0;
    ddb.on(TransactWriteCommand).callsFake(async () => {
      writes += 1;
      if (writes === 1) await new Promise((done) => setTimeout(done, 30));
      return {};
    });
    givenStoredUser(userRecord());
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const remove = (requestId: string) =>
      invocationScope(() =>
        invoke(deleteUser, 'DELETE', '/api/v4/users/7', {
          token: ADMIN_TOKEN,
          headers: { 'x-request-id': requestId },
        }),
      );
    const [first, second] = await captured(() =>
      Promise.all([remove('slow-request'), remove('quick-request')]),
    ).then(() => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.MessageAttributes));
    expect([first, second]).toEqual([
      { CorrelationId: { DataType: 'String', StringValue: 'quick-request' } },
      { CorrelationId: { DataType: 'String', StringValue: 'slow-request' } },
    ]);
  });
});
