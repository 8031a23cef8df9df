import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { Stack, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { functionNameOf, type RouteDefinition, routes } from '../../functions/routes.ts';
import { schedules } from '../../functions/schedules.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { constructIdFor, projectRoot } from '../../lib/api-function.ts';
import { areaOf, maxRoutesPerNestedStack } from '../../lib/route-functions.ts';
import { envNames, queueDlqUrlVariable, queueUrlVariable } from '../../shared/config/env.ts';
import { createTableInput, ttlAttribute } from '../../shared/store/table/table.ts';
import { buildApp, getAtt, type Json, logicalId, ref, synthesize } from './support.ts';

const synth = synthesize();
const { stack, template } = synth;
const rootResources = (type: string) => template.findResources(type);
const only = (type: string) => {
  const found = synth.resources(type);
  expect(found).toHaveLength(1);
  expect(found[0]!.stack).toBe(stack);
  return [found[0]!.id, found[0]!.resource] as const;
};

const tableId = logicalId(stack.table);
const bucketId = logicalId(stack.bucket);
const cursorKeyId = () => Object.keys(rootResources('AWS::SecretsManager::Secret'))[0]!;
const apiId = logicalId(stack.api);
const routeEntries = [...new Set(routes.map((route) => route.entry))];
/** A function per name: routes sharing an entry (the note routes) each have a name of their own. */
const routeFunctionNames = [...new Set(routes.map(functionNameOf))];
const routeKeyOf = (route: RouteDefinition) =>
  route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
/** Every function with its name (`entry`: a route's own name where routes share their entry). */
const allFunctions = [
  ...[...stack.routeFunctions].map(([entry, fn]) => ({ entry, fn, worker: false })),
  ...[...stack.workerQueues.values()].map(({ consumer }) => ({
    entry: consumer.name,
    fn: consumer,
    worker: true,
  })),
  // Stream consumers are workers too: root stack, the workers' log group.
  ...[...stack.streamConsumers.values()].map(({ consumer }) => ({
    entry: consumer.name,
    fn: consumer,
    worker: true,
  })),
  // So are scheduled functions.
  ...[...stack.scheduledFunctions.values()].map(({ fn }) => ({ entry: fn.name, fn, worker: true })),
];

describe('handler files and tables', () => {
  const handlerFiles = readdirSync(path.join(projectRoot, 'functions'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `functions/${file.split(path.sep).join('/')}`)
    .filter((file) => /^export const handler\b/m.test(readFileSync(path.join(projectRoot, file), 'utf8')))
    .sort();
  const tableEntries = [
    ...routeEntries,
    ...workers.map((worker) => worker.entry),
    ...streamConsumers.map((consumer) => consumer.entry),
    ...schedules.map((schedule) => schedule.entry),
  ];

  it('finds handler files to check', () => {
    expect(handlerFiles.length).toBeGreaterThanOrEqual(routeEntries.length);
  });

  it('every file that exports a handler is in the route, worker, stream-consumer or schedule table', () => {
    const missing = handlerFiles.filter((file) => !tableEntries.includes(file));
    expect(missing).toEqual([]);
  });

  it('every table entry is an existing file that exports a handler', () => {
    const absent = tableEntries.filter((entry) => !existsSync(path.join(projectRoot, entry)));
    expect(absent).toEqual([]);
    expect([...new Set(tableEntries)].sort()).toEqual(handlerFiles);
  });

  it('deploys exactly one function per route entry, worker, stream consumer and schedule, and nothing else', () => {
    expect(synth.resources('AWS::Lambda::Function')).toHaveLength(
      routeFunctionNames.length + workers.length + streamConsumers.length + schedules.length,
    );
    expect([...stack.scheduledFunctions.keys()].sort()).toEqual(schedules.map((s) => s.name).sort());
    expect([...stack.routeFunctions.keys()].sort()).toEqual([...routeFunctionNames].sort());
    expect([...stack.workerQueues.keys()].sort()).toEqual(workers.map((worker) => worker.queue).sort());
    expect([...stack.streamConsumers.keys()].sort()).toEqual(streamConsumers.map((c) => c.name).sort());
  });

  it('names each function after its entry path', () => {
    expect(constructIdFor('functions/users/get-current.ts')).toBe('UsersGetCurrent');
    expect(constructIdFor('functions/personal-access-tokens/create.ts')).toBe('PersonalAccessTokensCreate');
    expect(constructIdFor('functions/workers/user-cleanup.ts')).toBe('WorkersUserCleanup');
    for (const { entry, fn } of allFunctions) {
      expect(fn.node.id).toBe(constructIdFor(entry));
      expect(fn.name).toBe(entry);
      expect(synth.resourceOf(fn).Properties.Description).toBe(entry);
    }
  });
});

describe('nested stacks', () => {
  it('one per area of functions/, each holding that area’s route functions', () => {
    const areas = [...new Set(routes.map((route) => areaOf(functionNameOf(route))))].sort();
    expect([...stack.routeStacks.keys()].sort()).toEqual(areas);
    expect(areaOf('functions/projects/hooks/create.ts')).toBe('projects');
    expect(areaOf('functions/not-found.ts')).toBe('');
    for (const [entry, fn] of stack.routeFunctions) {
      expect(synth.templateOf(fn)).toBe(synth.templates.get(stack.routeStacks.get(areaOf(entry))!));
    }
    for (const { fn } of allFunctions.filter((f) => f.worker)) expect(synth.templateOf(fn)).toBe(template);
  });

  it.each(synth.nested.map((nested) => [nested.node.id, nested] as const))(
    '%s holds only functions, their integrations, invoke permissions and routes, and their alarms',
    (_id, nested) => {
      const resources = Object.values(
        synth.templates.get(nested)!.toJSON().Resources as Record<string, Json>,
      );
      const types = [...new Set(resources.map((resource) => resource.Type))].sort();
      expect(types).toEqual([
        'AWS::ApiGatewayV2::Integration',
        'AWS::ApiGatewayV2::Route',
        'AWS::CloudWatch::Alarm',
        'AWS::Lambda::Function',
        'AWS::Lambda::Permission',
      ]);
      const entries = new Set(routes.map(functionNameOf).filter((name) => areaOf(name) === nested.area));
      expect(resources.filter((r) => r.Type === 'AWS::Lambda::Function')).toHaveLength(entries.size);
      expect(resources.filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration')).toHaveLength(entries.size);
      // Errors and throttles, for every ten functions (see monitoring.test.ts).
      expect(resources.filter((r) => r.Type === 'AWS::CloudWatch::Alarm')).toHaveLength(
        2 * Math.ceil(entries.size / 10),
      );
    },
  );
});

describe('HTTP API', () => {
  const routeResources = synth.resources('AWS::ApiGatewayV2::Route');

  it('is one HTTP API with an auto-deployed $default stage, in the root stack', () => {
    const [, api] = only('AWS::ApiGatewayV2::Api');
    expect(api.Properties.ProtocolType).toBe('HTTP');
    const [, stage] = only('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toEqual({
      ApiId: ref(apiId),
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: getAtt(logicalId(stack.apiAccessLogGroup)),
        Format: expect.any(String),
      },
    });
  });

  it('writes an access log line per request (JSON, with request id, route, status and latencies), kept a month', () => {
    const [, stage] = only('AWS::ApiGatewayV2::Stage');
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      integrationError: '$context.integrationErrorMessage',
    });
    const logGroup = synth.resourceOf(stack.apiAccessLogGroup);
    expect(synth.templateOf(stack.apiAccessLogGroup)).toBe(template);
    expect(logGroup.Properties.RetentionInDays).toBe(30);
  });

  const headTwins = routes
    .filter((route) => route.method === 'GET')
    .map((route) => [`HEAD ${route.path}`, route] as const);

  it('has one route per route-table entry, $default included, and a HEAD twin per GET route, each in the nested stack of its function', () => {
    for (const route of routeResources) {
      const owner = [...routes, ...headTwins.map(([, r]) => r)].find(
        (r) => routeKeyOf(r) === route.resource.Properties.RouteKey,
      );
      const nested = owner
        ? stack.routeStacks.get(areaOf(functionNameOf(owner)))
        : stack.routeStacks.get(
            areaOf(
              functionNameOf(routes.find((r) => `HEAD ${r.path}` === route.resource.Properties.RouteKey)!),
            ),
          );
      expect(route.stack, route.resource.Properties.RouteKey).toBe(nested);
    }
    const deployed = routeResources.map((route) => route.resource.Properties.RouteKey as string).sort();
    const expected = [...routes.map(routeKeyOf), ...headTwins.map(([key]) => key)];
    expect(expected).toContain('$default');
    expect(expected).toContain('HEAD /api/v4/projects');
    expect(deployed).toEqual(expected.sort());
  });

  it.each([...routes.map((route) => [routeKeyOf(route), route] as const), ...headTwins])(
    '%s invokes the function built from its entry',
    (routeKey, route) => {
      const found = routeResources.find((r) => r.resource.Properties.RouteKey === routeKey)!;
      const deployed = found.resource;
      const fn = stack.routeFunctions.get(functionNameOf(route))!;
      const nested = stack.routeStacks.get(areaOf(functionNameOf(route)))!;
      const functionId = logicalId(fn);
      // The route, its integration and its function in one template (SAM CLI needs them together).
      expect(found.stack).toBe(nested);
      expect(synth.inRoot(nested, deployed.Properties.ApiId)).toEqual(ref(apiId));
      expect(deployed.Properties.AuthorizationType).toBe('NONE');
      const [prefix, integrationRef] = deployed.Properties.Target['Fn::Join'][1];
      expect(prefix).toBe('integrations/');
      const integration = synth.templates.get(nested)!.toJSON().Resources[integrationRef.Ref];
      expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
      expect(synth.inRoot(nested, integration.Properties)).toEqual({
        ApiId: ref(apiId),
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: getAtt(functionId),
      });

      const invokers = Object.values(synth.templates.get(nested)!.findResources('AWS::Lambda::Permission'))
        .filter((p) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify(getAtt(functionId)))
        .map((p) => synth.inRoot(nested, p.Properties));
      const pathPart = route.path === '$default' ? '' : route.path;
      expect(invokers).toContainEqual({
        Action: 'lambda:InvokeFunction',
        FunctionName: getAtt(functionId),
        Principal: 'apigateway.amazonaws.com',
        SourceArn: {
          'Fn::Join': [
            '',
            [
              'arn:',
              ref('AWS::Partition'),
              ':execute-api:',
              ref('AWS::Region'),
              ':',
              ref('AWS::AccountId'),
              ':',
              ref(apiId),
              `/*/*${pathPart}`,
            ],
          ],
        },
      });
      for (const permission of invokers) {
        expect(permission.Principal).toBe('apigateway.amazonaws.com');
        expect(permission.Action).toBe('lambda:InvokeFunction');
      }
    },
  );

  it('names every route after its entry and method, so it never moves when routes are added', () => {
    const users = stack.routeStacks.get('users')!;
    expect(logicalId(users.node.findChild('UsersGetCurrentGetRoute').node.findChild('Resource'))).toBe(
      'UsersGetCurrentGetRouteCEE236D2',
    );
    expect(users.node.findChild('UsersGetCurrentHeadRoute').node.findChild('Resource')).toBeDefined();
  });
});

