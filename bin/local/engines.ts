/**
 * The real engines behind the local runtime: DynamoDB Local (AWS's emulator, the jar shipped in
 * the amplify-dynamodb-simulator package, run on the machine's Java) and s3rver. Nothing is
 * downloaded at run time.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createTableInput, indexes, localIndexes, streamViewType, ttlAttribute } from '#store/table.ts';

const require = createRequire(import.meta.url);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer and no `java` was found: install it with `sudo apt-get install -y openjdk-17-jre-headless`.';

function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
  const version = /version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1];
  if (version && Number(version) < 17) {
    throw new Error(
      `DynamoDB Local needs Java 17 or newer, found Java ${version}: install openjdk-17-jre-headless.`,
    );
  }
}

/**
 * Runs a command so that it never outlives this process: a signal to the wrapper stops it, and so
 * does the end of the wrapper's stdin, a pipe from this process that closes when it exits in any
 * way (Ctrl-C, an uncaught error, even SIGKILL, which no handler of ours could see).
 */
const WATCHED = [
  'exec 3<&0',
  '"$@" </dev/null & child=$!',
  '{ cat <&3 >/dev/null; kill $child 2>/dev/null; } & watcher=$!',
  "trap 'kill $child $watcher 2>/dev/null; wait $child; exit 0' TERM INT HUP",
  'wait $child; status=$?',
  'kill $watcher 2>/dev/null',
  'exit $status',
].join('\n');

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(options: {
  dataDir?: string;
  port?: number;
}): Promise<DynamoDbLocal> {
  checkJava();
  const emulator = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const port = options.port ?? (await freePort());
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn(
    'sh',
    [
      '-c',
      WATCHED,
      'dynamodb-local',
      'java',
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-Xmx1g',
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      ...storage,
    ],
    // stdin is the guard's pipe: it closes when this process ends, however it ends.
    { cwd: emulator, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilReady(endpoint, child, () => output);
  let stopped = false;
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (stopped || child.exitCode !== null) return resolve();
        stopped = true;
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

async function waitUntilReady(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${output()}`);
      try {
        await client.send(new DescribeTableCommand({ TableName: 'readiness-probe' }));
        return;
      } catch (error) {
        if (error instanceof Error && error.name === 'ResourceNotFoundException') return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`DynamoDB Local did not start within 30 s: ${output()}`);
  } finally {
    client.destroy();
  }
}

/**
 * Creates the table from the shared table definition unless it is there already; either way its
 * stream (a table kept from before streams gets one) and its TTL attribute are on.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    let table: TableDescription | undefined;
    try {
      table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) throw error;
      await client.send(new CreateTableCommand(createTableInput(tableName)));
    }
    if (table) await upgradeTable(client, tableName, table);
    await ensureTimeToLive(client, tableName);
  } finally {
    client.destroy();
  }
}

/** A table kept in .data/: refused when it lacks an index, given the stream when it has none. */
async function upgradeTable(client: DynamoDBClient, tableName: string, table: TableDescription) {
  const present = new Set(
    [...(table.GlobalSecondaryIndexes ?? []), ...(table.LocalSecondaryIndexes ?? [])].map(
      (index) => index.IndexName,
    ),
  );
  const missing = [...indexes, ...localIndexes]
    .map((index) => index.name)
    .filter((name) => !present.has(name));
  if (missing.length) {
    // Data kept in .data/ by an older table definition: its items lack the newer attributes too.
    throw new Error(
      `The table in .data/ predates the index${missing.length > 1 ? 'es' : ''} ${missing.join(', ')}; start with \`npm start -- --fresh\` to begin with an empty one.`,
    );
  }
  const stream = table.StreamSpecification;
  if (stream?.StreamEnabled && stream.StreamViewType === streamViewType) return;
  if (stream?.StreamEnabled) {
    // A stream's view cannot change: this one is replaced by a new stream.
    await client.send(
      new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
    );
  }
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
    }),
  );
}

/** DynamoDB Local accepts TTL but may never delete an expired item: readers skip them anyway. */
async function ensureTimeToLive(client: DynamoDBClient, tableName: string) {
  const { TimeToLiveDescription: ttl } = await client.send(
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  const on = ttl?.TimeToLiveStatus === 'ENABLED' || ttl?.TimeToLiveStatus === 'ENABLING';
  if (on && ttl?.AttributeName === ttlAttribute) return;
  if (on) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { Enabled: false, AttributeName: ttl?.AttributeName },
      }),
    );
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { Enabled: true, AttributeName: ttlAttribute },
    }),
  );
}

export interface S3Local {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startS3rver(options: {
  dataDir: string;
  port?: number;
  bucket: string;
  /** Where it listens: loopback unless containers must reach it (`0.0.0.0` for sam local). */
  address?: string;
}): Promise<S3Local> {
  const { default: S3rver } = await import('s3rver');
  mkdirSync(options.dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    port,
    address: options.address ?? '127.0.0.1',
    directory: options.dataDir,
    silent: true,
    allowMismatchedSignatures: true,
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: options.bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: options.bucket }));
  } finally {
    client.destroy();
  }
  return { endpoint, stop: () => server.close() };
}
