import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  FilterCriteria,
  LoggingFormat,
  Runtime,
  StartingPosition,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { Access } from '../functions/routes.ts';
import type { StreamConsumerDefinition } from '../functions/stream-consumers.ts';
import { envNames, queueUrlVariable } from '../shared/config/env.ts';
import { LDAP_PROVIDERS_VARIABLE } from '../shared/config/ldap.ts';
import { bundleAliases, bundleDefines } from './bundling.ts';

/** The repository root: route and worker entries are relative to it, and it holds the lock file. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export type AccessLevel = 'read' | 'write';

/**
 * The exact IAM actions each kind of access grants. Never Scan: lists are Queries on GSIs.
 * TransactWriteItems/TransactGetItems are authorised per item by these same actions.
 */
export const tableActions: Readonly<Record<AccessLevel, readonly string[]>> = {
  read: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
  ],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
};

/** Object-level actions only (HeadObject is authorised by GetObject). */
export const bucketActions: Readonly<Record<AccessLevel, readonly string[]>> = {
  read: ['s3:GetObject'],
  write: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
};

export const queueSendActions: readonly string[] = [
  'sqs:SendMessage',
  'sqs:GetQueueUrl',
  'sqs:GetQueueAttributes',
];

/** What a function's `access` can point at: the stack's table, bucket and queues (by worker-table name). */
export interface AccessTargets {
  table: ITable;
  bucket: IBucket;
  queues: ReadonlyMap<string, IQueue>;
  /** Each worker queue's dead-letter queue, by the worker queue's name. */
  deadLetterQueues?: ReadonlyMap<string, IQueue>;
  /** The LDAP providers (LDAP_PROVIDERS' JSON) and the ARNs of their bind password secrets. */
  ldap?: { providers: string; secretArns: readonly string[] };
  /**
   * The keyset cursor key for API functions: a dynamic reference to the stack's secret, resolved
   * by CloudFormation at deploy, so no function reads Secrets Manager at run time.
   */
  cursorKey?: string;
}

/** Lambda bundles are ESM; CommonJS dependencies inside them still call `require`. */
const esmRequireBanner =
  "import { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);";

export interface ApiFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  /** The function's name where it is not its entry (a route sharing its entry: `RouteDefinition.name`). */
  name?: string;
  /** What the function may touch: sets TABLE_NAME, BUCKET_NAME and QUEUE_URL_<NAME> for it. */
  access: Access;
  targets: AccessTargets;
  /** The role granting exactly `access` (shared by every function that declares the same access). */
  role: IRole;
  /** The shared log group this function writes to (one per kind of function, with retention). */
  logGroup: ILogGroup;
  /** @default 10 seconds */
  timeout?: Duration;
  /** @default 1024 */
  memorySize?: number;
  description?: string;
  /** X-Ray active tracing, and the bundle built with the tracer (shared/observability/tracing.ts). @default false */
  tracing?: boolean;
}

/** The cdk context value that turns tracing on for every function: `cdk deploy -c tracing=true`. */
export const tracingContextKey = 'tracing';

/** Roles already excused for X-Ray's wildcard (a role is shared by many functions). */
const tracedRoles = new WeakSet<IRole>();

/**
 * A NodejsFunction with the project's fixed defaults (Node 22 on arm64, ESM bundle built by the
 * local esbuild with the AWS SDK inside, source maps, JSON logs into a shared log group). It
 * receives its role: grants live on the role (see access-roles.ts), the function only gets the
 * environment variables naming what its `access` declares.
 */