describe('functions', () => {
  const logGroups = synth.resources('AWS::Logs::LogGroup');
  const apiLogGroupId = logicalId(stack.apiLogGroup);
  const workerLogGroupId = logicalId(stack.workerLogGroup);

  it('writes to two log groups in the root stack: one for route functions, one for workers (a third holds the API access log)', () => {
    expect(logGroups.map((group) => [group.stack, group.id]).sort()).toEqual(
      [
        [stack, apiLogGroupId],
        [stack, workerLogGroupId],
        [stack, logicalId(stack.apiAccessLogGroup)],
      ].sort(),
    );
    for (const { resource } of logGroups) {
      expect(resource.Properties.RetentionInDays).toBe(30);
      expect(resource.DeletionPolicy).toBe('Retain');
    }
  });

  it.each(allFunctions.map(({ entry, fn, worker }) => [entry, fn, worker] as const))(
    '%s runs Node 22 on arm64 with source maps and JSON logs in its shared, retained log group',
    (_entry, fn, worker) => {
      const resource = synth.resourceOf(fn);
      const props = resource.Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.MemorySize).toBe(1024);
      expect(props.Handler).toBe('index.handler');
      expect(props.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(props.Environment.Variables[envNames.idBlockSize]).toBe('10');
      expect(synth.inRoot(Stack.of(fn), props.LoggingConfig)).toEqual({
        LogFormat: 'JSON',
        LogGroup: ref(worker ? workerLogGroupId : apiLogGroupId),
      });
    },
  );

  it.each(
    allFunctions.map(({ entry, fn }) => {
      const worker = workers.find((w) => w.entry === entry);
      const access =
        routes.find((route) => functionNameOf(route) === entry)?.access ??
        worker?.access ??
        streamConsumers.find((consumer) => consumer.entry === entry)?.access ??
        schedules.find((schedule) => schedule.entry === entry)!.access;
      return [entry, fn, access, worker] as const;
    }),
  )('%s gets environment variables only for what it binds', (_entry, fn, access, worker) => {
    const expected: Record<string, unknown> = {
      NODE_OPTIONS: '--enable-source-maps',
      [envNames.idBlockSize]: '10',
    };
    if (access.table) expected[envNames.tableName] = ref(tableId);
    if (access.bucket) expected[envNames.bucketName] = ref(bucketId);
    // Empty on AWS; declared so that SAM CLI's --env-vars may point them at local engines.
    if (access.table) expected[envNames.dynamodbEndpoint] = '';
    if (access.bucket) expected[envNames.s3Endpoint] = '';
    for (const queue of access.queues ?? []) {
      expected[queueUrlVariable(queue)] = ref(logicalId(stack.workerQueues.get(queue)!.queue));
    }
    if (worker?.ownsRetries) {
      // deferMessage and deadLetter: its own queue and that queue's DLQ.
      const { queue, deadLetterQueue } = stack.workerQueues.get(worker.queue)!;
      expected[queueUrlVariable(worker.queue)] = ref(logicalId(queue));
      expected[queueDlqUrlVariable(worker.queue)] = ref(logicalId(deadLetterQueue));
    }
    // API functions sign keyset cursors with the stack's secret, resolved by CloudFormation.
    if (routeFunctionNames.includes(_entry)) {
      expected[envNames.cursorKey] = {
        'Fn::Join': ['', ['{{resolve:secretsmanager:', ref(cursorKeyId()), ':SecretString:::}}']],
      };
    }
    const variables = synth.resourceOf(fn).Properties.Environment.Variables;
    expect(synth.inRoot(Stack.of(fn), variables)).toEqual(expected);
  });

  it('gives every function EXTERNAL_URL when `externalUrl` is set (links, Link headers, webhook payloads)', () => {
    const configured = synthesize(undefined, { context: { externalUrl: 'https://api.example.com/' } });
    const functions = configured.resources('AWS::Lambda::Function');
    expect(functions).toHaveLength(allFunctions.length);
    for (const { resource } of functions) {
      expect(resource.Properties.Environment.Variables[envNames.externalUrl]).toBe('https://api.example.com');
    }
    expect(() => buildApp({ context: { externalUrl: 'api.example.com' } })).toThrow(/http\(s\) URL/);
  });
});

