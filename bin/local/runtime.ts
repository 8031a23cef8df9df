/**
 * The whole local runtime: engines, table and bucket, the queue dispatcher, the table's stream
 * feeding the stream consumers, a timer per schedule, every handler of the route and worker tables
 * behind the local gateway, and the first admin's token. `npm start`,
 * the integration tests and the end-to-end tests all start it through here.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScheduledEvent } from 'aws-lambda';
import { envNames } from '#config/env.ts';
import { invocationScope } from '#http/log.ts';
import { registerLocalDispatch, registerLocalQueueControl } from '#queue/publish.ts';
import { ensureRootToken, isLiveAdminToken } from '#store/bootstrap.ts';
import { routes } from '../../functions/routes.ts';
import { type ScheduleDefinition, schedules } from '../../functions/schedules.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { ensureTable, startDynamoDbLocal, startS3rver } from './engines.ts';
import { createGatewayServer, type RouteHandler, RouteMatcher } from './gateway.ts';
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
  stop(): Promise<void>;
}

const TABLE_NAME = 'gitlab-api';
const BUCKET_NAME = 'gitlab-api-uploads';

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
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
    });
    await ensureTable(dynamodb.endpoint, TABLE_NAME);

    const queues = new LocalQueues();
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
    const runSchedule = await startSchedules(options.scheduleMinutes ?? {}, stoppers);

    const handlers = await Promise.all(
      routes.map(async (definition) => {
        const module = await import(pathToFileURL(join(projectRoot, definition.entry)).href);
        return { definition, handler: module.handler as RouteHandler };
      }),
    );
    const rootToken = await resolveRootToken(options.rootToken, options.inMemory ? undefined : dataDir);

    const matcher = new RouteMatcher(handlers);
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
    return { url, apiUrl: `${url}/api/v4`, port, rootToken, queues, streams, runSchedule, stop };
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

/**
 * The local EventBridge: a timer per schedule invoking its handler with a scheduled event. A run
 * still going when the next is due is not overlapped (the next tick runs instead); a failed run
 * is logged and the schedule goes on. Answers a function that runs a schedule at once.
 */
async function startSchedules(
  given: Readonly<Record<string, number>>,
  stoppers: (() => Promise<void>)[],
): Promise<(name: string) => Promise<unknown>> {
  const loaded = await Promise.all(
    schedules.map(async (schedule) => {
      const module = await import(pathToFileURL(join(projectRoot, schedule.entry)).href);
      return { schedule, handler: module.handler as ScheduleHandler };
    }),
  );
  const running = new Set<Promise<unknown>>();
  const run = (schedule: ScheduleDefinition, handler: ScheduleHandler) => {
    const invocation = invocationScope(() =>
      handler(scheduledEvent(schedule), lambdaContext(schedule.name, schedule.timeout)),
    );
    running.add(invocation);
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
    await Promise.allSettled([...running]);
  });
  return (name) => {
    const found = loaded.find((entry) => entry.schedule.name === name);
    if (!found) return Promise.reject(new Error(`no schedule named ${name}`));
    return run(found.schedule, found.handler);
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
