/**
 * The local runtime runs invocations of different functions side by side in one process, with one
 * Powertools Logger: each line must carry its own invocation's Lambda context (function name,
 * request id) and correlation id, even when an invocation logs after another has started, as a
 * timed-out POST /issues did under `stream-hook-events`. Outside the runtime (on Lambda, one
 * invocation at a time) invocationScope leaves Powertools' shared state alone.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { invocationScope, log } from '#observability/log.ts';
import { defineSchedule } from '#queue/schedule.ts';
import { scopeInvocations } from '../../bin/local/invoke-store.ts';
import { lambdaContext } from '../../bin/local/lambda-context.ts';
import { captured } from '../support/captured-logs.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const scheduled = (id: string) => ({ id, detail: {} }) as ScheduledEvent;

const before = process.env.AWS_LAMBDA_MAX_CONCURRENCY;

beforeAll(async () => {
  delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  await scopeInvocations();
});

afterAll(() => {
  if (before === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  else process.env.AWS_LAMBDA_MAX_CONCURRENCY = before;
});

beforeEach(() => {
  vi.stubEnv('LOG_LEVEL', 'info');
  return () => vi.unstubAllEnvs();
});

it('two invocations of different functions side by side: each line names its own function', async () => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The first waits (as a request waits on a slow write) while the second runs from start to end.
  const slow = defineSchedule(async () => {
    log('info', 'slow started');
    await released;
    log('warn', 'slow timed out');
    return 'slow';
  });
  const quick = defineSchedule(async () => {
    log('info', 'quick ran');
    release();
    return 'quick';
  });
  const issues = lambdaContext('issues-create', 30);
  const hooks = lambdaContext('stream-hook-events', 30);

  let results: unknown[] = [];
  const lines = await captured(async () => {
    results = await Promise.all([
      invocationScope(() => slow(scheduled('run-slow'), issues)),
      invocationScope(() => quick(scheduled('run-quick'), hooks)),
    ]);
  });

  expect(results).toEqual(['slow', 'quick']);
  expect(
    lines.map((line) => [line.message, line.function_name, line.function_request_id, line.correlation_id]),
  ).toEqual([
    ['slow started', 'issues-create', issues.awsRequestId, 'run-slow'],
    ['quick ran', 'stream-hook-events', hooks.awsRequestId, 'run-quick'],
    ['slow timed out', 'issues-create', issues.awsRequestId, 'run-slow'],
  ]);
});

it('each invocation runs in an InvokeStore context of its own, whose request id its context carries', async () => {
  const store = globalThis.awslambda?.InvokeStore;
  const seen = await Promise.all(
    ['a', 'b'].map((name) =>
      invocationScope(async () => {
        const context = lambdaContext(name, 30);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { store: store?.getRequestId(), context: context.awsRequestId };
      }),
    ),
  );
  const ids = seen.map((one) => one.store);
  expect(ids).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
  expect(new Set(ids).size).toBe(2);
  expect(seen.map((one) => one.context)).toEqual(ids);
  expect(store?.hasContext()).toBe(false);
});

it('as on Lambda, without AWS_LAMBDA_MAX_CONCURRENCY no invocation enters the InvokeStore', () => {
  vi.stubEnv('AWS_LAMBDA_MAX_CONCURRENCY', '');
  expect(invocationScope(() => globalThis.awslambda?.InvokeStore?.hasContext())).toBe(false);
});
