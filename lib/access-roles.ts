import { type CfnElement, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import type { Access } from '../functions/routes.ts';
import {
  type AccessTargets,
  bucketActions,
  constructIdFor,
  queueOf,
  queueSendActions,
  tableActions,
} from './api-function.ts';

/**
 * What one role allows: a declared `access`, plus, for a worker, consuming its own queue (and, when
 * it dead-letters itself, sending to that queue's DLQ), or, for a stream consumer, reading the
 * table's stream and sending to its failure queue.
 */
export interface Grant {
  access: Access;
  /** Worker-table queue name the function consumes (the event source adds that grant). */
  consumes?: string;
  /** The worker moves messages of the queue it consumes to its dead-letter queue itself. */
  deadLetters?: boolean;
  /** Stream-consumer name: the function reads the table's stream (the event source adds that grant). */
  stream?: string;
}

/** The same string for two grants exactly when they allow the same things. */
export function grantKey({ access, consumes, deadLetters, stream }: Grant): string {
  return JSON.stringify({
    table: access.table ?? null,
    bucket: access.bucket ?? null,
    queues: [...new Set(access.queues ?? [])].sort(),
    consumes: consumes ?? null,
    // Only when set, so that the keys of other grants stay as they were.
    ...(consumes && deadLetters ? { deadLetters: true } : {}),
    ...(stream ? { stream } : {}),
    ...(access.ldap ? { ldap: true } : {}),
  });
}

/** Construct id of a grant's role: `TableWriteSendSearchIndex`, `TableReadBucketRead`, `NoAccess`. */
export function roleIdFor({ access, consumes, deadLetters, stream }: Grant): string {
  const parts = [
    access.table ? `table-${access.table}` : '',
    access.bucket ? `bucket-${access.bucket}` : '',
    ...[...new Set(access.queues ?? [])].sort().map((queue) => `send-${queue}`),
    consumes ? `consume-${consumes}` : '',
    consumes && deadLetters ? 'dead-letters' : '',
    stream ? `stream-${stream}` : '',
    access.ldap ? 'ldap' : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'NoAccess' : constructIdFor(parts.join('-'));
}

function describe({ access, consumes, deadLetters, stream }: Grant): string {
  const parts = [
    access.table ? `table ${access.table}` : '',
    access.bucket ? `bucket ${access.bucket}` : '',
    ...[...new Set(access.queues ?? [])].sort().map((queue) => `send to ${queue}`),
    consumes ? `consume ${consumes}` : '',
    consumes && deadLetters ? `send to the dead-letter queue of ${consumes}` : '',
    stream ? `read the table's stream as ${stream}` : '',
    access.ldap ? 'read the LDAP bind password secrets' : '',
  ].filter((part) => part !== '');
  return `Lambda functions that may: ${parts.length === 0 ? 'nothing beyond logging' : parts.join(', ')}`;
}

/** How cdk-nag writes the ARN of `construct`'s resource in a policy: `<TableCD117FA1.Arn>`. */
function arnInNag(construct: IConstruct): string {
  return `<${Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement)}.Arn>`;
}

/** What a Lambda function needs to write its logs into a log group that exists. */
const logWriteActions: readonly string[] = ['logs:CreateLogStream', 'logs:PutLogEvents'];

/**
 * One IAM role per distinct grant. Functions that declare the same `access` share a role whose
 * policy is exactly that access (a worker's role also consumes its queue, so it is its own), so a
 * shared role never widens what any of its functions may do. Every role may write logs into the
 * stack's log groups (not AWSLambdaBasicExecutionRole, which allows any log group) and nothing
 * else beyond its grant.
 */
export class AccessRoles extends Construct {
  private readonly targets: AccessTargets;
  private readonly logGroups: readonly ILogGroup[];
  private readonly byKey = new Map<string, Role>();

  /** `logGroups`: where the functions write their logs. */
  constructor(scope: Construct, id: string, targets: AccessTargets, logGroups: readonly ILogGroup[]) {
    super(scope, id);
    this.targets = targets;
    this.logGroups = logGroups;
  }

  /** Every role created so far, by grant key. */
  get roles(): ReadonlyMap<string, Role> {
    return this.byKey;
  }

  /** The role for `grant` (created on first use). `entry` names the asking function in errors. */
  roleFor(entry: string, grant: Grant): Role {
    const key = grantKey(grant);
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const { access } = grant;
    const { table, bucket } = this.targets;
    const queues = (access.queues ?? []).map((name) => queueOf(entry, name, this.targets));
    const role = new Role(this, roleIdFor(grant), {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: describe(grant),
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [...logWriteActions],
        resources: this.logGroups.map((logGroup) => logGroup.logGroupArn),
      }),
    );
    if (access.table) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...tableActions[access.table]],
          resources: [table.tableArn, `${table.tableArn}/index/*`],
        }),
      );
    }
    if (access.bucket) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...bucketActions[access.bucket]],
          resources: [bucket.arnForObjects('*')],
        }),
      );
    }
    for (const queue of queues) {
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...queueSendActions], resources: [queue.queueArn] }),
      );
    }
    const secretArns = access.ldap ? (this.targets.ldap?.secretArns ?? []) : [];
    if (secretArns.length > 0) {
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [...secretArns] }),
      );
    }
    if (grant.consumes && grant.deadLetters) {
      const deadLetterQueue = this.targets.deadLetterQueues?.get(grant.consumes);
      if (!deadLetterQueue) throw new Error(`${entry}: queue ${grant.consumes} has no dead-letter queue`);
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...queueSendActions], resources: [deadLetterQueue.queueArn] }),
      );
    }
    const wildcards = [
      ...(access.table
        ? [
            {
              resource: `Resource::${arnInNag(this.targets.table)}/index/*`,
              why: "the table's indexes (every list is a Query on an index)",
            },
          ]
        : []),
      ...(access.bucket
        ? [
            {
              resource: `Resource::${arnInNag(this.targets.bucket)}/*`,
              why: "the bucket's objects (object actions only, none on the bucket itself)",
            },
          ]
        : []),
    ];
    if (wildcards.length > 0) {
      NagSuppressions.addResourceSuppressions(
        role,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: `The wildcards name exactly ${wildcards.map((w) => w.why).join(' and ')}: the declared access of its functions, with the actions listed one by one.`,
            appliesTo: wildcards.map((w) => w.resource),
          },
        ],
        true,
      );
    }
    this.byKey.set(key, role);
    return role;
  }
}
