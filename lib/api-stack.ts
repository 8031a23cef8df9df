import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AttributeType,
  BillingMode,
  type GlobalSecondaryIndexProps,
  type LocalSecondaryIndexProps,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { functionNameOf, type RouteDefinition, routes as routeTable } from '../functions/routes.ts';
import { type ScheduleDefinition, schedules as scheduleTable } from '../functions/schedules.ts';
import {
  type StreamConsumerDefinition,
  streamConsumers as streamConsumerTable,
} from '../functions/stream-consumers.ts';
import { type WorkerDefinition, workers as workerTable } from '../functions/workers.ts';
import { envNames, queueDlqUrlVariable, queueUrlVariable } from '../shared/config/env.ts';
import { LDAP_PROVIDERS_VARIABLE, ldapProviders } from '../shared/config/ldap.ts';
import { createTableInput, ttlAttribute } from '../shared/store/table/table.ts';
import { AccessRoles, grantKey } from './access-roles.ts';
import { type AccessTargets, ApiFunction, constructIdFor, tracingContextKey } from './api-function.ts';
import { EdgeCache } from './edge-cache.ts';
import { type MonitoredFunction, Monitoring } from './monitoring.ts';
import { areaOf, RouteFunctions, routeKeysOf } from './route-functions.ts';
import { type CapacitySettingProps, type CapacitySettings, capacitySettings } from './stack-settings.ts';

/** Besides the tables below, the capacity settings (stack-settings.ts): each defaults to its context value. */
export interface ApiStackProps extends StackProps, CapacitySettingProps {
  /** @default functions/routes.ts */
  routes?: readonly RouteDefinition[];
  /** @default functions/workers.ts */
  workers?: readonly WorkerDefinition[];
  /** @default functions/stream-consumers.ts */
  streamConsumers?: readonly StreamConsumerDefinition[];
  /** @default functions/schedules.ts */
  schedules?: readonly ScheduleDefinition[];
  /**
   * LDAP_PROVIDERS' JSON (shared/config/ldap.ts) for the functions that sync groups; bind passwords
   * by `bindPasswordSecret` (an ARN or a secret's name). @default the `ldapProviders` context value
   */
  ldapProviders?: string;
}

export interface WorkerQueue {
  queue: Queue;
  deadLetterQueue: Queue;
  consumer: ApiFunction;
}

export interface StreamConsumer {
  consumer: ApiFunction;
  /** Where the event source reports the batches it gave up on. */
  failureQueue: Queue;
}

export interface ScheduledFunction {
  fn: ApiFunction;
  /** The EventBridge rule that invokes it every `rateMinutes`. */
  rule: Rule;
}

/** Days the bucket's server access logs are kept. */
const accessLogRetentionDays = 90;

/** One JSON line per API request: who, what, how it ended, how long it took. */
const accessLogFormat = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  userAgent: '$context.identity.userAgent',
};

const attributeTypes: Partial<Record<string, AttributeType>> = {
  S: AttributeType.STRING,
  N: AttributeType.NUMBER,
  B: AttributeType.BINARY,
};
const projectionTypes: Partial<Record<string, ProjectionType>> = {
  ALL: ProjectionType.ALL,
  KEYS_ONLY: ProjectionType.KEYS_ONLY,
  INCLUDE: ProjectionType.INCLUDE,
};
const streamViewTypes: Partial<Record<string, StreamViewType>> = {
  NEW_AND_OLD_IMAGES: StreamViewType.NEW_AND_OLD_IMAGES,
  NEW_IMAGE: StreamViewType.NEW_IMAGE,
  OLD_IMAGE: StreamViewType.OLD_IMAGE,
  KEYS_ONLY: StreamViewType.KEYS_ONLY,
};

/**
 * The table as shared/store/table/table.ts defines it for DynamoDB Local (`createTableInput`): keys,
 * global and local secondary indexes with their projections, the stream. Read from that one
 * definition, never restated here, so the deployed and the local table stay alike whatever
 * indexes it declares (none local, or none at all, included).
 */
