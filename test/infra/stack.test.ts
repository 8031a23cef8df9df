import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Token } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { workers } from '../../functions/workers.ts';
import { constructIdFor, projectRoot } from '../../lib/api-function.ts';
import { ApiStack } from '../../lib/api-stack.ts';
import { envNames, queueUrlVariable } from '../../shared/config/env.ts';
import { createTableInput } from '../../shared/store/table.ts';
import { buildApp, getAtt, logicalId, ref, synthesize } from './support.ts';

const { stack, template } = synthesize();
const resources = (type: string) => template.findResources(type);
const only = (type: string) => {
  const found = Object.entries(resources(type));
  expect(found).toHaveLength(1);
  return found[0]!;
};

const tableId = logicalId(stack.table);
const bucketId = logicalId(stack.bucket);
const apiId = logicalId(stack.api);
const routeEntries = [...new Set(routes.map((route) => route.entry))];
const allFunctions = [
  ...[...stack.routeFunctions].map(([entry, fn]) => ({ entry, fn })),
  ...[...stack.workerQueues.values()].map(({ consumer }) => ({ entry: consumer.entryPath, fn: consumer })),
];

describe('handler files and tables', () => {
  const handlerFiles = readdirSync(path.join(projectRoot, 'functions'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `functions/${file.split(path.sep).join('/')}`)
    .filter((file) => /^export const handler\b/m.test(readFileSync(path.join(projectRoot, file), 'utf8')))
    .sort();
  const tableEntries = [...routeEntries, ...workers.map((worker) => worker.entry)];

  it('finds handler files to check', () => {
    expect(handlerFiles.length).toBeGreaterThanOrEqual(routeEntries.length);
  });

  it('every file that exports a handler is in the route or worker table', () => {
    const missing = handlerFiles.filter((file) => !tableEntries.includes(file));
    expect(missing).toEqual([]);
  });

  it('every table entry is an existing file that exports a handler', () => {
    const absent = tableEntries.filter((entry) => !existsSync(path.join(projectRoot, entry)));
    expect(absent).toEqual([]);
    expect([...new Set(tableEntries)].sort()).toEqual(handlerFiles);
  });

  it('deploys exactly one function per route entry and per worker, and nothing else', () => {
    expect(Object.keys(resources('AWS::Lambda::Function'))).toHaveLength(
      routeEntries.length + workers.length,
    );
    expect([...stack.routeFunctions.keys()].sort()).toEqual([...routeEntries].sort());
    expect([...stack.workerQueues.keys()].sort()).toEqual(workers.map((worker) => worker.queue).sort());
  });

  it('names each function after its entry path', () => {
    expect(constructIdFor('functions/users/get-current.ts')).toBe('UsersGetCurrent');
    expect(constructIdFor('functions/personal-access-tokens/create.ts')).toBe('PersonalAccessTokensCreate');
    expect(constructIdFor('functions/workers/user-cleanup.ts')).toBe('WorkersUserCleanup');
    for (const { entry, fn } of allFunctions) {
      expect(fn.node.id).toBe(constructIdFor(entry));
      expect(fn.entryPath).toBe(entry);
    }
  });
});

describe('HTTP API', () => {
  const routeResources = resources('AWS::ApiGatewayV2::Route');
  const integrations = resources('AWS::ApiGatewayV2::Integration');
  const permissions = Object.values(resources('AWS::Lambda::Permission'));

  it('is one HTTP API with an auto-deployed $default stage', () => {
    const [, api] = only('AWS::ApiGatewayV2::Api');
    expect(api.Properties.ProtocolType).toBe('HTTP');
    const [, stage] = only('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toEqual({ ApiId: ref(apiId), StageName: '$default', AutoDeploy: true });
  });

  it('has exactly one route per route-table entry, $default included', () => {
    const deployed = Object.values(routeResources)
      .map((route) => route.Properties.RouteKey as string)
      .sort();
    const expected = routes.map((route) =>
      route.path === '$default' ? '$default' : `${route.method} ${route.path}`,
    );
    expect(expected).toContain('$default');
    expect(deployed).toEqual(expected.sort());
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s invokes the function built from its entry',
    (_key, route) => {
      const routeKey = route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
      const [, deployed] = Object.entries(routeResources).find(
        ([, r]) => r.Properties.RouteKey === routeKey,
      )!;
      expect(deployed.Properties.ApiId).toEqual(ref(apiId));
      const integrationId = deployed.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = integrations[integrationId]!;
      const functionId = logicalId(stack.routeFunctions.get(route.entry)!);
      expect(integration.Properties).toMatchObject({
        ApiId: ref(apiId),
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: getAtt(functionId),
      });
      const invokers = permissions.filter(
        (permission) =>
          JSON.stringify(permission.Properties.FunctionName) === JSON.stringify(getAtt(functionId)),
      );
      expect(invokers.length).toBeGreaterThanOrEqual(1);
      for (const permission of invokers) {
        expect(permission.Properties.Principal).toBe('apigateway.amazonaws.com');
        expect(permission.Properties.Action).toBe('lambda:InvokeFunction');
      }
    },
  );
});

describe('functions', () => {
  const functions = resources('AWS::Lambda::Function');
  const logGroups = resources('AWS::Logs::LogGroup');

  it.each(Object.keys(functions))(
    '%s runs Node 22 on arm64 with source maps and a retained log group',
    (id) => {
      const props = functions[id]!.Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.MemorySize).toBe(1024);
      expect(props.Handler).toBe('index.handler');
      expect(props.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(props.Environment.Variables[envNames.idBlockSize]).toBe('10');
      const logGroupId = props.LoggingConfig.LogGroup.Ref as string;
      expect(logGroups[logGroupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
    },
  );

  it.each(
    allFunctions.map(({ entry, fn }) => {
      const access =
        routes.find((route) => route.entry === entry)?.access ??
        workers.find((worker) => worker.entry === entry)!.access;
      return [entry, logicalId(fn), access] as const;
    }),
  )('%s gets environment variables only for what it binds', (_entry, id, access) => {
    const expected: Record<string, unknown> = {
      NODE_OPTIONS: '--enable-source-maps',
      [envNames.idBlockSize]: '10',
    };
    if (access.table) expected[envNames.tableName] = ref(tableId);
    if (access.bucket) expected[envNames.bucketName] = ref(bucketId);
    for (const queue of access.queues ?? []) {
      expected[queueUrlVariable(queue)] = ref(logicalId(stack.workerQueues.get(queue)!.queue));
    }
    expect(functions[id]!.Properties.Environment.Variables).toEqual(expected);
  });
});

describe('table', () => {
  it('matches shared/store/table.ts, on demand, with PITR, retained', () => {
    const [id, table] = only('AWS::DynamoDB::Table');
    expect(id).toBe(tableId);
    const definition = createTableInput('unused');
    const byName = <T extends { IndexName: string }>(list: T[]) =>
      [...list].sort((a, b) => a.IndexName.localeCompare(b.IndexName));
    const byAttribute = <T extends { AttributeName: string }>(list: T[]) =>
      [...list].sort((a, b) => a.AttributeName.localeCompare(b.AttributeName));

    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.KeySchema).toEqual(definition.KeySchema);
    expect(byAttribute(table.Properties.AttributeDefinitions)).toEqual(
      byAttribute(definition.AttributeDefinitions),
    );
    expect(byName(table.Properties.GlobalSecondaryIndexes)).toEqual(
      byName(definition.GlobalSecondaryIndexes),
    );
    expect(byName(table.Properties.LocalSecondaryIndexes)).toEqual(byName(definition.LocalSecondaryIndexes));
  });
});

describe('bucket', () => {
  it('blocks public access, encrypts with S3-managed keys, is retained', () => {
    const [id, bucket] = only('AWS::S3::Bucket');
    expect(id).toBe(bucketId);
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
  });

  it('denies every request that does not use TLS', () => {
    const [, policy] = only('AWS::S3::BucketPolicy');
    expect(policy.Properties.Bucket).toEqual(ref(bucketId));
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual({
      Effect: 'Deny',
      Action: 's3:*',
      Principal: { AWS: '*' },
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      Resource: [getAtt(bucketId), { 'Fn::Join': ['', [getAtt(bucketId), '/*']] }],
    });
  });
});

describe.each(workers.map((worker) => [worker.queue, worker] as const))('worker %s', (_name, worker) => {
  const { queue, deadLetterQueue, consumer } = stack.workerQueues.get(worker.queue)!;
  const queueId = logicalId(queue);
  const dlqId = logicalId(deadLetterQueue);
  const queues = resources('AWS::SQS::Queue');

  it('has an encrypted queue that redrives to its DLQ after maxReceiveCount', () => {
    expect(queues[queueId]!.Properties).toEqual({
      VisibilityTimeout: worker.visibilityTimeout,
      RedrivePolicy: { deadLetterTargetArn: getAtt(dlqId), maxReceiveCount: worker.maxReceiveCount },
      SqsManagedSseEnabled: true,
    });
    expect(queues[dlqId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    expect(worker.visibilityTimeout).toBeGreaterThanOrEqual(worker.timeout);
  });

  it('denies non-TLS access to both queues', () => {
    const policies = Object.values(resources('AWS::SQS::QueuePolicy'));
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
    const mappings = Object.values(resources('AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => JSON.stringify(mapping.Properties.EventSourceArn) === JSON.stringify(getAtt(queueId)),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toEqual({
      EventSourceArn: getAtt(queueId),
      FunctionName: ref(logicalId(consumer)),
      BatchSize: worker.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(consumer.entryPath).toBe(worker.entry);
    expect(resources('AWS::Lambda::Function')[logicalId(consumer)]!.Properties).toMatchObject({
      Description: worker.entry,
      Timeout: worker.timeout,
    });
  });
});

describe('stack', () => {
  it('is environment-agnostic', () => {
    expect(Token.isUnresolved(stack.account)).toBe(true);
    expect(Token.isUnresolved(stack.region)).toBe(true);
  });

  it('outputs the API URL, table name and bucket name', () => {
    expect(template.findOutputs('*')).toEqual({
      ApiUrl: { Value: getAtt(apiId, 'ApiEndpoint') },
      TableName: { Value: ref(tableId) },
      BucketName: { Value: ref(bucketId) },
    });
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
    expect(() =>
      buildApp({
        props: { routes: [route, { ...route, method: 'POST', access: { table: 'write' } }], workers: [] },
      }),
    ).toThrow(/different access/);
  });

  it('is the stack bin/app.ts builds', () => {
    expect(stack).toBeInstanceOf(ApiStack);
    expect(readFileSync(path.join(projectRoot, 'bin/app.ts'), 'utf8')).toMatch(
      /new ApiStack\(app, 'GitlabApi'/,
    );
  });
});
