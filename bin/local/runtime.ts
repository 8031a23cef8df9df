/**
 * The whole local runtime: engines, table and bucket, the queue dispatcher, the table's stream
 * feeding the stream consumers, a timer per schedule, every handler of the route and worker tables
 * behind the local gateway, and the first admin's token. `npm start`,
 * the integration tests and the end-to-end tests all start it through here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScheduledEvent } from 'aws-lambda';
import { envNames } from '#config/env.ts';
import { invocationScope } from '#observability/log.ts';
import { registerLocalDispatch, registerLocalQueueControl } from '#queue/publish.ts';
import { ensureRootToken, isLiveAdminToken } from '#store/table/bootstrap.ts';
import { type RouteDefinition, routes } from '../../functions/routes.ts';
import { type ScheduleDefinition, schedules } from '../../functions/schedules.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { ensureTable, startDynamoDbLocal, startS3rver } from './engines.ts';
import { createGatewayServer, type RouteHandler, RouteMatcher } from './gateway.ts';
import { scopeInvocations } from './invoke-store.ts';
import { lambdaContext } from './lambda-context.ts';
import { LocalQueues } from './queue.ts';
import { LocalStreams, type StreamHandler } from './streams.ts';

export const projectRoot = resolve(import.meta.dirname, '../..');

export interface LocalRuntimeOptions {
  port?: number;
  /** Where data persists between restarts; ignored when `inMemory`. */
  dataDir?: string;
  /** Start with no data: wipes `dataDir` first. */
  fresh?: boolean;
  /** Keep DynamoDB in memory (tests). */
  inMemory?: boolean;
  rootToken?: string;
  /**
   * Whether webhooks may reach loopback and private addresses (a receiver on this machine).
   * Default true, unless the environment says ALLOW_LOCAL_REQUESTS=false.
   */
  allowLocalRequests?: boolean;
  /**
   * Minutes between runs of each schedule (functions/schedules.ts) by name; 0 stops it. Default:
   * the schedule's `localRateVariable` from the environment, else its `rateMinutes`.
   */
  scheduleMinutes?: Readonly<Record<string, number>>;
  /**
   * Tests only (test/support/global-setup.ts), never `npm start`: the gateway also answers
   * `POST /-/test/idle` (outside /api/v4) with 204 once `idle()` resolves, or 503 naming what is
   * still busy when its safety timeout (`?timeout_ms=`, default 120 s) ends the wait.
   */
  testControl?: boolean;
}

export interface IdleOptions {
  /** Only to fail a stuck test with the busy part named, never the way to wait. Default 120 s. */
  timeoutMs?: number;
}

export interface LocalRuntime {
  url: string;
  apiUrl: string;
  port: number;
  rootToken: string;
  queues: LocalQueues;
  /** The table's stream feeding the stream consumers; `drain()` waits until they have seen every change. */
  streams: LocalStreams;
  /** Runs a schedule's handler now, as its timer would (tests). */
  runSchedule(name: string): Promise<unknown>;
  /**
   * Resolves once the background work is done: in one round, the streams found nothing new,
   * no queue message was ready, in flight or waiting out a retry delay, and no schedule ran (a
   * stream consumer publishes and a worker writes, which streams again: rounds repeat until one
   * saw none of it). See `waitUntilIdle`.
   */
  idle(options?: IdleOptions): Promise<void>;
  stop(): Promise<void>;
}