describe('table', () => {
  /** The definition as DynamoDB's CreateTable takes it: local indexes may be absent or empty. */
  const definition: CreateTableCommandInput = createTableInput('unused');
  const byName = <T extends { IndexName?: string }>(list: readonly T[] | undefined) =>
    [...(list ?? [])].sort((a, b) => (a.IndexName ?? '').localeCompare(b.IndexName ?? ''));
  const byAttribute = <T extends { AttributeName?: string }>(list: readonly T[] | undefined) =>
    [...(list ?? [])].sort((a, b) => (a.AttributeName ?? '').localeCompare(b.AttributeName ?? ''));
  const withoutWarmThroughput = (indexes: Json[] | undefined) =>
    (indexes ?? []).map(({ WarmThroughput: _, ...index }: Json) => index);

  it('matches shared/store/table/table.ts (global and local indexes), on demand, with PITR, retained', () => {
    const [id, table] = only('AWS::DynamoDB::Table');
    expect(id).toBe(tableId);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.KeySchema).toEqual(definition.KeySchema);
    expect(byAttribute(table.Properties.AttributeDefinitions)).toEqual(
      byAttribute(definition.AttributeDefinitions),
    );
    expect(definition.GlobalSecondaryIndexes?.length).toBeGreaterThan(0);
    expect(byName(withoutWarmThroughput(table.Properties.GlobalSecondaryIndexes))).toEqual(
      byName(definition.GlobalSecondaryIndexes),
    );
    // Whatever the module declares, none included: the stack adds exactly those.
    expect(byName(table.Properties.LocalSecondaryIndexes)).toEqual(byName(definition.LocalSecondaryIndexes));
  });

  it('is warm for the on-demand baseline by default, the table and every index', () => {
    const [, table] = only('AWS::DynamoDB::Table');
    const baseline = { ReadUnitsPerSecond: 12_000, WriteUnitsPerSecond: 4_000 };
    expect(table.Properties.WarmThroughput).toEqual(baseline);
    for (const index of table.Properties.GlobalSecondaryIndexes)
      expect(index.WarmThroughput).toEqual(baseline);
  });

  it('takes its warm throughput and quota from the context (as `cdk deploy -c` gives them: strings)', () => {
    const { stack: configured } = buildApp({
      context: {
        tableReadQuota: '100000',
        tableWriteQuota: 60_000,
        tableWarmReadUnitsPerSecond: '75000',
        tableWarmWriteUnitsPerSecond: 34_000,
        indexWarmReadUnitsPerSecond: 20_000,
        indexWarmWriteUnitsPerSecond: '10000',
      },
    });
    const [table] = Object.values(
      Template.fromStack(configured).findResources('AWS::DynamoDB::Table'),
    ) as Json[];
    expect(table.Properties.WarmThroughput).toEqual({
      ReadUnitsPerSecond: 75_000,
      WriteUnitsPerSecond: 34_000,
    });
    for (const index of table.Properties.GlobalSecondaryIndexes) {
      expect(index.WarmThroughput).toEqual({ ReadUnitsPerSecond: 20_000, WriteUnitsPerSecond: 10_000 });
    }
    expect(configured.settings.tableQuota).toEqual({
      readUnitsPerSecond: 100_000,
      writeUnitsPerSecond: 60_000,
    });
  });

  it('refuses warm throughput below the on-demand baseline, above the quota, or not a number', () => {
    expect(() => buildApp({ context: { tableWarmWriteUnitsPerSecond: 1000 } })).toThrow(
      /below the on-demand baseline/,
    );
    expect(() => buildApp({ props: { indexWarmThroughput: { readUnitsPerSecond: 50_000 } } })).toThrow(
      /exceeds the table-level quota 40000: request the quota first, then set tableReadQuota/,
    );
    expect(() => buildApp({ context: { tableWarmReadUnitsPerSecond: 'many' } })).toThrow(/whole number/);
  });

  it('streams every change with both images, as the local table does, and expires items by `expires`', () => {
    const [, table] = only('AWS::DynamoDB::Table');
    const { StreamSpecification } = createTableInput('unused');
    expect(StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(table.Properties.StreamSpecification).toEqual({
      StreamViewType: StreamSpecification.StreamViewType,
    });
    expect(ttlAttribute).toBe('expires');
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expires', Enabled: true });
  });
});

