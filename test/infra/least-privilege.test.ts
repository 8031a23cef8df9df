import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import type { Access, RouteDefinition } from '../../functions/routes.ts';
import { routes } from '../../functions/routes.ts';
import type { WorkerDefinition } from '../../functions/workers.ts';
import { workers } from '../../functions/workers.ts';
import type { ApiFunction } from '../../lib/api-function.ts';
import type { ApiStack } from '../../lib/api-stack.ts';
import { asArray, getAtt, logicalId, synthesize } from './support.ts';

/** Written out here on purpose: the stack's own lists are what is under test. */
const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
const TABLE_WRITE = [
  ...TABLE_READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
const BUCKET_READ = ['s3:GetObject'];
const BUCKET_WRITE = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];
const QUEUE_SEND = ['sqs:SendMessage', 'sqs:GetQueueUrl', 'sqs:GetQueueAttributes'];
const QUEUE_CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];
const TABLE_WRITE_ONLY = TABLE_WRITE.filter((action) => !TABLE_READ.includes(action));
const BASIC_EXECUTION_ROLE = {
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
  ],
};

interface Grant {
  action: string;
  resource: string;
}

const key = (grant: Grant) => `${grant.action} on ${grant.resource}`;

/** Every (action, resource) pair the role of `fn` is allowed, from every IAM policy attached to it. */
function grantsOf(template: Template, fn: ApiFunction): string[] {
  const roleId = logicalId(fn.role!.node.defaultChild as CfnRole);
  const role = template.findResources('AWS::IAM::Role')[roleId]!;
  expect(role.Properties.Policies).toBeUndefined();
  expect(role.Properties.ManagedPolicyArns).toEqual([BASIC_EXECUTION_ROLE]);
  expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
    { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
  ]);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
    asArray(policy.Properties.Roles).some(
      (r: unknown) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }),
    ),
  );
  const grants = new Set<string>();
  for (const policy of policies) {
    expect(policy.Properties.Roles).toEqual([{ Ref: roleId }]);
    for (const statement of policy.Properties.PolicyDocument.Statement) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.NotAction).toBeUndefined();
      expect(statement.NotResource).toBeUndefined();
      for (const action of asArray<string>(statement.Action)) {
        for (const resource of asArray(statement.Resource)) {
          grants.add(key({ action, resource: JSON.stringify(resource) }));
        }
      }
    }
  }
  return [...grants].sort();
}

/** What `access` (plus consuming `consumes`, for a worker) allows, as (action, resource) pairs. */
function expectedGrants(stack: ApiStack, access: Access, consumes?: string): string[] {
  const tableArn = getAtt(logicalId(stack.table));
  const bucketArn = getAtt(logicalId(stack.bucket));
  const resources = {
    table: [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }],
    objects: [{ 'Fn::Join': ['', [bucketArn, '/*']] }],
    queue: (name: string) => [getAtt(logicalId(stack.workerQueues.get(name)!.queue))],
  };
  const grants = new Set<string>();
  const allow = (actions: string[], on: unknown[]) => {
    for (const action of actions)
      for (const resource of on) grants.add(key({ action, resource: JSON.stringify(resource) }));
  };
  if (access.table) allow(access.table === 'write' ? TABLE_WRITE : TABLE_READ, resources.table);
  if (access.bucket) allow(access.bucket === 'write' ? BUCKET_WRITE : BUCKET_READ, resources.objects);
  for (const queue of access.queues ?? []) allow(QUEUE_SEND, resources.queue(queue));
  if (consumes) allow(QUEUE_CONSUME, resources.queue(consumes));
  return [...grants].sort();
}

function checkStack(routeTable: readonly RouteDefinition[], workerTable: readonly WorkerDefinition[]) {
  const { stack, template } = synthesize({ routes: routeTable, workers: workerTable });
  const cases = [
    ...routeTable.map((route) => ({
      name: `${route.method} ${route.path} (${route.entry})`,
      fn: stack.routeFunctions.get(route.entry)!,
      access: route.access,
      consumes: undefined as string | undefined,
    })),
    ...workerTable.map((worker) => ({
      name: `worker ${worker.queue} (${worker.entry})`,
      fn: stack.workerQueues.get(worker.queue)!.consumer,
      access: worker.access,
      consumes: worker.queue,
    })),
  ];
  return { stack, template, cases };
}