export class ApiFunction extends NodejsFunction {
  /** The function's name in the tables: its entry, or its route's `name` (its description too). */
  readonly name: string;
  readonly access: Access;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id, {
      entry: path.join(projectRoot, props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description ?? props.name ?? props.entry,
      role: props.role,
      logGroup: props.logGroup,
      loggingFormat: LoggingFormat.JSON,
      ...(props.tracing ? { tracing: Tracing.ACTIVE } : {}),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [envNames.idBlockSize]: '10',
        ...accessEnvironment(props.name ?? props.entry, props.access, props.targets),
        // Declared empty (AWS's endpoints) so that SAM CLI's --env-vars can point them at local
        // engines: it sets only the variables a function declares.
        ...(props.access.table ? { [envNames.dynamodbEndpoint]: '' } : {}),
        ...(props.access.bucket ? { [envNames.s3Endpoint]: '' } : {}),
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: esmRequireBanner,
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        bundleAwsSDK: true,
        externalModules: [],
        logLevel: LogLevel.WARNING,
        esbuildArgs: {
          '--alias': Object.entries(bundleAliases).map(([module, replacement]) => `${module}=${replacement}`),
        },
        // The tracer only when tracing is on, the multipart parser only where a body may come.
        define: bundleDefines(props.entry, { tracing: props.tracing ?? false }),
      },
    });
    this.name = props.name ?? props.entry;
    this.access = props.access;
    if (props.tracing && !tracedRoles.has(props.role)) {
      tracedRoles.add(props.role);
      NagSuppressions.addResourceSuppressions(
        props.role,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'xray:PutTraceSegments and xray:PutTelemetryRecords, granted for active tracing, have no resource-level permissions: IAM accepts only "*" for them.',
            appliesTo: ['Resource::*'],
          },
        ],
        true,
      );
    }
    NagSuppressions.addResourceSuppressions(this, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x on purpose: the bundles are built for node22 (esbuild target), and the local runtime, the tests and the benchmarks run on Node 22; the runtime moves with them, deliberately.',
      },
    ]);
  }

  /**
   * Consumes `queue` (the event source mapping grants receive/delete on that queue only), reporting
   * failed records one by one; `maxConcurrency` bounds the invocations the mapping holds at once.
   */
  consumeQueue(queue: IQueue, options: { batchSize: number; maxConcurrency?: number }): this {
    this.addEventSource(
      new SqsEventSource(queue, {
        batchSize: options.batchSize,
        reportBatchItemFailures: true,
        ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
      }),
    );
    return this;
  }

  /**
   * Consumes the table's stream as `consumer` declares: its filters, batches, partial batch
   * responses, bisection, bounded retries and record age; what it gives up on is reported to
   * `failureQueue` (shard, sequence numbers: the records stay readable in the stream for 24 hours).
   * The event source mapping grants reading the stream and sending to that queue.
   */
  consumeStream(table: ITable, consumer: StreamConsumerDefinition, failureQueue: IQueue): this {
    this.addEventSource(
      new DynamoEventSource(table, {
        // LATEST, not TRIM_HORIZON: a mapping created on a stream that already holds records (a
        // consumer added or re-created by a later deploy) would replay up to a day of writes as
        // events, already delivered or long stale. The price: writes committed while the mapping is
        // being created raise no event.
        startingPosition: StartingPosition.LATEST,
        batchSize: consumer.batchSize,
        maxBatchingWindow: Duration.seconds(consumer.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
        bisectBatchOnError: consumer.bisectOnError,
        parallelizationFactor: consumer.parallelizationFactor,
        retryAttempts: consumer.retryAttempts,
        maxRecordAge: Duration.seconds(consumer.maxRecordAgeSeconds),
        onFailure: new SqsDlq(failureQueue),
        filters: consumer.filters.map((pattern) => FilterCriteria.filter({ ...pattern })),
      }),
    );
    return this;
  }
}

/** TABLE_NAME, BUCKET_NAME, QUEUE_URL_<NAME> and LDAP_PROVIDERS for exactly what `access` declares. */
export function accessEnvironment(entry: string, access: Access, targets: AccessTargets) {
  const environment: Record<string, string> = {};
  if (access.table) environment[envNames.tableName] = targets.table.tableName;
  if (access.bucket) environment[envNames.bucketName] = targets.bucket.bucketName;
  for (const name of access.queues ?? []) {
    environment[queueUrlVariable(name)] = queueOf(entry, name, targets).queueUrl;
  }
  if (access.ldap && targets.ldap) environment[LDAP_PROVIDERS_VARIABLE] = targets.ldap.providers;
  return environment;
}

/** The queue a table entry names, or a synth error naming the entry. */
export function queueOf(entry: string, name: string, targets: AccessTargets): IQueue {
  const queue = targets.queues.get(name);
  if (!queue) throw new Error(`${entry} sends to unknown queue ${name}`);
  return queue;
}

/** Construct id from a handler path: `functions/users/get-current.ts` → `UsersGetCurrent`. */
export function constructIdFor(entry: string): string {
  return entry
    .replace(/^functions\//, '')
    .replace(/\.[cm]?[jt]s$/, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