describe('bucket', () => {
  const buckets = synth.resources('AWS::S3::Bucket');
  const accessLogsBucketId = logicalId(stack.accessLogsBucket);

  const cdnLogsBucketId = logicalId(stack.edgeCache.logBucket);
  const everyBucket = [
    ['the bucket', () => bucketId],
    ['the access-log bucket', () => accessLogsBucketId],
    ['the CloudFront log bucket', () => cdnLogsBucketId],
  ] as const;

  it.each(everyBucket)(
    '%s blocks public access, encrypts with S3-managed keys, is retained',
    (_name, idOf) => {
      expect(buckets.map(({ stack: holder, id }) => [holder, id]).sort()).toEqual(
        [
          [stack, bucketId],
          [stack, accessLogsBucketId],
          [stack, cdnLogsBucketId],
        ].sort(),
      );
      const bucket = buckets.find(({ id }) => id === idOf())!.resource;
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
    },
  );

  it.each(everyBucket)('%s denies every request that does not use TLS', (_name, idOf) => {
    const id = idOf();
    const policies = synth.resources('AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(3);
    const policy = policies.find(({ resource }) => resource.Properties.Bucket.Ref === id)!.resource;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual({
      Effect: 'Deny',
      Action: 's3:*',
      Principal: { AWS: '*' },
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      Resource: [getAtt(id), { 'Fn::Join': ['', [getAtt(id), '/*']] }],
    });
  });

  it('logs every request to the bucket into the access-log bucket, by bucket policy (ACLs stay disabled), kept 90 days', () => {
    const bucket = buckets.find(({ id }) => id === bucketId)!.resource;
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: ref(accessLogsBucketId),
      LogFilePrefix: 'bucket/',
    });
    const logs = buckets.find(({ id }) => id === accessLogsBucketId)!.resource;
    expect(logs.Properties.AccessControl).toBeUndefined();
    expect(logs.Properties.LifecycleConfiguration).toEqual({
      Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }],
    });
    const policy = synth
      .resources('AWS::S3::BucketPolicy')
      .find(({ resource }) => resource.Properties.Bucket.Ref === accessLogsBucketId)!.resource;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 's3:PutObject',
        Principal: { Service: 'logging.s3.amazonaws.com' },
      }),
    );
  });
});