function describeGrants(
  label: string,
  routeTable: readonly RouteDefinition[],
  workerTable: readonly WorkerDefinition[],
) {
  describe(label, () => {
    const { stack, template, cases } = checkStack(routeTable, workerTable);

    it.each(cases.map((c) => [c.name, c] as const))(
      '%s is granted exactly its declared access',
      (_name, c) => {
        const grants = grantsOf(template, c.fn);
        expect(grants).toEqual(expectedGrants(stack, c.access, c.consumes));

        const actions = grants.map((grant) => grant.split(' on ')[0]!);
        expect(actions).not.toContain('dynamodb:Scan');
        if (c.access.table !== 'write') {
          expect(actions.filter((action) => TABLE_WRITE_ONLY.includes(action))).toEqual([]);
        }
        if (!c.access.table) expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
        if (!c.access.bucket) expect(actions.filter((action) => action.startsWith('s3:'))).toEqual([]);
        if (c.access.bucket !== 'write') {
          expect(actions.filter((action) => action.startsWith('s3:') && action !== 's3:GetObject')).toEqual(
            [],
          );
        }
        const queueArns = new Set(
          [...(c.access.queues ?? []), ...(c.consumes ? [c.consumes] : [])].map((queue) =>
            JSON.stringify(getAtt(logicalId(stack.workerQueues.get(queue)!.queue))),
          ),
        );
        const sqsResources = grants
          .filter((grant) => grant.startsWith('sqs:'))
          .map((grant) => grant.slice(grant.indexOf(' on ') + 4));
        for (const resource of sqsResources) expect(queueArns.has(resource)).toBe(true);
        if (queueArns.size === 0) expect(sqsResources).toEqual([]);
      },
    );

    it('grants no wildcard actions and never Scan, anywhere', () => {
      const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
        (policy) => policy.Properties.PolicyDocument.Statement,
      );
      expect(statements.length).toBeGreaterThan(0);
      const actions = statements.flatMap((statement) => asArray<string>(statement.Action));
      expect(actions.filter((action) => action.includes('*'))).toEqual([]);
      expect(JSON.stringify(template.toJSON())).not.toContain('dynamodb:Scan');
    });

    it('has one role per function and no other roles or policies', () => {
      const functionRoles = cases.map((c) => logicalId(c.fn.role!.node.defaultChild as CfnRole));
      expect(new Set(functionRoles).size).toBe(cases.length);
      expect(Object.keys(template.findResources('AWS::IAM::Role')).sort()).toEqual([...functionRoles].sort());
      for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
        expect(functionRoles).toContain(policy.Properties.Roles[0].Ref);
      }
    });
  });
}

describeGrants('the deployed route and worker tables', routes, workers);

// The real tables declare no bucket access yet; this one exercises every kind of grant.
const sample = (entry: string, access: Access): RouteDefinition => ({
  method: 'POST',
  path: `/api/v4/${entry.replace(/\W+/g, '_')}`,
  entry,
  access,
});
describeGrants(
  'a table using every kind of access',
  [
    sample('functions/users/get.ts', { table: 'read', bucket: 'read' }),
    sample('functions/users/create.ts', { table: 'write', bucket: 'write', queues: ['first', 'second'] }),
    sample('functions/users/list.ts', { bucket: 'write' }),
    sample('functions/users/update.ts', { queues: ['second'] }),
    sample('functions/not-found.ts', {}),
  ],
  [
    {
      ...workers[0]!,
      queue: 'first',
      entry: 'functions/workers/user-cleanup.ts',
      access: { queues: ['second'] },
    },
    { ...workers[0]!, queue: 'second', entry: 'functions/users/delete.ts', access: { bucket: 'read' } },
  ],
);
