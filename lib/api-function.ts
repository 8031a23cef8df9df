import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { envNames, queueUrlVariable } from '../shared/config/env.ts';

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

/** Lambda bundles are ESM; CommonJS dependencies inside them still call `require`. */
const esmRequireBanner =
  "import { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);";

export interface ApiFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  /** @default 10 seconds */
  timeout?: Duration;
  /** @default 1024 */
  memorySize?: number;
  description?: string;
}

/**
 * A NodejsFunction with the project's fixed defaults (Node 22 on arm64, ESM bundle built by the
 * local esbuild with the AWS SDK inside, source maps, a log group with retention) and `bind…`
 * helpers that set the environment variable and the least-privilege grant in one call.
 */
export class ApiFunction extends NodejsFunction {
  /** The handler file this function was built from, relative to the project root. */
  readonly entryPath: string;

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
      description: props.description ?? props.entry,
      logGroup: new LogGroup(scope, `${id}LogGroup`, { retention: RetentionDays.ONE_MONTH }),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [envNames.idBlockSize]: '10',
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
      },
    });
    this.entryPath = props.entry;
  }

  /** TABLE_NAME plus the table's read (or read + write) actions on the table and its indexes. */
  bindTable(table: ITable, level: AccessLevel): this {
    this.addEnvironment(envNames.tableName, table.tableName);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: [...tableActions[level]],
        resources: [table.tableArn, `${table.tableArn}/index/*`],
      }),
    );
    return this;
  }

  /** BUCKET_NAME plus object read (or read + write) actions on the bucket's objects. */
  bindBucket(bucket: IBucket, level: AccessLevel): this {
    this.addEnvironment(envNames.bucketName, bucket.bucketName);
    this.addToRolePolicy(
      new PolicyStatement({ actions: [...bucketActions[level]], resources: [bucket.arnForObjects('*')] }),
    );
    return this;
  }

  /** QUEUE_URL_<NAME> plus permission to send to that one queue. `name` is the worker-table name. */
  bindQueue(name: string, queue: IQueue): this {
    this.addEnvironment(queueUrlVariable(name), queue.queueUrl);
    this.addToRolePolicy(
      new PolicyStatement({ actions: [...queueSendActions], resources: [queue.queueArn] }),
    );
    return this;
  }

  /** Consumes `queue` (the event source mapping grants receive/delete on that queue only). */
  consumeQueue(queue: IQueue, options: { batchSize: number }): this {
    this.addEventSource(
      new SqsEventSource(queue, { batchSize: options.batchSize, reportBatchItemFailures: true }),
    );
    return this;
  }
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