describe.each(workers.map((worker) => [worker.queue, worker] as const))('worker %s', (_name, worker) => {
  const { queue, deadLetterQueue, consumer } = stack.workerQueues.get(worker.queue)!;
  const queueId = logicalId(queue);
  const dlqId = logicalId(deadLetterQueue);
  const queues = rootResources('AWS::SQS::Queue');

  it('has an encrypted queue that redrives to its DLQ after maxReceiveCount', () => {
    expect(synth.resources('AWS::SQS::Queue').every((q) => q.stack === stack)).toBe(true);
    expect(queues[queueId]!.Properties).toEqual({
      VisibilityTimeout: worker.visibilityTimeout,
      RedrivePolicy: { deadLetterTargetArn: getAtt(dlqId), maxReceiveCount: worker.maxReceiveCount },
      SqsManagedSseEnabled: true,
    });
    expect(queues[dlqId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    expect(worker.visibilityTimeout).toBeGreaterThanOrEqual(worker.timeout);
  });

  it('denies non-TLS access to both queues', () => {
    const policies = Object.values(rootResources('AWS::SQS::QueuePolicy'));
    for (const id of [queueId, dlqId]) {
      const policy = policies.find((p) => JSON.stringify(p.Properties.Queues) === JSON.stringify([ref(id)]));
      expect(policy?.Properties.PolicyDocument.Statement).toContainEqual({
        Effect: 'Deny',
        Action: 'sqs:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Resource: getAtt(id),
      });
    }
  });

  it('feeds its consumer with per-record failure reporting', () => {
    const mappings = synth
      .resources('AWS::Lambda::EventSourceMapping')
      .filter(
        ({ resource }) =>
          JSON.stringify(resource.Properties.EventSourceArn) === JSON.stringify(getAtt(queueId)),
      );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.stack).toBe(stack);
    const maxConcurrency = stack.settings.workerMaxConcurrency[worker.queue];
    expect(mappings[0]!.resource.Properties).toEqual({
      EventSourceArn: getAtt(queueId),
      FunctionName: ref(logicalId(consumer)),
      BatchSize: worker.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ...(maxConcurrency === undefined ? {} : { ScalingConfig: { MaximumConcurrency: maxConcurrency } }),
    });
    expect(consumer.name).toBe(worker.entry);
    expect(rootResources('AWS::Lambda::Function')[logicalId(consumer)]!.Properties).toMatchObject({
      Description: worker.entry,
      Timeout: worker.timeout,
    });
  });
});

describe('worker concurrency', () => {
  const mappingOf = (s: Stack, queue: string) => {
    const queueId = logicalId((s as typeof stack).workerQueues.get(queue)!.queue);
    return Object.values(Template.fromStack(s).findResources('AWS::Lambda::EventSourceMapping')).find(
      (mapping: Json) =>
        JSON.stringify(mapping.Properties.EventSourceArn) === JSON.stringify(getAtt(queueId)),
    ) as Json;
  };

  it('bounds the hook-delivery mapping at 200 concurrent invocations, still reporting failures per record', () => {
    expect(stack.settings.workerMaxConcurrency).toEqual({ 'hook-delivery': 200 });
    expect(mappingOf(stack, 'hook-delivery').Properties).toMatchObject({
      ScalingConfig: { MaximumConcurrency: 200 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('takes other bounds from the context (JSON), and refuses unknown queues and bounds Lambda refuses', () => {
    const { stack: configured } = buildApp({
      context: { workerMaxConcurrency: '{"hook-delivery": 50, "search-index": 5}' },
    });
    expect(mappingOf(configured, 'hook-delivery').Properties.ScalingConfig).toEqual({
      MaximumConcurrency: 50,
    });
    expect(mappingOf(configured, 'search-index').Properties.ScalingConfig).toEqual({ MaximumConcurrency: 5 });
    expect(mappingOf(configured, 'user-cleanup').Properties.ScalingConfig).toBeUndefined();
    expect(() => buildApp({ props: { workerMaxConcurrency: { nope: 10 } } })).toThrow(/no worker queue nope/);
    expect(() => buildApp({ props: { workerMaxConcurrency: { 'hook-delivery': 1 } } })).toThrow(
      /from 2 to 1000/,
    );
  });
});

describe.each(streamConsumers.map((consumer) => [consumer.name, consumer] as const))(
  'stream consumer %s',
  (_name, definition) => {
    const { consumer, failureQueue } = stack.streamConsumers.get(definition.name)!;
    const failureQueueId = logicalId(failureQueue);

    it('runs in the root stack with its timeout', () => {
      expect(synth.templateOf(consumer)).toBe(template);
      expect(consumer.name).toBe(definition.entry);
      expect(rootResources('AWS::Lambda::Function')[logicalId(consumer)]!.Properties).toMatchObject({
        Description: definition.entry,
        Timeout: definition.timeout,
      });
    });

    it('is fed by the table’s stream: filtered, partial batch responses, bisected, bounded, LATEST', () => {
      const mappings = synth
        .resources('AWS::Lambda::EventSourceMapping')
        .filter(
          ({ resource }) =>
            JSON.stringify(resource.Properties.FunctionName) === JSON.stringify(ref(logicalId(consumer))),
        );
      expect(mappings).toHaveLength(1);
      expect(mappings[0]!.stack).toBe(stack);
      expect(mappings[0]!.resource.Properties).toEqual({
        EventSourceArn: getAtt(tableId, 'StreamArn'),
        FunctionName: ref(logicalId(consumer)),
        StartingPosition: 'LATEST',
        BatchSize: definition.batchSize,
        MaximumBatchingWindowInSeconds: definition.maxBatchingWindowSeconds,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: definition.bisectOnError,
        ParallelizationFactor: definition.parallelizationFactor,
        MaximumRetryAttempts: definition.retryAttempts,
        MaximumRecordAgeInSeconds: definition.maxRecordAgeSeconds,
        DestinationConfig: { OnFailure: { Destination: getAtt(failureQueueId) } },
        FilterCriteria: {
          Filters: definition.filters.map((pattern) => ({ Pattern: JSON.stringify(pattern) })),
        },
      });
    });

    it('reports what it gives up on to its own encrypted, TLS-only failure queue', () => {
      const queue = rootResources('AWS::SQS::Queue')[failureQueueId]!;
      expect(queue.Properties).toEqual({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
      const policy = Object.values(rootResources('AWS::SQS::QueuePolicy')).find(
        (p) => JSON.stringify(p.Properties.Queues) === JSON.stringify([ref(failureQueueId)]),
      );
      expect(policy?.Properties.PolicyDocument.Statement).toContainEqual({
        Effect: 'Deny',
        Action: 'sqs:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Resource: getAtt(failureQueueId),
      });
    });
  },
);

describe.each(schedules.map((schedule) => [schedule.name, schedule] as const))(
  'schedule %s',
  (_name, definition) => {
    const { fn, rule } = stack.scheduledFunctions.get(definition.name)!;
    const functionId = logicalId(fn);

    it('runs in the root stack with its timeout', () => {
      expect(synth.templateOf(fn)).toBe(template);
      expect(fn.name).toBe(definition.entry);
      expect(rootResources('AWS::Lambda::Function')[functionId]!.Properties).toMatchObject({
        Description: definition.entry,
        Timeout: definition.timeout,
      });
    });

    /** EventBridge's rate in the largest whole unit (`rate(30 minutes)`, `rate(1 hour)`). */
    const rateExpression = (minutes: number) => {
      const [value, unit] =
        minutes % 1440 === 0
          ? [minutes / 1440, 'day']
          : minutes % 60 === 0
            ? [minutes / 60, 'hour']
            : [minutes, 'minute'];
      return `rate(${value} ${unit}${value === 1 ? '' : 's'})`;
    };

    it('is invoked by an EventBridge rule at its rate, without retries', () => {
      expect(synth.templateOf(rule)).toBe(template);
      const rules = synth.resources('AWS::Events::Rule');
      expect(rules).toHaveLength(schedules.length);
      const properties = synth.resourceOf(rule).Properties;
      expect(properties).toMatchObject({
        ScheduleExpression: rateExpression(definition.rateMinutes),
        State: 'ENABLED',
        Targets: [{ Arn: getAtt(functionId), Id: 'Target0', RetryPolicy: { MaximumRetryAttempts: 0 } }],
      });
      expect(properties.Targets).toHaveLength(1);
    });

    it('lets only its rule invoke the function', () => {
      const permissions = synth
        .resources('AWS::Lambda::Permission')
        .filter(
          ({ resource }) =>
            JSON.stringify(resource.Properties.FunctionName) === JSON.stringify(getAtt(functionId)),
        );
      expect(permissions).toHaveLength(1);
      expect(permissions[0]!.resource.Properties).toEqual({
        Action: 'lambda:InvokeFunction',
        FunctionName: getAtt(functionId),
        Principal: 'events.amazonaws.com',
        SourceArn: getAtt(logicalId(rule)),
      });
    });
  },
);

describe('hook-events filters', () => {
  it('pass INSERT and MODIFY of notes, issues and merge requests, and INSERT of award emoji items only', () => {
    expect(streamConsumers.find((consumer) => consumer.name === 'hook-events')?.filters).toEqual([
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: [{ prefix: 'NOTE#' }] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: ['ISSUE', 'MR'] } } } },
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'AWARD#' }] } } } },
    ]);
  });
});

