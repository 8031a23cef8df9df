import { Stack } from 'aws-cdk-lib';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import type { Access, RouteDefinition } from '../../functions/routes.ts';
import { functionNameOf, routes } from '../../functions/routes.ts';
import { type ScheduleDefinition, schedules } from '../../functions/schedules.ts';
import type { StreamConsumerDefinition } from '../../functions/stream-consumers.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import type { WorkerDefinition } from '../../functions/workers.ts';
import { workers } from '../../functions/workers.ts';
import { grantKey } from '../../lib/access-roles.ts';
import type { ApiFunction } from '../../lib/api-function.ts';
import type { ApiStack } from '../../lib/api-stack.ts';
import { asArray, getAtt, logicalId, type Synthesized, synthesize } from './support.ts';

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
/** Reading the table's stream, as the stream event source grants it (ListStreams takes no resource). */
const STREAM_READ = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
const TABLE_WRITE_ONLY = TABLE_WRITE.filter((action) => !TABLE_READ.includes(action));
/** Writing logs into the stack's two function log groups (no managed policy: it allows any log group). */
const LOG_WRITE = ['logs:CreateLogStream', 'logs:PutLogEvents'];

interface Grant {
  action: string;
  resource: string;
}

const key = (grant: Grant) => `${grant.action} on ${grant.resource}`;

/**
 * Every (action, resource) pair the role `fn` runs as is allowed, from every IAM policy attached
 * to it. The role lives in the root stack; the function, maybe in a nested stack, must name it.
 */
