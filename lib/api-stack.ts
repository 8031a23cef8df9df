import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnRoute, HttpApi, HttpMethod, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type RouteDefinition, routes as routeTable } from '../functions/routes.ts';
import { type ScheduleDefinition, schedules as scheduleTable } from '../functions/schedules.ts';
import {
  type StreamConsumerDefinition,
  streamConsumers as streamConsumerTable,
} from '../functions/stream-consumers.ts';
import { type WorkerDefinition, workers as workerTable } from '../functions/workers.ts';
import { queueDlqUrlVariable, queueUrlVariable } from '../shared/config/env.ts';
import { LDAP_PROVIDERS_VARIABLE, ldapProviders } from '../shared/config/ldap.ts';
import { indexes, keyAttributes, localIndexes, streamViewType, ttlAttribute } from '../shared/store/table.ts';
import { AccessRoles, grantKey } from './access-roles.ts';
import { type AccessTargets, ApiFunction, constructIdFor } from './api-function.ts';
import { areaOf, RouteFunctions } from './route-functions.ts';

export interface ApiStackProps extends StackProps {
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

const streamViewTypes: Record<typeof streamViewType, StreamViewType> = {
  NEW_AND_OLD_IMAGES: StreamViewType.NEW_AND_OLD_IMAGES,
};

const methods: Record<RouteDefinition['method'], HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  DELETE: HttpMethod.DELETE,
  ANY: HttpMethod.ANY,
};

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

/** Construct id of a route in the root stack (unchanged since routes lived beside their functions). */
export function routeIdFor(route: RouteDefinition): string {
  return route.path === '$default'
    ? 'DefaultRoute'
    : `${constructIdFor(route.entry)}${constructIdFor(route.method.toLowerCase())}Route`;
}

/**
 * The routes that get a HEAD twin: every GET. An HTTP API matches methods exactly (only `ANY`
 * covers HEAD), and GitLab answers HEAD on every GET route as the GET without its body.
 */
export const headTwinsOf = (routes: readonly RouteDefinition[]) =>
  routes.filter((route) => route.method === 'GET');

/** Construct id of a GET route's HEAD twin in the root stack. */
export const headRouteIdFor = (route: RouteDefinition) => `${constructIdFor(route.entry)}HeadRoute`;

/**
 * The whole service, deployed as one root stack: one table, one bucket, one queue (+ DLQ) and
 * consumer per worker, one IAM role per distinct declared access, one log group for the route
 * functions and one for the workers (and scheduled functions), an EventBridge rule per schedule,
 * and an HTTP API with a route per route-table entry (and a HEAD twin per GET route). The
 * route functions (with their integrations and invoke permissions) live in one nested stack per
 * area of `functions/` (see route-functions.ts), which keeps every template far below
 * CloudFormation's 500 resources. Each function is granted exactly its declared `access`.
 */
export class ApiStack extends Stack {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly api: HttpApi;
  readonly roles: AccessRoles;
  readonly apiLogGroup: LogGroup;
  readonly workerLogGroup: LogGroup;
  /** By worker-table queue name. */
  readonly workerQueues: ReadonlyMap<string, WorkerQueue>;
  /** By stream-consumer name. */
  readonly streamConsumers: ReadonlyMap<string, StreamConsumer>;
  /** By schedule name. */
  readonly scheduledFunctions: ReadonlyMap<string, ScheduledFunction>;
  /** Route functions by handler entry (relative to the project root). */
  readonly routeFunctions: ReadonlyMap<string, ApiFunction>;
  /** The nested stacks of route functions, by area (`''` for files directly in `functions/`). */
  readonly routeStacks: ReadonlyMap<string, RouteFunctions>;

  constructor(scope: Construct, id: string, props: ApiStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? routeTable;
    const workers = props.workers ?? workerTable;
    const streamConsumers = props.streamConsumers ?? streamConsumerTable;
    const schedules = props.schedules ?? scheduleTable;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: keyAttributes.partition, type: AttributeType.STRING },
      sortKey: { name: keyAttributes.sort, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
      stream: streamViewTypes[streamViewType],
      timeToLiveAttribute: ttlAttribute,
    });
    for (const index of indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    for (const index of localIndexes) {
      this.table.addLocalSecondaryIndex({
        indexName: index.name,
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
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
    };
    this.roles = new AccessRoles(this, 'AccessRoles', targets);
    this.apiLogGroup = new LogGroup(this, 'ApiLogGroup', { retention: RetentionDays.ONE_MONTH });
    this.workerLogGroup = new LogGroup(this, 'WorkerLogGroup', { retention: RetentionDays.ONE_MONTH });

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
        timeout: Duration.seconds(worker.timeout),
      });
      if (worker.ownsRetries) {
        // deferMessage needs its own queue's URL, deadLetter its dead-letter queue's.
        consumer.addEnvironment(queueUrlVariable(worker.queue), queue.queueUrl);
        consumer.addEnvironment(queueDlqUrlVariable(worker.queue), deadLetterQueue.queueUrl);
      }
      consumer.consumeQueue(queue, { batchSize: worker.batchSize });
      workerQueues.set(worker.queue, { queue, deadLetterQueue, consumer });
    }
    this.workerQueues = workerQueues;

    // Check the route table as a whole before splitting it by area.
    const accessByEntry = new Map<string, string>();
    const byArea = new Map<string, RouteDefinition[]>();
    for (const route of routes) {
      if (route.path === '$default' && route.method !== 'ANY') {
        throw new Error('the $default route must use method ANY');
      }
      const key = grantKey({ access: route.access });
      const known = accessByEntry.get(route.entry);
      if (known !== undefined && known !== key) {
        throw new Error(`${route.entry} appears in several routes with different access`);
      }
      accessByEntry.set(route.entry, key);
      const area = areaOf(route.entry);
      byArea.set(area, [...(byArea.get(area) ?? []), route]);
    }

    this.api = new HttpApi(this, 'HttpApi', { apiName: id, description: 'GitLab-compatible REST API' });
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
        }),
      );
    }
    this.routeStacks = routeStacks;

    // Routes stay in the root stack, each pointing at its function's integration in a nested stack;
    // so do the HEAD twins of GET routes (same function, same logical-id stability).
    const routeKeys = new Set<string>();
    const addRoute = (id: string, route: RouteDefinition, method: HttpMethod) => {
      const { integration } = routeStacks.get(areaOf(route.entry))!.targets.get(route.entry)!;
      const { key } =
        route.path === '$default' ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, method);
      if (routeKeys.has(key)) throw new Error(`route ${key} is declared twice`);
      routeKeys.add(key);
      new CfnRoute(new Construct(this, id), 'Resource', {
        apiId: this.api.apiId,
        routeKey: key,
        authorizationType: 'NONE',
        target: `integrations/${integration.integrationId}`,
      });
    };
    for (const route of routes) addRoute(routeIdFor(route), route, methods[route.method]);
    for (const route of headTwinsOf(routes)) addRoute(headRouteIdFor(route), route, HttpMethod.HEAD);

    this.routeFunctions = new Map(
      [...routeStacks.values()].flatMap((nested) =>
        [...nested.targets].map(([entry, { fn }]) => [entry, fn]),
      ),
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
        timeout: Duration.seconds(definition.timeout),
      });
      consumer.consumeStream(this.table, definition, failureQueue);
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

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
  }
}
