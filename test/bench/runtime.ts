/**
 * The local runtime for B4, B5 and B6, started in this process so the benchmark can watch the very
 * DocumentClient the handlers use: a middleware on its stack records every `send()` (command,
 * target, start, end and — while recording — the consumed capacity DynamoDB reports, asked for
 * with `ReturnConsumedCapacity: TOTAL`), counts every command the process sends from start to stop
 * (so a Scan anywhere would show), and the local queue dispatch is wrapped so queue messages can
 * be counted and their worker runs kept apart from the request that sent them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newUserFrom, type User } from '#domain/users.ts';
import { registerLocalDispatch } from '#queue/publish.ts';
import { documentClient } from '#store/table/client.ts';
import { createUser } from '#store/users/users.ts';
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
  /** What it addressed, ids stripped: `TOKENHASH`, `l2-created_at PROJECTS#NS#n`, `3 keys`. */
  target: string;
  /**
   * Capacity units DynamoDB reported for it (ReturnConsumedCapacity TOTAL; 0 when not reported),
   * plus, for a key read that found nothing, the minimum DynamoDB charges for it (0.5 eventually
   * consistent, 1 consistent) and DynamoDB Local does not report.
   */
  capacity: number;
  /** Items the read touched: ScannedCount of a Query/Scan, keys asked of a Get/BatchGet. */
  itemsRead: number;
  failed?: string;
}

/** Commands that read (their capacity is read capacity). */
export const READ_COMMANDS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);

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
  /** Every command this process sent through documentClient() since the runtime started, by name. */
  commandCounts(): Record<string, number>;
  stop(): Promise<void>;
}

type AnyInput = {
  Key?: Record<string, unknown>;
  ConsistentRead?: boolean;
  ConditionExpression?: string;
  IndexName?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
  RequestItems?: Record<string, { Keys?: unknown[]; ConsistentRead?: boolean } | unknown[]>;
  TransactItems?: unknown[];
};
type AnyOutput = {
  ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
};