const TABLE_NAME = 'gitlab-api';
const BUCKET_NAME = 'gitlab-api-uploads';

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  // Before any AWS SDK call: Powertools' state per invocation, as Lambda Managed Instances keep it.
  await scopeInvocations();
  const dataDir = resolve(options.dataDir ?? join(projectRoot, '.data'));
  if (options.fresh) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => undefined);
  };
  try {
    const dynamodb = await startDynamoDbLocal({
      dataDir: options.inMemory ? undefined : join(dataDir, 'dynamodb'),
    });
    stoppers.push(dynamodb.stop);
    const s3 = await startS3rver({ dataDir: join(dataDir, 's3'), bucket: BUCKET_NAME });
    stoppers.push(s3.stop);

    Object.assign(process.env, {
      [envNames.tableName]: TABLE_NAME,
      [envNames.bucketName]: BUCKET_NAME,
      [envNames.dynamodbEndpoint]: dynamodb.endpoint,
      [envNames.s3Endpoint]: s3.endpoint,
      [envNames.queueMode]: 'local',
      [envNames.allowLocalRequests]: String(
        options.allowLocalRequests ?? process.env[envNames.allowLocalRequests] !== 'false',
      ),
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      // Cursors hold for this start only, as a deployment's hold for its key's life.
      [envNames.cursorKey]: process.env[envNames.cursorKey] || randomBytes(32).toString('base64url'),
    });
    await ensureTable(dynamodb.endpoint, TABLE_NAME);

    // Persisted data: messages outlive the process, as in SQS (a journal file per message).
    const queues = new LocalQueues({ journalDir: options.inMemory ? undefined : join(dataDir, 'queues') });
    for (const worker of workers) {
      const module = await import(pathToFileURL(join(projectRoot, worker.entry)).href);
      queues.register(worker, module.handler);
    }
    registerLocalDispatch(queues.send);
    registerLocalQueueControl({ defer: queues.defer, deadLetter: queues.deadLetter });
    queues.start();
    stoppers.push(async () => {
      queues.stop();
      registerLocalDispatch(undefined);
      registerLocalQueueControl(undefined);
    });

    // After the queues: stream consumers publish. Stopped before them (stoppers run in reverse).
    const streams = new LocalStreams({
      endpoint: dynamodb.endpoint,
      tableName: TABLE_NAME,
      consumers: await Promise.all(
        streamConsumers.map(async (definition) => {
          const module = await import(pathToFileURL(join(projectRoot, definition.entry)).href);
          return { definition, handler: module.handler as StreamHandler };
        }),
      ),
      // Persisted data: resume after the last change handled instead of replaying the stream.
      checkpointFile: options.inMemory ? undefined : join(dataDir, 'stream-checkpoints.json'),
    });
    await streams.start();
    stoppers.push(() => streams.stop());

    // After the queues: scheduled functions publish. Stopped before them.
    const scheduled = await startSchedules(options.scheduleMinutes ?? {}, stoppers);
    const idle = (idleOptions?: IdleOptions) => waitUntilIdle({ queues, streams, scheduled }, idleOptions);

    const handlers = await Promise.all(
      routes.map(async (definition) => {
        const module = await import(pathToFileURL(join(projectRoot, definition.entry)).href);
        return { definition, handler: module.handler as RouteHandler };
      }),
    );
    const rootToken = await resolveRootToken(options.rootToken, options.inMemory ? undefined : dataDir);

    const matcher = new RouteMatcher(options.testControl ? [...handlers, idleRoute(idle)] : handlers);
    const port = await listen(createGatewayServer(matcher), '127.0.0.1', options.port ?? 0, stoppers);
    // Also answer on IPv6 loopback, for clients that resolve `localhost` to ::1 first.
    await listen(createGatewayServer(matcher), '::1', port, stoppers).catch(() => undefined);

    const url = `http://127.0.0.1:${port}`;
    // Links in webhook payloads and entities point here unless configured otherwise.
    if (!process.env[envNames.externalUrl]) {
      process.env[envNames.externalUrl] = url;
      stoppers.push(async () => {
        if (process.env[envNames.externalUrl] === url) delete process.env[envNames.externalUrl];
      });
    }
    const runSchedule = scheduled.run;
    return { url, apiUrl: `${url}/api/v4`, port, rootToken, queues, streams, runSchedule, idle, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type ScheduleHandler = (event: ScheduledEvent, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;

/** The EventBridge event a rule's run sends its target. */
const scheduledEvent = (schedule: ScheduleDefinition): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: process.env.AWS_REGION ?? 'us-east-1',
  resources: [`arn:aws:events:us-east-1:000000000000:rule/${schedule.name}`],
  detail: {},
});

/** How often the runtime runs a schedule, in minutes (0: never). */
function localRateMinutes(schedule: ScheduleDefinition, given: Readonly<Record<string, number>>): number {
  const fromEnvironment = process.env[schedule.localRateVariable];
  const minutes =
    given[schedule.name] ??
    (fromEnvironment !== undefined && fromEnvironment !== ''
      ? Number(fromEnvironment)
      : schedule.rateMinutes);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
}

interface Schedules {
  /** Runs a schedule at once. */
  run(name: string): Promise<unknown>;
  /** The schedules running now, and how many runs began so far (for idle()). */
  activity(): { runs: number; running: string[] };
}

/**
 * The local EventBridge: a timer per schedule invoking its handler with a scheduled event. A run
 * still going when the next is due is not overlapped (the next tick runs instead); a failed run
 * is logged and the schedule goes on.
 */
async function startSchedules(
  given: Readonly<Record<string, number>>,
  stoppers: (() => Promise<void>)[],
): Promise<Schedules> {
  const loaded = await Promise.all(
    schedules.map(async (schedule) => {
      const module = await import(pathToFileURL(join(projectRoot, schedule.entry)).href);
      return { schedule, handler: module.handler as ScheduleHandler };
    }),
  );
  const running = new Map<Promise<unknown>, string>();
  let runs = 0;
  const run = (schedule: ScheduleDefinition, handler: ScheduleHandler) => {
    runs++;
    const invocation = invocationScope(() =>
      handler(scheduledEvent(schedule), lambdaContext(schedule.name, schedule.timeout)),
    );
    running.set(invocation, schedule.name);
    return invocation.finally(() => running.delete(invocation));
  };
  const timers: NodeJS.Timeout[] = [];
  for (const { schedule, handler } of loaded) {
    const minutes = localRateMinutes(schedule, given);
    if (minutes === 0) continue;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      run(schedule, handler)
        .catch((error: unknown) => {
          process.stderr.write(
            `${JSON.stringify({ level: 'error', message: 'scheduled run failed', schedule: schedule.name, error: error instanceof Error ? error.message : String(error) })}\n`,
          );
        })
        .finally(() => {
          busy = false;
        });
    }, minutes * 60_000);
    timer.unref();
    timers.push(timer);
  }
  stoppers.push(async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.allSettled([...running.keys()]);
  });
  return {
    run: (name) => {
      const found = loaded.find((entry) => entry.schedule.name === name);
      if (!found) return Promise.reject(new Error(`no schedule named ${name}`));
      return run(found.schedule, found.handler);
    },
    activity: () => ({ runs, running: [...running.values()] }),
  };
}

