import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, conflict, notFound } from '#domain/errors.ts';
import {
  check,
  commit,
  commitUnlessDone,
  NEW_ITEM,
  put,
  refusedWith,
  retrying,
  unique,
  WRITE_DEADLINE_MS,
} from '#store/table/transaction.ts';
import { ddb, resetMocks } from '../handlers/fixtures.ts';

/** A refused transaction whose items at `failed` broke their conditions (`stored`: the items as stored). */
const refused = (count: number, failed: number[], stored: Record<number, Record<string, unknown>> = {}) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: Array.from({ length: count }, (_, index) => ({
      Code: failed.includes(index) ? 'ConditionalCheckFailed' : 'None',
      ...(stored[index] ? { Item: stored[index] } : {}),
    })) as never,
  });

const item = (pk: string) => put({ pk, sk: 'X' }, NEW_ITEM);
const bodyOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { status: (error as ApiError).status, body: (error as ApiError).body };
};

beforeEach(resetMocks);

describe('commit', () => {
  it('merges every refused uniqueness item into one model error, before any other refusal', async () => {
    ddb.on(TransactWriteCommand).rejects(refused(3, [0, 1, 2]));
    const steps = [
      refusedWith(item('A'), conflict('first')),
      unique(item('B'), 'path'),
      unique(item('C'), 'name'),
    ];
    expect(await bodyOf(commit(steps))).toEqual({
      status: 400,
      body: { message: { path: ['has already been taken'], name: ['has already been taken'] } },
    });
  });

  it('answers with the first refused step that says what it means, else with the fallback', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(refused(3, [1, 2]))
      .rejectsOnce(refused(2, [0]));
    const steps = [
      item('A'),
      refusedWith(item('B'), conflict('second')),
      refusedWith(item('C'), notFound('C')),
    ];
    expect(await bodyOf(commit(steps))).toEqual({ status: 409, body: { message: 'second' } });
    expect(await bodyOf(commit([item('A'), item('B')], notFound('Thing')))).toEqual({
      status: 404,
      body: { message: '404 Thing Not Found' },
    });
  });

  it('hands a check the item as stored, and asks for it only where a refusal reads it', async () => {
    ddb.on(TransactWriteCommand).rejects(refused(2, [1], { 1: { pk: 'G', deleting: true } }));
    const gone = (stored: Record<string, unknown> | undefined) =>
      stored?.deleting ? notFound('Namespace') : conflict('moved');
    const steps = [
      check({ pk: 'U', sk: 'U' }, 'attribute_exists(pk)'),
      refusedWith(check({ pk: 'G', sk: 'G' }, 'x = :x'), gone),
    ];
    expect(await bodyOf(commit(steps))).toEqual({
      status: 404,
      body: { message: '404 Namespace Not Found' },
    });
    const sent = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(sent.map((entry) => entry.ConditionCheck?.ReturnValuesOnConditionCheckFailure)).toEqual([
      undefined,
      'ALL_OLD',
    ]);
  });

  it('retries a conflict with a concurrent transaction, which is not the caller’s fault', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'conflict',
          $metadata: {},
          CancellationReasons: [{ Code: 'TransactionConflict' }],
        }),
      )
      .resolves({});
    await commit([item('A')]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers 503 with Retry-After once conflicts outlast the deadline, having written nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    try {
      ddb.on(TransactWriteCommand).rejects(
        new TransactionCanceledException({
          message: 'conflict',
          $metadata: {},
          CancellationReasons: [{ Code: 'TransactionConflict' }],
        }),
      );
      const answer = commit([item('A')]).then(
        () => undefined,
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(WRITE_DEADLINE_MS + 1000);
      const error = await answer;
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(503);
      expect((error as ApiError).body).toEqual({ message: '503 Service Unavailable' });
      expect((error as ApiError).headers).toEqual({ 'Retry-After': '1' });
      expect(ddb.commandCalls(TransactWriteCommand).length).toBeGreaterThan(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 when DynamoDB throttles past the SDK’s own retries', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    ddb.on(TransactWriteCommand).rejects(throttled);
    expect(await bodyOf(commit([item('A')]))).toEqual({
      status: 503,
      body: { message: '503 Service Unavailable' },
    });
  });
});

describe('commitUnlessDone', () => {
  it('is false when a condition says an earlier run did the step', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(refused(1, [0]))
      .resolves({});
    expect(await commitUnlessDone([item('A')])).toBe(false);
    expect(await commitUnlessDone([item('A')])).toBe(true);
  });
});

describe('retrying', () => {
  it('prepares a new attempt after each accepted failure, and gives up after the last', async () => {
    const seen: number[] = [];
    const attempt = async (state: number) => {
      seen.push(state);
      throw new Error(`failed ${state}`);
    };
    await expect(
      retrying({ times: 3, retry: () => true }, 1 as number, attempt, async (state) => state + 1),
    ).rejects.toThrow('failed 3');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('throws at once what it does not retry', async () => {
    let attempts = 0;
    const attempt = async () => {
      attempts++;
      throw new Error('fatal');
    };
    await expect(retrying({ times: 5, retry: () => false }, 0, attempt, async () => 0)).rejects.toThrow(
      'fatal',
    );
    expect(attempts).toBe(1);
  });
});
