/**
 * The local runtime for B4 and B6, started in this process so the benchmark can watch the very
 * DocumentClient the handlers use: a middleware on its stack records every `send()` (command,
 * start, end), and the local queue dispatch is wrapped so queue messages can be counted and their
 * worker runs kept apart from the request that sent them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newUserFrom, type User } from '#domain/users.ts';
import { registerLocalDispatch } from '#queue/publish.ts';
import { documentClient } from '#store/client.ts';
import { createUser } from '#store/users.ts';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';

export const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';

export interface SendRecord {
  /** The low-level command (`GetItemCommand`, `TransactWriteItemsCommand`, ...). */
  command: string;
  start: number;
  end: number;
  /** An `ADD` on an id counter item: a block reservation, amortized over `ID_BLOCK_SIZE` creations. */
  idReservation: boolean;
  /** The single-item write carries a ConditionExpression. */
  conditional: boolean;
  failed?: string;
}

export interface QueueSend {
  queue: string;
  bytes: number;
}

export interface BenchRuntime {
  runtime: LocalRuntime;
  /** Records the sends and queue messages of `action`; worker runs caused by it are recorded apart. */
  record<T>(action: () => Promise<T>): Promise<{
    value: T;
    sends: SendRecord[];
    queued: QueueSend[];
    workerSends: SendRecord[];
  }>;
  seedUsers(count: number): Promise<User[]>;
  stop(): Promise<void>;
}

type AnyInput = { Key?: Record<string, unknown>; ConditionExpression?: string };

export async function startBenchRuntime(): Promise<BenchRuntime> {
  // The runtime logs one line per request at `info`; the benchmark measures without it.
  process.env.LOG_LEVEL = 'silent';
  const dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-bench-'));
  let runtime: LocalRuntime;
  try {
    runtime = await startLocalRuntime({ inMemory: true, dataDir, rootToken: ROOT_TOKEN, port: 0 });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  let current: SendRecord[] | undefined;
  // The DocumentClient shares its middleware stack with the DynamoDBClient it wraps, so one
  // middleware sees every command any repository sends through documentClient().
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const sink = current;
      if (!sink) return next(args);
      const input = ((args as { input?: AnyInput }).input ?? {}) as AnyInput;
      const pk = input.Key?.pk;
      const entry: SendRecord = {
        command: String((context as { commandName?: string }).commandName ?? 'unknown'),
        start: performance.now(),
        end: Number.NaN,
        idReservation: typeof pk === 'string' && pk.startsWith('COUNTER#'),
        conditional: typeof input.ConditionExpression === 'string',
      };
      sink.push(entry);
      try {
        return await next(args);
      } catch (error) {
        entry.failed = error instanceof Error ? error.name : String(error);
        throw error;
      } finally {
        entry.end = performance.now();
      }
    },
    { step: 'initialize', name: 'benchSendRecorder', override: true },
  );

  let queued: QueueSend[] | undefined;
  let held: { queue: string; body: string }[] = [];
  registerLocalDispatch((queue, body) => {
    if (queued) {
      queued.push({ queue, bytes: Buffer.byteLength(body) });
      held.push({ queue, body });
      return;
    }
    runtime.queues.send(queue, body);
  });

  return {
    runtime,
    async record(action) {
      const sends: SendRecord[] = [];
      const messages: QueueSend[] = [];
      current = sends;
      queued = messages;
      let value: Awaited<ReturnType<typeof action>>;
      try {
        value = await action();
      } finally {
        current = undefined;
        queued = undefined;
      }
      // Now deliver what the request queued and record the worker's own sends separately.
      const workerSends: SendRecord[] = [];
      const release = held;
      held = [];
      if (release.length) {
        current = workerSends;
        try {
          for (const message of release) runtime.queues.send(message.queue, message.body);
          await runtime.queues.drain(20_000);
        } finally {
          current = undefined;
        }
      }
      return { value, sends, queued: messages, workerSends };
    },
    async seedUsers(count) {
      const now = new Date().toISOString();
      // One scrypt hash for all of them: seeding measures nothing.
      const template = newUserFrom(
        {
          username: 'bench-template',
          email: 'bench-template@example.com',
          name: 'Bench',
          password: 'benchpass123',
        },
        now,
      );
      const stamp = Date.now().toString(36);
      const users: User[] = [];
      for (let i = 0; i < count; i++) {
        const username = `bench-${stamp}-${i}`;
        users.push(
          await createUser(
            { ...template, username, email: `${username}@example.com`, name: `Bench User ${i}` },
            now,
          ),
        );
      }
      return users;
    },
    async stop() {
      registerLocalDispatch(undefined);
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Round trips that had to wait for each other: sends grouped where their intervals overlap. */
export function sequentialRoundTrips(sends: readonly SendRecord[]): number {
  const sorted = [...sends].sort((a, b) => a.start - b.start);
  let groups = 0;
  let groupEnd = Number.NEGATIVE_INFINITY;
  for (const send of sorted) {
    if (send.start >= groupEnd) {
      groups++;
      groupEnd = send.end;
    } else {
      groupEnd = Math.max(groupEnd, send.end);
    }
  }
  return groups;
}