/**
 * A message put off longer than this is a look-again its worker scheduled, not work in progress:
 * a group move's follow-up waiting out the move's 60 s lease, the deliveries of a temporarily
 * disabled hook (a minute and more), a webhook's third and later retries (25 s and more). idle()
 * does not wait for those (one test's would hold up every other test's idle() for minutes); it
 * waits for everything put off up to this long: the queue's retry backoff (at most 10 s) and a
 * webhook's first retries (1 s, 5 s).
 */
const LONGEST_AWAITED_DELAY_MS = 10_000;

interface IdleParts {
  queues: LocalQueues;
  streams: LocalStreams;
  scheduled: Schedules;
}

/** What keeps the queues and schedules busy now; empty when they are idle. */
function busyParts({ queues, scheduled }: IdleParts): string[] {
  const busy: string[] = [];
  for (const queue of queues.backlog().queues) {
    const retrying = queue.waiting.filter((message) => message.delayMs <= LONGEST_AWAITED_DELAY_MS);
    const parts = [
      queue.visible ? `${queue.visible} ready` : '',
      queue.inFlight ? `${queue.inFlight} in flight` : '',
      retrying.length ? `${retrying.length} waiting out a retry delay` : '',
    ].filter(Boolean);
    if (parts.length) busy.push(`queue ${queue.queue}: ${parts.join(', ')}`);
  }
  for (const name of scheduled.activity().running) busy.push(`schedule ${name} running`);
  return busy;
}

/** Counts that move whenever a worker, a stream consumer or a schedule is invoked. */
const activityOf = ({ queues, streams, scheduled }: IdleParts) =>
  `${queues.backlog().delivered}/${streams.activity().invocations}/${scheduled.activity().runs}`;

/**
 * Waits for the work, never for the clock: rounds of (queues and schedules quiet) → every table
 * change so far through the streams → still quiet, with no worker, consumer or schedule invoked
 * since the round began; a round that saw any of it is followed by another (a consumer publishes,
 * a worker writes, which streams again). The timeout only fails a stuck wait, naming what is busy.
 */
async function waitUntilIdle(parts: IdleParts, options: IdleOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  const stuck = (busy: string[]) =>
    new Error(`runtime not idle after ${timeoutMs / 1000} s: ${busy.join('; ')}`);
  for (;;) {
    for (let busy = busyParts(parts); busy.length > 0; busy = busyParts(parts)) {
      if (Date.now() > deadline) throw stuck(busy);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const before = activityOf(parts);
    try {
      await parts.streams.drain(Math.max(0, deadline - Date.now()));
    } catch (error) {
      // Stopped: not a wait that timed out.
      if (error instanceof Error && /not running/.test(error.message)) throw error;
      const consumers = parts.streams.activity().busy;
      throw stuck([
        consumers.length
          ? `streams: ${consumers.join(', ')} handling a batch`
          : 'streams: not read to their end',
        ...busyParts(parts),
      ]);
    }
    if (activityOf(parts) === before && busyParts(parts).length === 0) return;
  }
}

/** `POST /-/test/idle` for tests in other processes (testControl): 204 once idle, else 503 and why. */
function idleRoute(idle: (options?: IdleOptions) => Promise<void>): {
  definition: RouteDefinition;
  handler: RouteHandler;
} {
  return {
    definition: { method: 'POST', path: '/-/test/idle', entry: 'bin/local/runtime.ts', access: {} },
    handler: async (event) => {
      const timeoutMs = Number(event.queryStringParameters?.timeout_ms);
      try {
        await idle(Number.isFinite(timeoutMs) && timeoutMs > 0 ? { timeoutMs } : {});
        return { statusCode: 204 };
      } catch (error) {
        return {
          statusCode: 503,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ message: error instanceof Error ? error.message : String(error) }),
        };
      }
    },
  };
}

function listen(
  server: Server,
  host: string,
  port: number,
  stoppers: (() => Promise<void>)[],
): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      stoppers.push(
        () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      );
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * ROOT_TOKEN wins when given. Otherwise the token minted at the first start is kept in the data
 * directory (the database holds only its hash) and reused while it still works.
 */
async function resolveRootToken(given: string | undefined, dataDir: string | undefined): Promise<string> {
  if (given) return (await ensureRootToken(given)).token;
  const file = dataDir ? join(dataDir, 'root-token') : undefined;
  if (file) {
    try {
      const saved = readFileSync(file, 'utf8').trim();
      if (saved && (await isLiveAdminToken(saved))) return saved;
    } catch {
      // No saved token yet.
    }
  }
  const { token } = await ensureRootToken();
  if (file) writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