function grantsOf(synth: Synthesized, fn: ApiFunction): string[] {
  const template = synth.template;
  const roleId = logicalId(fn.role!.node.defaultChild as CfnRole);
  expect(Stack.of(fn.role!)).toBe(synth.stack);
  expect(synth.inRoot(Stack.of(fn), synth.resourceOf(fn).Properties.Role)).toEqual(getAtt(roleId));
  const role = template.findResources('AWS::IAM::Role')[roleId]!;
  expect(role.Properties.Policies).toBeUndefined();
  expect(role.Properties.ManagedPolicyArns).toBeUndefined();
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

/** What a function may do beyond its declared access. */
interface Beyond {
  /** The worker queue it consumes. */
  consumes?: string;
  /** It sends to the dead-letter queue of the queue it consumes. */
  deadLetters?: boolean;
  /** The stream consumer it is: reads the stream, reports failures to its failure queue. */
  stream?: string;
}

/** What `access` (plus what a worker or stream consumer also does) allows, as (action, resource) pairs. */
function expectedGrants(stack: ApiStack, access: Access, beyond: Beyond = {}): string[] {
  const { consumes, deadLetters, stream } = beyond;
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
  allow(LOG_WRITE, [getAtt(logicalId(stack.apiLogGroup)), getAtt(logicalId(stack.workerLogGroup))]);
  if (access.table) allow(access.table === 'write' ? TABLE_WRITE : TABLE_READ, resources.table);
  if (access.bucket) allow(access.bucket === 'write' ? BUCKET_WRITE : BUCKET_READ, resources.objects);
  for (const queue of access.queues ?? []) allow(QUEUE_SEND, resources.queue(queue));
  if (consumes) allow(QUEUE_CONSUME, resources.queue(consumes));
  if (consumes && deadLetters) {
    allow(QUEUE_SEND, [getAtt(logicalId(stack.workerQueues.get(consumes)!.deadLetterQueue))]);
  }
  if (stream) {
    allow(['dynamodb:ListStreams'], ['*']);
    allow(STREAM_READ, [getAtt(logicalId(stack.table), 'StreamArn')]);
    allow(QUEUE_SEND, [getAtt(logicalId(stack.streamConsumers.get(stream)!.failureQueue))]);
  }
  return [...grants].sort();
}

function checkStack(
  routeTable: readonly RouteDefinition[],
  workerTable: readonly WorkerDefinition[],
  consumerTable: readonly StreamConsumerDefinition[],
  scheduleTable: readonly ScheduleDefinition[],
) {
  const synth = synthesize({
    routes: routeTable,
    workers: workerTable,
    streamConsumers: consumerTable,
    schedules: scheduleTable,
  });
  const { stack } = synth;
  const cases = [
    ...routeTable.map((route) => ({
      name: `${route.method} ${route.path} (${functionNameOf(route)})`,
      fn: stack.routeFunctions.get(functionNameOf(route))!,
      access: route.access,
      beyond: {} as Beyond,
    })),
    ...workerTable.map((worker) => ({
      name: `worker ${worker.queue} (${worker.entry})`,
      fn: stack.workerQueues.get(worker.queue)!.consumer,
      access: worker.access,
      beyond: { consumes: worker.queue, deadLetters: worker.ownsRetries } as Beyond,
    })),
    ...consumerTable.map((consumer) => ({
      name: `stream consumer ${consumer.name} (${consumer.entry})`,
      fn: stack.streamConsumers.get(consumer.name)!.consumer,
      access: consumer.access,
      beyond: { stream: consumer.name } as Beyond,
    })),
    // A scheduled function has its declared access and nothing beyond (EventBridge invokes it).
    ...scheduleTable.map((schedule) => ({
      name: `schedule ${schedule.name} (${schedule.entry})`,
      fn: stack.scheduledFunctions.get(schedule.name)!.fn,
      access: schedule.access,
      beyond: {} as Beyond,
    })),
  ];
  return { synth, stack, cases };
}

function describeGrants(
  label: string,
  routeTable: readonly RouteDefinition[],
  workerTable: readonly WorkerDefinition[],
  consumerTable: readonly StreamConsumerDefinition[],
  scheduleTable: readonly ScheduleDefinition[],
) {
  describe(label, () => {
    const { synth, stack, cases } = checkStack(routeTable, workerTable, consumerTable, scheduleTable);

    it.each(cases.map((c) => [c.name, c] as const))(
      '%s is granted exactly its declared access',
      (_name, c) => {
        const grants = grantsOf(synth, c.fn);
        expect(grants).toEqual(expectedGrants(stack, c.access, c.beyond));

        const actions = grants.map((grant) => grant.split(' on ')[0]!);
        expect(actions).not.toContain('dynamodb:Scan');
        if (c.access.table !== 'write') {
          expect(actions.filter((action) => TABLE_WRITE_ONLY.includes(action))).toEqual([]);
        }
        if (!c.access.table && !c.beyond.stream) {
          expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
        }
        if (!c.access.bucket) expect(actions.filter((action) => action.startsWith('s3:'))).toEqual([]);
        if (c.access.bucket !== 'write') {
          expect(actions.filter((action) => action.startsWith('s3:') && action !== 's3:GetObject')).toEqual(
            [],
          );
        }
        const { consumes, deadLetters, stream } = c.beyond;
        const queueArns = new Set(
          [
            ...[...(c.access.queues ?? []), ...(consumes ? [consumes] : [])].map((queue) =>
              logicalId(stack.workerQueues.get(queue)!.queue),
            ),
            ...(consumes && deadLetters
              ? [logicalId(stack.workerQueues.get(consumes)!.deadLetterQueue)]
              : []),
            ...(stream ? [logicalId(stack.streamConsumers.get(stream)!.failureQueue)] : []),
          ].map((id) => JSON.stringify(getAtt(id))),
        );
        const sqsResources = grants
          .filter((grant) => grant.startsWith('sqs:'))
          .map((grant) => grant.slice(grant.indexOf(' on ') + 4));
        for (const resource of sqsResources) expect(queueArns.has(resource)).toBe(true);
        if (queueArns.size === 0) expect(sqsResources).toEqual([]);
      },
    );

    it('grants no wildcard actions and never Scan, anywhere (nested stacks included)', () => {
      const statements = synth
        .resources('AWS::IAM::Policy')
        .flatMap(({ resource }) => resource.Properties.PolicyDocument.Statement);
      expect(statements.length).toBeGreaterThan(0);
      const actions = statements.flatMap((statement) => asArray<string>(statement.Action));
      expect(actions.filter((action) => action.includes('*'))).toEqual([]);
      for (const template of synth.templates.values()) {
        expect(JSON.stringify(template.toJSON())).not.toContain('dynamodb:Scan');
      }
    });

    it('has one role per distinct declared access, shared by exactly the functions declaring it', () => {
      const roleOf = (c: (typeof cases)[number]) => logicalId(c.fn.role!.node.defaultChild as CfnRole);
      const keyOf = (c: (typeof cases)[number]) => grantKey({ access: c.access, ...c.beyond });
      for (const a of cases) {
        for (const b of cases)
          expect(roleOf(a) === roleOf(b), `${a.name} / ${b.name}`).toBe(keyOf(a) === keyOf(b));
      }
      const roles = [...new Set(cases.map(roleOf))].sort();
      expect(roles).toHaveLength(new Set(cases.map(keyOf)).size);
      expect(roles).toEqual([...stack.roles.roles.values()].map((role) => logicalId(role)).sort());
    });

    it('has no other roles or policies, in any stack', () => {
      const roles = new Set(cases.map((c) => logicalId(c.fn.role!.node.defaultChild as CfnRole)));
      const deployedRoles = synth.resources('AWS::IAM::Role');
      expect(deployedRoles.every((role) => role.stack === stack)).toBe(true);
      expect(deployedRoles.map((role) => role.id).sort()).toEqual([...roles].sort());
      const policies = synth.resources('AWS::IAM::Policy');
      expect(policies.every((policy) => policy.stack === stack)).toBe(true);
      for (const { resource } of policies) {
        expect(resource.Properties.Roles).toHaveLength(1);
        expect(roles).toContain(resource.Properties.Roles[0].Ref);
      }
      expect(synth.resources('AWS::IAM::ManagedPolicy')).toEqual([]);
    });
  });
}

describeGrants(
  'the deployed route, worker, stream-consumer and schedule tables',
  routes,
  workers,
  streamConsumers,
  schedules,
);

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
    // Same access as an entry above (queues in another order): they share its role.
    sample('functions/users/block.ts', { table: 'read', bucket: 'read' }),
    sample('functions/users/unblock.ts', { table: 'write', bucket: 'write', queues: ['second', 'first'] }),
    sample('functions/groups/get.ts', { queues: ['second'] }),
  ],
  [
    {
      ...workers[0]!,
      queue: 'first',
      entry: 'functions/workers/user-cleanup.ts',
      access: { queues: ['second'] },
    },
    { ...workers[0]!, queue: 'second', entry: 'functions/users/delete.ts', access: { bucket: 'read' } },
    // Same access as the one above, but it dead-letters itself: a role of its own.
    {
      ...workers[0]!,
      queue: 'third',
      entry: 'functions/users/get-current.ts',
      access: { bucket: 'read' },
      ownsRetries: true,
    },
  ],
  [
    // Same declared access as a route above: still a role of its own (it reads the stream).
    {
      ...streamConsumers[0]!,
      name: 'changes',
      entry: 'functions/users/list-projects.ts',
      access: { queues: ['second'] },
    },
  ],
  [
    // Same declared access as a route above: it shares that route's role.
    {
      ...schedules[0]!,
      name: 'tick',
      entry: 'functions/groups/list.ts',
      access: { queues: ['second'] },
    },
  ],
);
