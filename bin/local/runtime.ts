/**
 * The whole local runtime: engines, table and bucket, the queue dispatcher, the table's stream
 * feeding the stream consumers, every handler of the route and worker tables behind the local
 * gateway, and the first admin's token. `npm start`,
 * the integration tests and the end-to-end tests all start it through here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envNames } from '#config/env.ts';
import { registerLocalDispatch, registerLocalQueueControl } from '#queue/publish.ts';
import { ensureRootToken, isLiveAdminToken } from '#store/bootstrap.ts';
import { routes } from '../../functions/routes.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { ensureTable, startDynamoDbLocal, startS3rver } from './engines.ts';
import { createGatewayServer, type RouteHandler, RouteMatcher } from './gateway.ts';
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
}

export interface LocalRuntime {
  url: string;
  apiUrl: string;
  port: number;
  rootToken: string;
  queues: LocalQueues;
  /** The table's stream feeding the stream consumers; `drain()` waits until they have seen every change. */
  streams: LocalStreams;
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
    return { url, apiUrl: `${url}/api/v4`, port, rootToken, queues, streams, stop };
  } catch (error) {
    await stop();
    throw error;
  }
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
