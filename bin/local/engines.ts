/**
 * The real engines behind the local runtime: DynamoDB Local (AWS's emulator, the jar shipped in
 * the amplify-dynamodb-simulator package, run on the machine's Java) and s3rver. Nothing is
 * downloaded at run time. Both take any credentials, so both listen on 127.0.0.1 only unless a
 * caller asks for another address (sam local's containers: bin/sam-env.ts).
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
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
import { createTableInput, indexes, streamViewType, ttlAttribute } from '#store/table/table.ts';

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

/** The JDK, not only the JRE: its compiler builds the launcher that keeps DynamoDB Local on loopback. */
const JAVA_PACKAGE = 'openjdk-17-jdk-headless';

export const JAVA_MISSING = `DynamoDB Local needs Java 17 or newer and no \`java\` was found: install it with \`sudo apt-get install -y ${JAVA_PACKAGE}\`.`;

function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
  const version = /version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1];
  if (version && Number(version) < 17) {
    throw new Error(`DynamoDB Local needs Java 17 or newer, found Java ${version}: install ${JAVA_PACKAGE}.`);
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
  /** Where it listens: loopback unless containers must reach it (`0.0.0.0` for sam local). */
  address?: string;
}): Promise<DynamoDbLocal> {
  checkJava();
  const emulator = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const jar = join(emulator, 'DynamoDBLocal.jar');
  const address = options.address ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const launcher = await loopbackLauncher(emulator, address);
  const main = launcher
    ? [
        // An IPv4 socket on the address asked for, not an IPv6 one mapping it.
        '-Djava.net.preferIPv4Stack=true',
        `-D${LAUNCHER_HOST_PROPERTY}=${address}`,
        '-cp',
        `${jar}${delimiter}${launcher}`,
        LAUNCHER_CLASS,
      ]
    : ['-jar', jar];
  const child: ChildProcess = spawn(
    'sh',
    [
      '-c',
      WATCHED,
      'dynamodb-local',
      'java',
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-Xmx1g',
      ...main,
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    // stdin is the guard's pipe: it closes when this process ends, however it ends.
    // DynamoDB Local 1.25 parses -disableTelemetry but only DDB_LOCAL_TELEMETRY=0 turns it off.
    {
      cwd: emulator,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  // A spawn that fails, or a guard pipe written after the wrapper ended, is reported by the wait
  // below (the child's exit and its output), never as an unhandled 'error' event.
  child.on('error', (error) => {
    output += `\n${error.message}`;
  });
  child.stdin?.on('error', () => undefined);
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

/**
 * DynamoDB Local has no option for the address it listens on: its server is a Jetty connector on
 * every interface, so anyone on the network could read and write the table. The launcher in
 * ./java/ builds the same server and binds it to one address. It is compiled once per source and
 * jar into node_modules/.cache (starting from source would cost every start a second or two); a
 * machine with Java but no compiler runs the jar as it is, and says so once.
 */
const LAUNCHER_SOURCE = join(import.meta.dirname, 'java', 'LoopbackDynamoDbLocal.java');
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const LAUNCHER_HOST_PROPERTY = 'gitlab.local.host';
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

let launcherBuild: Promise<{ classes?: string; problem?: string }> | undefined;
let warned = false;

async function loopbackLauncher(emulator: string, address: string): Promise<string | undefined> {
  launcherBuild ??= buildLauncher(emulator).catch((error: unknown) => ({
    problem: `its loopback launcher could not be built (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
  }));
  const { classes, problem } = await launcherBuild;
  if (!classes && !warned && !EVERY_INTERFACE.has(address)) {
    warned = true;
    process.stderr.write(
      `Warning: DynamoDB Local listens on every interface, not only ${address}, so anyone on the network can read and write the table: ${problem}. Install the JDK (\`sudo apt-get install -y ${JAVA_PACKAGE}\`) to keep it on loopback.\n`,
    );
  }
  return classes;
}

const run = promisify(execFile);

async function buildLauncher(emulator: string): Promise<{ classes?: string; problem?: string }> {
  const jar = join(emulator, 'DynamoDBLocal.jar');
  const jarIdentity = existsSync(join(emulator, 'sha256'))
    ? readFileSync(join(emulator, 'sha256'))
    : String(statSync(jar).size);
  const key = createHash('sha256')
    .update(readFileSync(LAUNCHER_SOURCE))
    .update(jarIdentity)
    .digest('hex')
    .slice(0, 16);
  const cache = resolve(import.meta.dirname, '../../node_modules/.cache/dynamodb-local-launcher');
  const classes = join(cache, key);
  if (existsSync(join(classes, `${LAUNCHER_CLASS}.class`))) return { classes };

  const javac = findCompiler();
  if (!javac) return { problem: 'no Java compiler (javac) was found to build its loopback launcher' };
  let target: string;
  let cached = true;
  try {
    mkdirSync(cache, { recursive: true });
    target = mkdtempSync(join(cache, 'build-'));
  } catch {
    // node_modules is read-only: a private directory of this process's own.
    target = mkdtempSync(join(tmpdir(), 'dynamodb-local-launcher-'));
    cached = false;
  }
  try {
    await run(javac, ['--release', '17', '-nowarn', '-d', target, '-cp', jar, LAUNCHER_SOURCE], {
      timeout: 60_000,
    });
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(stderr ? stderr.split('\n')[0] : String(error));
  }
  if (!cached) return { classes: target };
  try {
    renameSync(target, classes);
  } catch {
    if (!existsSync(join(classes, `${LAUNCHER_CLASS}.class`))) return { classes: target };
    // Another process built it meanwhile: theirs is the same.
    rmSync(target, { recursive: true, force: true });
  }
  return { classes };
}

function findCompiler(): string | undefined {
  const candidates = [
    'javac',
    ...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'javac')] : []),
  ];
  return candidates.find((javac) => spawnSync(javac, ['-version'], { stdio: 'ignore' }).status === 0);
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
  const missing = indexes.map((index) => index.name).filter((name) => !present.has(name));
  if (table.LocalSecondaryIndexes?.length) {
    // Local indexes belong to the layout that kept counters on listed items: its data reads wrong now.
    throw new Error(
      'The table in .data/ has local indexes and counters on its items, a layout this version no longer reads; start with `npm start -- --fresh` to begin with an empty one.',
    );
  }
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
