import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type Access, type RouteDefinition, routes as routeTable } from '../functions/routes.ts';
import { type WorkerDefinition, workers as workerTable } from '../functions/workers.ts';
import { indexes, keyAttributes, localIndexes } from '../shared/store/table.ts';
import { ApiFunction, constructIdFor } from './api-function.ts';

export interface ApiStackProps extends StackProps {
  /** @default functions/routes.ts */
  routes?: readonly RouteDefinition[];
  /** @default functions/workers.ts */
  workers?: readonly WorkerDefinition[];
}

export interface WorkerQueue {
  queue: Queue;
  deadLetterQueue: Queue;
  consumer: ApiFunction;
}

const methods: Record<RouteDefinition['method'], HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  DELETE: HttpMethod.DELETE,
  ANY: HttpMethod.ANY,
};

/**
 * The whole service: one table, one bucket, one queue (+ DLQ) and consumer per worker, and an
 * HTTP API with one function per route. Everything is driven by the route and worker tables, and
 * each function is granted exactly its declared `access`.
 */
export class ApiStack extends Stack {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly api: HttpApi;
  /** By worker-table queue name. */
  readonly workerQueues: ReadonlyMap<string, WorkerQueue>;
  /** Route functions by handler entry (relative to the project root). */
  readonly routeFunctions: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? routeTable;
    const workers = props.workers ?? workerTable;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: keyAttributes.partition, type: AttributeType.STRING },
      sortKey: { name: keyAttributes.sort, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
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

    const bindAccess = (fn: ApiFunction, access: Access) => {
      if (access.table) fn.bindTable(this.table, access.table);
      if (access.bucket) fn.bindBucket(this.bucket, access.bucket);
      for (const name of access.queues ?? []) {
        const target = queues.get(name);
        if (!target) throw new Error(`${fn.entryPath} sends to unknown queue ${name}`);
        fn.bindQueue(name, target.queue);
      }
    };

    const workerQueues = new Map<string, WorkerQueue>();
    for (const worker of workers) {
      const consumer = new ApiFunction(this, constructIdFor(worker.entry), {
        entry: worker.entry,
        timeout: Duration.seconds(worker.timeout),
      });
      bindAccess(consumer, worker.access);
      const { queue, deadLetterQueue } = queues.get(worker.queue)!;
      consumer.consumeQueue(queue, { batchSize: worker.batchSize });
      workerQueues.set(worker.queue, { queue, deadLetterQueue, consumer });
    }
    this.workerQueues = workerQueues;

    this.api = new HttpApi(this, 'HttpApi', { apiName: id, description: 'GitLab-compatible REST API' });
    type RouteTarget = { fn: ApiFunction; access: Access; integration: HttpLambdaIntegration };
    const functions = new Map<string, RouteTarget>();
    for (const route of routes) {
      const fnId = constructIdFor(route.entry);
      let target = functions.get(route.entry);
      if (!target) {
        const fn = new ApiFunction(this, fnId, { entry: route.entry });
        bindAccess(fn, route.access);
        target = { fn, access: route.access, integration: new HttpLambdaIntegration('Integration', fn) };
        functions.set(route.entry, target);
      } else if (JSON.stringify(target.access) !== JSON.stringify(route.access)) {
        throw new Error(`${route.entry} appears in several routes with different access`);
      }
      const isDefault = route.path === '$default';
      if (isDefault && route.method !== 'ANY') throw new Error('the $default route must use method ANY');
      const routeId = isDefault
        ? 'DefaultRoute'
        : `${fnId}${constructIdFor(route.method.toLowerCase())}Route`;
      new HttpRoute(this, routeId, {
        httpApi: this.api,
        routeKey: isDefault ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, methods[route.method]),
        integration: target.integration,
      });
    }
    this.routeFunctions = new Map([...functions].map(([entry, { fn }]) => [entry, fn]));

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
  }
}