function tableDefinition() {
  const input: CreateTableCommandInput = createTableInput('unused');
  const typeOf = (name: string | undefined) => {
    const declared = input.AttributeDefinitions?.find((attribute) => attribute.AttributeName === name);
    const type = declared?.AttributeType && attributeTypes[declared.AttributeType];
    if (!name || !type) throw new Error(`shared/store/table/table.ts: key attribute ${name} has no type`);
    return { name, type };
  };
  const keyOf = (keySchema: CreateTableCommandInput['KeySchema'], keyType: 'HASH' | 'RANGE') => {
    const element = keySchema?.find((key) => key.KeyType === keyType);
    return element ? typeOf(element.AttributeName) : undefined;
  };
  const projectionOf = (projection: { ProjectionType?: string; NonKeyAttributes?: string[] } | undefined) => {
    const projectionType = projectionTypes[projection?.ProjectionType ?? 'ALL'];
    if (!projectionType)
      throw new Error(`shared/store/table/table.ts: projection ${projection?.ProjectionType}`);
    return {
      projectionType,
      ...(projection?.NonKeyAttributes?.length ? { nonKeyAttributes: projection.NonKeyAttributes } : {}),
    };
  };
  const partitionKey = keyOf(input.KeySchema, 'HASH');
  if (!partitionKey) throw new Error('shared/store/table/table.ts: the table has no partition key');
  const globalIndexes = (input.GlobalSecondaryIndexes ?? []).map(
    (index): Omit<GlobalSecondaryIndexProps, 'warmThroughput'> => {
      const indexPartitionKey = keyOf(index.KeySchema, 'HASH');
      if (!index.IndexName || !indexPartitionKey) {
        throw new Error(`shared/store/table/table.ts: index ${index.IndexName} has no partition key`);
      }
      const sortKey = keyOf(index.KeySchema, 'RANGE');
      return {
        indexName: index.IndexName,
        partitionKey: indexPartitionKey,
        ...(sortKey ? { sortKey } : {}),
        ...projectionOf(index.Projection),
      };
    },
  );
  const localIndexes = (input.LocalSecondaryIndexes ?? []).map((index): LocalSecondaryIndexProps => {
    const sortKey = keyOf(index.KeySchema, 'RANGE');
    if (!index.IndexName || !sortKey) {
      throw new Error(`shared/store/table/table.ts: local index ${index.IndexName} has no sort key`);
    }
    return { indexName: index.IndexName, sortKey, ...projectionOf(index.Projection) };
  });
  const streamView = input.StreamSpecification?.StreamEnabled
    ? streamViewTypes[input.StreamSpecification.StreamViewType ?? '']
    : undefined;
  if (input.StreamSpecification?.StreamEnabled && !streamView) {
    throw new Error(`shared/store/table/table.ts: stream view ${input.StreamSpecification.StreamViewType}`);
  }
  return {
    partitionKey,
    sortKey: keyOf(input.KeySchema, 'RANGE'),
    globalIndexes,
    localIndexes,
    stream: streamView,
  };
}

/**
 * The key keyset cursors are signed with: random, generated by Secrets Manager at the first
 * deploy and kept across deploys. Functions get its value through a dynamic reference in their
 * environment (see AccessTargets.cursorKey); rotating it only ends the cursors in flight.
 */
