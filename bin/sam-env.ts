/**
 * `npm run sam-env`: writes SAM CLI's `--env-vars` file (default cdk.out/sam-env.json), which
 * points every function of the synthesized stack, nested stacks included, at DynamoDB Local and
 * s3rver as a container reaches them. With `--serve` it also runs those engines on the ports the
 * file names, with the table, the bucket and an admin token, until Ctrl-C.
 *
 * Options: --out FILE, --host NAME (default host.docker.internal; 127.0.0.1 with
 * `sam local … --docker-network host`), --dynamodb-port (8000), --s3-port (4568),
 * --sqs-endpoint URL (an SQS-compatible server with one queue per worker), --serve,
 * --data-dir DIR (default .data/sam-local, kept between runs). Environment: ROOT_TOKEN.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { envNames } from '#config/env.ts';
import { ensureRootToken } from '#store/table/bootstrap.ts';
import { ensureTable, JAVA_MISSING, startDynamoDbLocal, startS3rver } from './local/engines.ts';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, samEnvVarsFile } from './local/sam-environment.ts';

const projectRoot = resolve(import.meta.dirname, '..');

const { values: options } = parseArgs({
  options: {
    out: { type: 'string', default: join(projectRoot, 'cdk.out', 'sam-env.json') },
    host: { type: 'string', default: 'host.docker.internal' },
    'dynamodb-port': { type: 'string', default: '8000' },
    's3-port': { type: 'string', default: '4568' },
    'sqs-endpoint': { type: 'string' },
    serve: { type: 'boolean', default: false },
    'data-dir': { type: 'string', default: join(projectRoot, '.data', 'sam-local') },
  },
});

function port(option: 'dynamodb-port' | 's3-port'): number {
  const value = Number(options[option]);
  if (Number.isInteger(value) && value > 0 && value < 65536) return value;
  process.stderr.write(`--${option} must be a port number, not ${options[option]}\n`);
  process.exit(1);
}
const dynamodbPort = port('dynamodb-port');
const s3Port = port('s3-port');
const file = samEnvVarsFile({
  dynamodb: `http://${options.host}:${dynamodbPort}`,
  s3: `http://${options.host}:${s3Port}`,
  sqs: options['sqs-endpoint'],
});
const out = resolve(options.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
process.stdout.write(`Wrote ${out}: every function reaches the engines at ${options.host}\n`);

if (options.serve) {
  try {
    const dataDir = resolve(options['data-dir']);
    // On all interfaces: containers on Docker's bridge network reach the host by its bridge address.
    const dynamodb = await startDynamoDbLocal({
      port: dynamodbPort,
      dataDir: join(dataDir, 'dynamodb'),
      address: '0.0.0.0',
    });
    const s3 = await startS3rver({
      port: s3Port,
      dataDir: join(dataDir, 's3'),
      bucket: LOCAL_BUCKET_NAME,
      address: '0.0.0.0',
    });
    await ensureTable(dynamodb.endpoint, LOCAL_TABLE_NAME);
    Object.assign(process.env, {
      [envNames.tableName]: LOCAL_TABLE_NAME,
      [envNames.dynamodbEndpoint]: dynamodb.endpoint,
    });
    const { token } = await ensureRootToken(process.env.ROOT_TOKEN || undefined);
    process.stdout.write(
      [
        `DynamoDB Local on port ${dynamodbPort} (table ${LOCAL_TABLE_NAME}), s3rver on port ${s3Port} (bucket ${LOCAL_BUCKET_NAME})`,
        `Admin token: ${token}`,
        'Ctrl-C stops the engines; the data stays in the data directory.',
        '',
      ].join('\n'),
    );
    const shutdown = async () => {
      await s3.stop();
      await dynamodb.stop();
      process.exit(0);
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `${message === JAVA_MISSING ? message : `Could not start the engines: ${message}`}\n`,
    );
    process.exit(1);
  }
}