describe('stack', () => {
  it('is environment-agnostic', () => {
    expect(Token.isUnresolved(stack.account)).toBe(true);
    expect(Token.isUnresolved(stack.region)).toBe(true);
  });

  it('is the only stack of the app: the nested stacks deploy with it', () => {
    const assembly = synth.app.synth();
    expect(assembly.stacks.map((artifact) => artifact.stackName)).toEqual(['GitlabApi']);
    expect(synth.nested.every((nested) => nested.nestedStackParent === stack)).toBe(true);
  });

  it('outputs the API URL, the CloudFront URL, table name, bucket name, the alarm topic and the dashboard name', () => {
    const monitoringId = logicalId(stack.monitoring.nestedStackResource!);
    expect(template.findOutputs('*')).toEqual({
      ApiUrl: { Value: getAtt(apiId, 'ApiEndpoint') },
      DistributionUrl: {
        Value: {
          'Fn::Join': ['', ['https://', getAtt(logicalId(stack.edgeCache.distribution), 'DomainName')]],
        },
        Description: expect.any(String),
      },
      TableName: { Value: ref(tableId) },
      BucketName: { Value: ref(bucketId) },
      AlarmTopicArn: {
        Value: expect.objectContaining({ 'Fn::GetAtt': [monitoringId, expect.any(String)] }),
        Description: expect.any(String),
      },
      DashboardName: { Value: expect.objectContaining({ 'Fn::GetAtt': [monitoringId, expect.any(String)] }) },
    });
    const topic = synth.fromNestedOutput(template.findOutputs('*').AlarmTopicArn!.Value);
    expect(topic.stack).toBe(stack.monitoring);
    expect(topic.value).toEqual(ref(logicalId(stack.monitoring.topic)));
  });

  it('rejects tables it cannot deploy', () => {
    const worker = { ...workers[0]!, queue: 'jobs', entry: 'functions/workers/user-cleanup.ts' };
    const route = { method: 'GET', path: '/api/v4/x', entry: 'functions/users/get.ts', access: {} } as const;
    expect(() =>
      buildApp({ props: { routes: [route], workers: [{ ...worker, visibilityTimeout: 30 }] } }),
    ).toThrow(/visibilityTimeout/);
    expect(() =>
      buildApp({ props: { routes: [{ ...route, access: { queues: ['nope'] } }], workers: [] } }),
    ).toThrow(/unknown queue nope/);
    expect(() =>
      buildApp({ props: { routes: [{ ...route, path: '$default', method: 'GET' }], workers: [] } }),
    ).toThrow(/\$default/);
    expect(() => buildApp({ props: { routes: [], workers: [worker, worker] } })).toThrow(/declared twice/);
    const consumer = { ...streamConsumers[0]!, access: {} };
    expect(() =>
      buildApp({ props: { routes: [route], workers: [], streamConsumers: [consumer, consumer] } }),
    ).toThrow(/stream consumer hook-events is declared twice/);
    expect(() =>
      buildApp({
        props: {
          routes: [route],
          workers: [],
          streamConsumers: [{ ...consumer, access: { queues: ['nope'] } }],
        },
      }),
    ).toThrow(/unknown queue nope/);
    expect(() =>
      buildApp({
        props: { routes: [route, { ...route, method: 'POST', access: { table: 'write' } }], workers: [] },
      }),
    ).toThrow(/different access/);
    expect(() =>
      buildApp({ props: { routes: [route, { ...route, entry: 'functions/users/list.ts' }], workers: [] } }),
    ).toThrow(/route GET \/api\/v4\/x is declared twice/);
    const crowded = Array.from({ length: maxRoutesPerNestedStack + 1 }, (_, i) => ({
      ...route,
      path: `/api/v4/x${i}`,
    }));
    expect(() => buildApp({ props: { routes: crowded, workers: [] } })).toThrow(/split the area/);
  });
});