function cursorKeySecret(scope: Construct): Secret {
  const secret = new Secret(scope, 'CursorKey', {
    description: 'HMAC key of keyset pagination cursors',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  NagSuppressions.addResourceSuppressions(secret, [
    {
      id: 'AwsSolutions-SMG4',
      reason: 'Rotation would only end the cursors in flight; the key signs nothing that outlives a walk.',
    },
  ]);
  return secret;
}

/**
 * The LDAP providers as the functions get them, checked at synth (a malformed setting fails the
 * deploy, not the first sync), and the secrets their roles may read: an ARN as given, a name as
 * the ARN of that name in this account and region (Secrets Manager adds six characters).
 */
function ldapTargets(stack: Stack, setting: unknown): AccessTargets['ldap'] {
  if (setting === undefined || setting === null || setting === '') return undefined;
  const providers = typeof setting === 'string' ? setting : JSON.stringify(setting);
  const secretArns = ldapProviders({ [LDAP_PROVIDERS_VARIABLE]: providers }).flatMap(
    ({ bindPasswordSecret }) =>
      bindPasswordSecret === undefined
        ? []
        : bindPasswordSecret.startsWith('arn:')
          ? [bindPasswordSecret]
          : [
              stack.formatArn({
                service: 'secretsmanager',
                resource: 'secret',
                resourceName: `${bindPasswordSecret}-??????`,
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            ],
  );
  return { providers, secretArns };
}

/**
 * The whole service, deployed as one root stack: one table, one bucket, one queue (+ DLQ) and
 * consumer per worker, one IAM role per distinct declared access, one log group for the route
 * functions and one for the workers (and scheduled functions), an EventBridge rule per schedule,
 * and an HTTP API. The route functions, with their integrations, invoke permissions and routes
 * (one per route-table entry, and a HEAD twin per GET route), live in one nested stack per area of
 * `functions/` (see route-functions.ts), which keeps every template far below CloudFormation's 500
 * resources; the alarms and the dashboard in one more (monitoring.ts). Each function is granted
 * exactly its declared `access`. A CloudFront distribution in front of the API serves anonymous
 * list pages from its cache (edge-cache.ts); capacity settings come from props or the context
 * (stack-settings.ts).
 */
export class ApiStack extends Stack {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly api: HttpApi;
  readonly roles: AccessRoles;
  readonly apiLogGroup: LogGroup;
  readonly workerLogGroup: LogGroup;
  /** The HTTP API's access log (one JSON line per request). */
  readonly apiAccessLogGroup: LogGroup;
  /** Where the bucket's server access logs go. */
  readonly accessLogsBucket: Bucket;
  /** Alarms, their SNS topic and the dashboard. */
  readonly monitoring: Monitoring;
  /** By worker-table queue name. */
  readonly workerQueues: ReadonlyMap<string, WorkerQueue>;
  /** By stream-consumer name. */
  readonly streamConsumers: ReadonlyMap<string, StreamConsumer>;
  /** By schedule name. */
  readonly scheduledFunctions: ReadonlyMap<string, ScheduledFunction>;
  /** Route functions by name (`functionNameOf`: the handler entry, or the route's `name`). */
  readonly routeFunctions: ReadonlyMap<string, ApiFunction>;
  /** The nested stacks of route functions, by area (`''` for files directly in `functions/`). */
  readonly routeStacks: ReadonlyMap<string, RouteFunctions>;
  /** CloudFront in front of the API: anonymous list pages cached, everything else passed through. */
  readonly edgeCache: EdgeCache;
  /** Capacity settings: list cache time, external URL, worker concurrency, warm throughput, quotas. */
  readonly settings: CapacitySettings;

  constructor(scope: Construct, id: string, props: ApiStackProps = {}) {
    super(scope, id, props);
    // Server access logs delivered under a bucket policy (not the log-delivery ACL), so that the
    // log bucket keeps ACLs disabled. Set here, not in cdk.json, because the stack depends on it.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const routes = props.routes ?? routeTable;
    const workers = props.workers ?? workerTable;
    const streamConsumers = props.streamConsumers ?? streamConsumerTable;
    const schedules = props.schedules ?? scheduleTable;
    const tracingContext: unknown = this.node.tryGetContext(tracingContextKey);
    const tracing = tracingContext === true || tracingContext === 'true';

    const settings = capacitySettings(
      this,
      props,
      workers.map((worker) => worker.queue),
    );
    this.settings = settings;

    const definition = tableDefinition();
    this.table = new Table(this, 'Table', {
      partitionKey: definition.partitionKey,
      ...(definition.sortKey ? { sortKey: definition.sortKey } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      // What the table takes at once without throttling (docs/capacity.md F7); only ever raised.
      warmThroughput: settings.tableWarmThroughput,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
      ...(definition.stream ? { stream: definition.stream } : {}),
      timeToLiveAttribute: ttlAttribute,
    });
    for (const index of definition.globalIndexes) {
      this.table.addGlobalSecondaryIndex({ ...index, warmThroughput: settings.indexWarmThroughput });
    }
    for (const index of definition.localIndexes) this.table.addLocalSecondaryIndex(index);

    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // Server access logs can only be delivered to a bucket encrypted with S3-managed keys.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ expiration: Duration.days(accessLogRetentionDays) }],
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'bucket/',
    });

    // Queues first: route and worker functions may send to any of them.
    const queues = new Map<string, { queue: Queue; deadLetterQueue: Queue }>();
    for (const worker of workers) {
      if (queues.has(worker.queue)) throw new Error(`worker queue ${worker.queue} is declared twice`);
      if (worker.visibilityTimeout < worker.timeout) {
        throw new Error(`queue ${worker.queue}: visibilityTimeout must cover the worker timeout`);
      }
      const queueId = constructIdFor(worker.queue);
      const deadLetterQueue = new Queue(this, `${queueId}DeadLetterQueue`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new Queue(this, `${queueId}Queue`, {
        visibilityTimeout: Duration.seconds(worker.visibilityTimeout),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: worker.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      queues.set(worker.queue, { queue, deadLetterQueue });
    }

    const targets: AccessTargets = {
      table: this.table,
      bucket: this.bucket,
      queues: new Map([...queues].map(([name, { queue }]) => [name, queue])),
      deadLetterQueues: new Map([...queues].map(([name, { deadLetterQueue }]) => [name, deadLetterQueue])),
      ldap: ldapTargets(this, props.ldapProviders ?? this.node.tryGetContext('ldapProviders')),
      cursorKey: cursorKeySecret(this).secretValue.unsafeUnwrap(),
    };
    this.apiLogGroup = new LogGroup(this, 'ApiLogGroup', { retention: RetentionDays.ONE_MONTH });
    this.workerLogGroup = new LogGroup(this, 'WorkerLogGroup', { retention: RetentionDays.ONE_MONTH });
    this.roles = new AccessRoles(this, 'AccessRoles', targets, [this.apiLogGroup, this.workerLogGroup]);

    const workerQueues = new Map<string, WorkerQueue>();
    for (const worker of workers) {
      const { queue, deadLetterQueue } = queues.get(worker.queue)!;
      const consumer = new ApiFunction(this, constructIdFor(worker.entry), {
        entry: worker.entry,
        access: worker.access,
        targets,
        role: this.roles.roleFor(worker.entry, {
          access: worker.access,
          consumes: worker.queue,
          deadLetters: worker.ownsRetries,
        }),
        logGroup: this.workerLogGroup,
        tracing,
        timeout: Duration.seconds(worker.timeout),
      });
      if (worker.ownsRetries) {
        // deferMessage needs its own queue's URL, deadLetter its dead-letter queue's.
        consumer.addEnvironment(queueUrlVariable(worker.queue), queue.queueUrl);
        consumer.addEnvironment(queueDlqUrlVariable(worker.queue), deadLetterQueue.queueUrl);
      }
      consumer.consumeQueue(queue, {
        batchSize: worker.batchSize,
        maxConcurrency: settings.workerMaxConcurrency[worker.queue],
      });
      workerQueues.set(worker.queue, { queue, deadLetterQueue, consumer });
    }
    this.workerQueues = workerQueues;

    // Check the route table as a whole before splitting it by area.
    const accessByName = new Map<string, string>();
    const byArea = new Map<string, RouteDefinition[]>();
    const routeKeys = new Set<string>();
    for (const route of routes) {
      if (route.path === '$default' && route.method !== 'ANY') {
        throw new Error('the $default route must use method ANY');
      }
      for (const key of routeKeysOf(route)) {
        if (routeKeys.has(key)) throw new Error(`route ${key} is declared twice`);
        routeKeys.add(key);
      }
      const key = grantKey({ access: route.access });
      // Routes of one function (one name) share its role.
      const name = functionNameOf(route);
      const known = accessByName.get(name);
      if (known !== undefined && known !== key) {
        throw new Error(`${name} appears in several routes with different access`);
      }
      accessByName.set(name, key);
      const area = areaOf(name);
      byArea.set(area, [...(byArea.get(area) ?? []), route]);
    }

    this.api = new HttpApi(this, 'HttpApi', { apiName: id, description: 'GitLab-compatible REST API' });
    this.apiAccessLogGroup = new LogGroup(this, 'ApiAccessLogGroup', { retention: RetentionDays.ONE_MONTH });
    // The L2 default stage takes no access log settings; its CloudFormation resource does.
    (this.api.defaultStage!.node.defaultChild as CfnStage).accessLogSettings = {
      destinationArn: this.apiAccessLogGroup.logGroupArn,
      format: JSON.stringify(accessLogFormat),
    };
    const routeStacks = new Map<string, RouteFunctions>();
    for (const [area, areaRoutes] of byArea) {
      routeStacks.set(
        area,
        new RouteFunctions(this, area, {
          api: this.api,
          routes: areaRoutes,
          roles: this.roles,
          targets,
          logGroup: this.apiLogGroup,
          tracing,
        }),
      );
    }
    this.routeStacks = routeStacks;

    this.routeFunctions = new Map(
      [...routeStacks.values()].flatMap((nested) => [...nested.targets].map(([name, { fn }]) => [name, fn])),
    );

    // The stream consumers, after everything they may name: the table's stream drives each one.
    const consumers = new Map<string, StreamConsumer>();
    for (const definition of streamConsumers) {
      if (consumers.has(definition.name)) {
        throw new Error(`stream consumer ${definition.name} is declared twice`);
      }
      const failureQueue = new Queue(this, `${constructIdFor(definition.name)}StreamFailureQueue`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const consumer = new ApiFunction(this, constructIdFor(definition.entry), {
        entry: definition.entry,
        access: definition.access,
        targets,
        role: this.roles.roleFor(definition.entry, { access: definition.access, stream: definition.name }),
        logGroup: this.workerLogGroup,
        tracing,
        timeout: Duration.seconds(definition.timeout),
      });
      consumer.consumeStream(this.table, definition, failureQueue);
      NagSuppressions.addResourceSuppressions(failureQueue, [
        {
          id: 'AwsSolutions-SQS3',
          reason:
            "This queue is a dead-letter queue: the stream event source mapping's on-failure destination (nothing consumes it; its depth alarms).",
        },
      ]);
      NagSuppressions.addResourceSuppressions(
        consumer.role!,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'dynamodb:ListStreams, granted by the stream event source, has no resource-level permissions: IAM accepts only "*" for it.',
            appliesTo: ['Resource::*'],
          },
        ],
        true,
      );
      consumers.set(definition.name, { consumer, failureQueue });
    }
    this.streamConsumers = consumers;

    // Scheduled functions, last like the stream consumers: an EventBridge rule each invokes one
    // with the role of its declared access (shared with the routes that declare the same).
    const scheduled = new Map<string, ScheduledFunction>();
    for (const schedule of schedules) {
      if (scheduled.has(schedule.name)) throw new Error(`schedule ${schedule.name} is declared twice`);
      if (!Number.isInteger(schedule.rateMinutes) || schedule.rateMinutes < 1) {
        throw new Error(`schedule ${schedule.name}: rateMinutes must be a whole number of minutes`);
      }
      const fn = new ApiFunction(this, constructIdFor(schedule.entry), {
        entry: schedule.entry,
        access: schedule.access,
        targets,
        role: this.roles.roleFor(schedule.entry, { access: schedule.access }),
        logGroup: this.workerLogGroup,
        tracing,
        timeout: Duration.seconds(schedule.timeout),
      });
      const rule = new Rule(this, `${constructIdFor(schedule.name)}Schedule`, {
        schedule: Schedule.rate(Duration.minutes(schedule.rateMinutes)),
        description: `Runs ${schedule.entry} every ${schedule.rateMinutes} minutes`,
        // No retry: a run that failed is made up for by the next one.
        targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
      });
      scheduled.set(schedule.name, { fn, rule });
    }
    this.scheduledFunctions = scheduled;

    // Every function's links (web_url, Link headers, webhook payloads) name the configured address.
    if (settings.externalUrl !== undefined) {
      for (const fn of [
        ...this.routeFunctions.values(),
        ...[...workerQueues.values()].map(({ consumer }) => consumer),
        ...[...consumers.values()].map(({ consumer }) => consumer),
        ...[...scheduled.values()].map(({ fn }) => fn),
      ]) {
        fn.addEnvironment(envNames.externalUrl, settings.externalUrl);
      }
    }
    // Users' avatar_url is presented by the routes alone.
    if (settings.gravatarUrl !== undefined) {
      for (const fn of this.routeFunctions.values())
        fn.addEnvironment(envNames.gravatarUrl, settings.gravatarUrl);
    }

    this.edgeCache = new EdgeCache(this, 'EdgeCache', {
      api: this.api,
      routes,
      listCacheSeconds: settings.listCacheSeconds,
      accessLogsBucket: this.accessLogsBucket,
    });

    const monitored = (fn: ApiFunction): MonitoredFunction => ({ name: fn.name, fn });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      rootStackName: this.stackName,
      api: this.api,
      table: this.table,
      indexNames: definition.globalIndexes.map((index) => index.indexName),
      tableQuota: settings.tableQuota,
      queues: new Map([...workerQueues].map(([name, { queue }]) => [name, queue])),
      deadLetterQueues: new Map([
        ...[...workerQueues].map(([name, { deadLetterQueue }]) => [name, deadLetterQueue] as const),
        ...[...consumers].map(([name, { failureQueue }]) => [`${name} (stream)`, failureQueue] as const),
      ]),
      functionAlarms: new Map([...routeStacks].map(([area, nested]) => [area, nested.alarms])),
      functions: [
        ...[...workerQueues.values()].map(({ consumer }) => monitored(consumer)),
        ...[...consumers.values()].map(({ consumer }) => monitored(consumer)),
        ...[...scheduled.values()].map(({ fn }) => monitored(fn)),
      ],
      logGroups: [this.apiLogGroup, this.workerLogGroup],
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'DistributionUrl', {
      value: this.edgeCache.url,
      description: 'The API through CloudFront (anonymous list pages cached); give it to clients',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'SNS topic every alarm notifies (subscribe an email, chat or paging endpoint to it)',
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
  }
}
