/**
 * B11's ground: what a fresh process needs to serve a function's first request locally. DynamoDB
 * Local (in memory) and s3rver with the project's table and bucket, a root token written through
 * the store (by a child process, so this process's store client stays unbound), the environment
 * `sam local` gives a function, and for each bundle the first event its trigger sends.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, startDynamoDbLocal, startS3rver } from '../../bin/local/engines.ts';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, localEnvironment } from '../../bin/local/sam-environment.ts';
import { routes } from '../../functions/routes.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { apiEvent, missingMessages, sqsEvent, streamEvent } from '../support/trigger-events.ts';
import type { BundleTarget } from './b1-bundles.ts';
import { benchDir, lastJsonLine, runChild, tsxNodeArgs } from './common.ts';

export interface ColdStartGround {
  /** The environment of every probe: a Lambda-like one with the local engines' endpoints. */
  env: NodeJS.ProcessEnv;
  /** The event file each bundle's first request is read from, by bundle name. */
  eventFiles: Map<string, string>;
  /** What each first request is, by bundle name (for the report). */
  firstRequests: Map<string, string>;
  stop(): Promise<void>;
}

/** The entry whose first request revokes the caller's token: given an unknown one, so every sample is alike. */
const REVOKES_ITS_TOKEN = 'functions/personal-access-tokens/revoke-self.ts';

/** The event a bundle's trigger sends first, and a short description of it. */
function firstEvent(target: BundleTarget, token: string): { event: unknown; label: string } {
  if (target.kind === 'reference') return { event: { id: '1' }, label: 'GetItem' };
  const route = routes.find((candidate) => candidate.entry === target.entry);
  if (route) {
    const known = target.entry !== REVOKES_ITS_TOKEN;
    return {
      event: apiEvent(route, known ? token : 'glpat-no-such-token'),
      label: `${route.method === 'ANY' ? 'GET' : route.method} ${route.path}${known ? '' : ' (unknown token)'}`,
    };
  }
  const worker = workers.find((candidate) => candidate.entry === target.entry);
  if (worker)
    return { event: sqsEvent(worker.queue, missingMessages[worker.queue]), label: `SQS ${worker.queue}` };
  const consumer = streamConsumers.find((candidate) => candidate.entry === target.entry);
  if (consumer) return { event: streamEvent(), label: `stream record (${consumer.name})` };
  throw new Error(`no trigger known for ${target.entry}`);
}

const seedScript = join(import.meta.dirname, 'b11-seed.ts');

export async function prepareColdStartGround(targets: readonly BundleTarget[]): Promise<ColdStartGround> {
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-api-b11-'));
  // A second try: on a saturated machine the engine can miss its start-up wait once.
  const dynamodb = await startDynamoDbLocal({}).catch(() => startDynamoDbLocal({}));
  const s3 = await startS3rver({ dataDir: join(dir, 's3'), bucket: LOCAL_BUCKET_NAME }).catch(
    async (error) => {
      await dynamodb.stop();
      throw error;
    },
  );
  const stop = async () => {
    await dynamodb.stop().catch(() => undefined);
    await s3.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ensureTable(dynamodb.endpoint, LOCAL_TABLE_NAME);
    const local = localEnvironment({ dynamodb: dynamodb.endpoint, s3: s3.endpoint });
    const seeded = await runChild(process.execPath, [...tsxNodeArgs, seedScript], {
      env: { ...process.env, ...local, LOG_LEVEL: 'silent' },
      timeoutMs: 60_000,
    });
    if (seeded.code !== 0) throw new Error(`seeding the root token failed: ${seeded.stderr.slice(-400)}`);
    const { token } = lastJsonLine<{ token: string }>(seeded.stdout);

    const eventDir = join(benchDir, 'first-events');
    rmSync(eventDir, { recursive: true, force: true });
    mkdirSync(eventDir, { recursive: true });
    const eventFiles = new Map<string, string>();
    const firstRequests = new Map<string, string>();
    for (const target of targets) {
      const { event, label } = firstEvent(target, token);
      const file = join(eventDir, `${target.name}.json`);
      writeFileSync(file, JSON.stringify(event));
      eventFiles.set(target.name, file);
      firstRequests.set(target.name, label);
    }
    // A Lambda-like environment: no loader flags, fake credentials, the local endpoints.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_LAMBDA_FUNCTION_NAME: 'bench',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
      TZ: 'UTC',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      ...local,
    };
    return { env, eventFiles, firstRequests, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