/** Ids and hashes out of a key, so targets group: `PROJECT#12` → `PROJECT#n`, a token hash → `TOKENHASH#…`. */
const generic = (text: string) =>
  text
    .replace(/#\d+/g, '#n')
    .replace(/^(TOKENHASH|EMAIL|ROUTE|PROJECTNAME)#.*/, '$1#…')
    .slice(0, 48);

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function targetOf(command: string, input: AnyInput): string {
  if (command === 'QueryCommand' || command === 'ScanCommand') {
    const partition = Object.values(input.ExpressionAttributeValues ?? {}).find(
      (value) => typeof value === 'string',
    );
    return `${input.IndexName ?? 'table'} ${generic(String(partition ?? ''))}`;
  }
  if (input.Key) return generic(`${String(input.Key.pk)}${input.Key.sk ? ` ${String(input.Key.sk)}` : ''}`);
  if (input.RequestItems) {
    const count = Object.values(input.RequestItems).reduce(
      (sum, request) => sum + (Array.isArray(request) ? request.length : (request.Keys?.length ?? 0)),
      0,
    );
    return plural(count, command === 'BatchGetItemCommand' ? 'key' : 'item');
  }
  if (input.TransactItems) return plural(input.TransactItems.length, 'item');
  return '';
}

function capacityOf(output: AnyOutput): number {
  const consumed = output.ConsumedCapacity;
  if (!consumed) return 0;
  const list = Array.isArray(consumed) ? consumed : [consumed];
  return list.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
}

/** Items a command's output holds: found items of a Get/BatchGet. */
function itemsFound(command: string, output: AnyOutput): number {
  if (command === 'GetItemCommand') return output.Item ? 1 : 0;
  const responses = output.Responses;
  if (!responses) return 0;
  if (Array.isArray(responses)) return responses.length;
  return Object.values(responses).reduce((sum, items) => sum + items.length, 0);
}

/** The keys a Get/BatchGet asked for, each with the minimum DynamoDB charges for it. */
function keysAsked(command: string, input: AnyInput): { keys: number; minimum: number } {
  if (command === 'GetItemCommand') return { keys: 1, minimum: input.ConsistentRead ? 1 : 0.5 };
  let keys = 0;
  let minimum = 0;
  for (const request of Object.values(input.RequestItems ?? {})) {
    if (Array.isArray(request)) continue;
    const count = request.Keys?.length ?? 0;
    keys += count;
    minimum += count * (request.ConsistentRead ? 1 : 0.5);
  }
  return { keys, minimum };
}

/** Read capacity and items of a read: a key read that finds nothing still costs its minimum on DynamoDB. */
function readCost(command: string, input: AnyInput, output: AnyOutput): { capacity: number; items: number } {
  const reported = capacityOf(output);
  if (command === 'QueryCommand' || command === 'ScanCommand') {
    return { capacity: reported, items: output.ScannedCount ?? 0 };
  }
  if (command !== 'GetItemCommand' && command !== 'BatchGetItemCommand')
    return { capacity: reported, items: 0 };
  const asked = keysAsked(command, input);
  const found = itemsFound(command, output);
  const missing = Math.max(0, asked.keys - found);
  return {
    capacity: reported + (asked.keys ? (missing * asked.minimum) / asked.keys : 0),
    items: asked.keys,
  };
}

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
  const counts: Record<string, number> = {};
  // The DocumentClient shares its middleware stack with the DynamoDBClient it wraps, so one
  // middleware sees every command any repository sends through documentClient(). At `initialize`
  // the input is still the DocumentClient's (plain values) and the output already unmarshalled.
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? 'unknown');
      counts[command] = (counts[command] ?? 0) + 1;
      const sink = current;
      if (!sink) return next(args);
      const input = ((args as { input?: AnyInput }).input ?? {}) as AnyInput;
      const pk = input.Key?.pk;
      const entry: SendRecord = {
        command,
        start: performance.now(),
        end: Number.NaN,
        // Id blocks (`COUNTER#…`) and a parent's next iid (`IIDS`): number allocation, not the write.
        idReservation: (typeof pk === 'string' && pk.startsWith('COUNTER#')) || input.Key?.sk === 'IIDS',
        conditional: typeof input.ConditionExpression === 'string',
        target: targetOf(command, input),
        capacity: 0,
        itemsRead: 0,
      };
      sink.push(entry);
      try {
        // Only while recording: B6 measures latency with the requests exactly as the handlers send them.
        const result = await next({
          ...args,
          input: { ...(args as { input: object }).input, ReturnConsumedCapacity: 'TOTAL' },
        } as typeof args);
        const output = (result.output ?? {}) as AnyOutput;
        if (READ_COMMANDS.has(command)) {
          const cost = readCost(command, input, output);
          entry.capacity = cost.capacity;
          entry.itemsRead = cost.items;
        } else {
          entry.capacity = capacityOf(output);
        }
        return result;
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
      // The stream consumers wait until the request has answered: their commands are not its own.
      const releaseStreams = runtime.streams.hold();
      let value: Awaited<ReturnType<typeof action>>;
      try {
        value = await action();
      } finally {
        current = undefined;
        queued = undefined;
        releaseStreams();
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
    commandCounts: () => ({ ...counts }),
    async stop() {
      registerLocalDispatch(undefined);
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The round each send belongs to on the request's critical path: 1 + the deepest round among the
 * sends that had finished before it started (a send that starts after another ended may have
 * waited for it; sends in one Promise.all all start before any ends). Unlike grouping overlapping
 * intervals, a dependent send still counts as a new round when an unrelated parallel send of an
 * earlier round is still in flight.
 */
function roundsOf(sends: readonly SendRecord[]): { send: SendRecord; round: number }[] {
  const sorted = [...sends].sort((a, b) => a.start - b.start);
  const placed: { send: SendRecord; round: number }[] = [];
  for (const send of sorted) {
    let round = 1;
    for (const earlier of placed)
      if (earlier.send.end <= send.start) round = Math.max(round, earlier.round + 1);
    placed.push({ send, round });
  }
  return placed;
}

/** Round trips that had to wait for each other: the longest chain of sends each started after the previous ended. */
export function sequentialRoundTrips(sends: readonly SendRecord[]): number {
  return roundsOf(sends).reduce((deepest, entry) => Math.max(deepest, entry.round), 0);
}

export const shortCommand = (name: string) =>
  name
    .replace(/Command$/, '')
    .replace('TransactWriteItems', 'TransactWrite')
    .replace(/Item$/, '');

/**
 * The sends as their sequential rounds, for explaining a count: `R1 Get TOKENHASH#… | R2 Get
 * GROUP#n GROUP | R3 Query l2-created_at PROJECTS#NS#n + Get LISTCOUNT#PROJECTS#NS#n COUNT`.
 * Identical sends within a round are folded (`Query l2-id GROUPS#CHILDREN#n ×110`).
 */
export function roundSequence(sends: readonly SendRecord[]): string {
  const rounds: SendRecord[][] = [];
  for (const { send, round } of roundsOf(sends)) {
    rounds[round - 1] ??= [];
    rounds[round - 1]?.push(send);
  }
  return rounds
    .map((round, index) => {
      const labels = new Map<string, number>();
      for (const send of round) {
        const label = `${shortCommand(send.command)} ${send.target}${send.idReservation ? ' (id block)' : ''}`;
        labels.set(label, (labels.get(label) ?? 0) + 1);
      }
      return `R${index + 1} ${[...labels].map(([label, count]) => (count > 1 ? `${label} ×${count}` : label)).join(' + ')}`;
    })
    .join(' | ');
}
