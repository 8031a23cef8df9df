import { Aws, Duration, NestedStack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmRule,
  AlarmState,
  AlarmStatusWidget,
  ComparisonOperator,
  CompositeAlarm,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable, WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { MetricName } from '../shared/observability/metrics.ts';
import { constructIdFor } from './api-function.ts';

/** The most metrics one alarm's metric math may watch (a CloudWatch quota). */
export const maxMetricsPerAlarm = 10;

/** The alarms' evaluation period. */
const period = Duration.minutes(5);

/** Above this share of requests answered 5xx over five minutes, the API alarm fires. */
export const serverErrorRatePercent = 1;

/** Below this many requests in five minutes the 5xx rate is not judged (one 500 among three is no outage). */
const serverErrorRateMinimumRequests = 20;

/** Above this share of the table-level quota, used on average over five minutes, the quota alarm fires. */
export const tableQuotaAlarmPercent = 80;

/** Namespace of the functions' EMF metrics (Powertools Metrics; POWERTOOLS_METRICS_NAMESPACE's default). */
const metricsNamespace = 'GitlabApi';

/** The functions' EMF metrics the dashboard shows (written by shared/observability/metrics.ts). */
const emf = {
  requests: 'Requests',
  jobsSucceeded: 'JobsSucceeded',
  jobsRetried: 'JobsRetried',
  jobsFailed: 'JobsFailed',
  deliveryAttempts: 'WebhookDeliveryAttempts',
  deliveryFailures: 'WebhookDeliveryFailures',
} as const satisfies Record<string, MetricName>;

/** A function deployed from `functions/`, with its name (its entry, or its route's `name`). */
export interface MonitoredFunction {
  name: string;
  fn: IFunction;
}

/** Errors and Throttles alarms over a set of functions, at most `maxMetricsPerAlarm` functions each. */
export interface FunctionAlarms {
  errors: Alarm[];
  throttles: Alarm[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** The sum of `metricName` over `functions`, a function without data counting as zero. */
function sumOverFunctions(metricName: 'Errors' | 'Throttles', functions: readonly MonitoredFunction[]) {
  const usingMetrics = Object.fromEntries(
    functions.map(({ fn }, index) => [`f${index}`, fn.metric(metricName, { statistic: Stats.SUM, period })]),
  );
  return new MathExpression({
    expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
    usingMetrics,
    label: `${metricName} (sum)`,
    period,
  });
}

/**
 * Alarms on the Lambda Errors and Throttles of `functions` (any error or throttle in five minutes),
 * one pair per ten functions since an alarm's math watches at most ten metrics. They notify no one
 * themselves: the monitoring stack's composite alarms do (`Monitoring`). `label` says which
 * functions they watch, e.g. `functions/users`.
 */
export function functionAlarms(
  scope: Construct,
  label: string,
  functions: readonly MonitoredFunction[],
): FunctionAlarms {
  const alarms: FunctionAlarms = { errors: [], throttles: [] };
  const groups = chunks(functions, maxMetricsPerAlarm);
  groups.forEach((group, index) => {
    const part = groups.length > 1 ? ` (${index + 1} of ${groups.length})` : '';
    const names = group.map(({ name }) => name).join(', ');
    for (const [metricName, list] of [
      ['Errors', alarms.errors],
      ['Throttles', alarms.throttles],
    ] as const) {
      list.push(
        new Alarm(scope, `${metricName}Alarm${index + 1}`, {
          metric: sumOverFunctions(metricName, group),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `Lambda ${metricName} of ${label}${part} in five minutes: ${names}`.slice(
            0,
            1024,
          ),
        }),
      );
    }
  });
  return alarms;
}

export interface MonitoringProps {
  /** The root stack's name: every function's name starts with it (the dashboard searches by it). */
  rootStackName: string;
  api: IHttpApi;
  table: ITable;
  /** The table's global secondary indexes. */
  indexNames: readonly string[];
  /** The table-level throughput quota granted (Service Quotas), per second: its use is alarmed. */
  tableQuota?: Required<WarmThroughput>;
  /** Worker queues, by worker-table name. */
  queues: ReadonlyMap<string, IQueue>;
  /** Every dead-letter queue (the workers' and the stream consumers' failure queues), by what it holds. */
  deadLetterQueues: ReadonlyMap<string, IQueue>;
  /** Alarms made beside the functions they watch (the route functions' nested stacks), by label. */
  functionAlarms: ReadonlyMap<string, FunctionAlarms>;
  /** Functions that get their alarms here (the root's workers, stream consumers and schedules). */
  functions: readonly MonitoredFunction[];
  /** The functions' log groups. */
  logGroups: readonly ILogGroup[];
}

/**
 * The alarms, the topic they notify and the dashboard, in a nested stack of their own so that the
 * root template keeps its room for routes. Alarms: each dead-letter queue holding a message, the
 * API's 5xx rate, Lambda errors and throttles (one composite alarm each over the per-ten-functions
 * alarms), DynamoDB throttling of the table and of its indexes, full item collections, and the
 * table's use of its table-level quota.
 */
export class Monitoring extends NestedStack {
  /** Every alarm notifies it. */
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  /** The alarms that notify the topic, by what they watch. */
  readonly alarms: ReadonlyMap<string, IAlarm>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, {
      description: 'GitLab-compatible REST API: alarms, their SNS topic and the dashboard',
    });

    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `${props.rootStackName} alarms`,
      enforceSSL: true,
    });
    const action = new SnsAction(this.topic);
    const alarms = new Map<string, IAlarm>();
    const notify = <T extends Alarm | CompositeAlarm>(name: string, alarm: T) => {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      alarms.set(name, alarm);
      return alarm;
    };

    for (const [name, queue] of props.deadLetterQueues) {
      notify(
        `dead letters: ${name}`,
        new Alarm(this, `${constructIdFor(name)}DeadLettersAlarm`, {
          metric: queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period }),
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `${name}: messages in its dead-letter queue (work given up on; inspect, then redrive or purge)`,
        }),
      );
    }

    const requests = props.api.metricCount({ statistic: Stats.SUM, period });
    const serverErrors = props.api.metricServerError({ statistic: Stats.SUM, period });
    const serverErrorRate = new MathExpression({
      expression: `IF(requests >= ${serverErrorRateMinimumRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx rate (%)',
      period,
    });
    notify(
      'API 5xx rate',
      new Alarm(this, 'ServerErrorRateAlarm', {
        metric: serverErrorRate,
        threshold: serverErrorRatePercent,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `More than ${serverErrorRatePercent}% of API requests answered 5xx in five minutes (judged from ${serverErrorRateMinimumRequests} requests)`,
      }),
    );

    const rootAlarms = functionAlarms(
      new Construct(this, 'RootFunctions'),
      'the workers, stream consumers and schedules',
      props.functions,
    );
    const allFunctionAlarms = [...props.functionAlarms.values(), rootAlarms];
    for (const kind of ['errors', 'throttles'] as const) {
      const children = allFunctionAlarms.flatMap((set) => set[kind]);
      const title = kind === 'errors' ? 'Errors' : 'Throttles';
      notify(
        `Lambda ${kind}`,
        new CompositeAlarm(this, `Lambda${title}Alarm`, {
          alarmRule: AlarmRule.anyOf(
            ...children.map((child) => AlarmRule.fromAlarm(child, AlarmState.ALARM)),
          ),
          alarmDescription: `Lambda ${title} in any of the stack's functions (the alarm that fired names the functions)`,
        }),
      );
    }

    const tableName = props.table.tableName;
    const dynamoMetric = (metricName: string, indexName?: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: {
          TableName: tableName,
          ...(indexName ? { GlobalSecondaryIndexName: indexName } : {}),
        },
        statistic: Stats.SUM,
        period,
      });
    const throttleTargets = [undefined, ...props.indexNames];
    // Read and write throttle events of the table and each index, ten metrics an alarm.
    const throttleGroups = chunks(throttleTargets, maxMetricsPerAlarm / 2);
    throttleGroups.forEach((group, index) => {
      const usingMetrics: Record<string, IMetric> = {};
      group.forEach((indexName, position) => {
        usingMetrics[`r${position}`] = dynamoMetric('ReadThrottleEvents', indexName);
        usingMetrics[`w${position}`] = dynamoMetric('WriteThrottleEvents', indexName);
      });
      const names = group.map((indexName) => indexName ?? 'the table').join(', ');
      notify(
        `DynamoDB throttles ${index + 1}`,
        new Alarm(this, `DynamoThrottlesAlarm${index + 1}`, {
          metric: new MathExpression({
            expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
            usingMetrics,
            label: 'Throttle events (sum)',
            period,
          }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `DynamoDB read or write throttle events in five minutes on ${names}`,
        }),
      );
    });
    // A partition with a local index holds at most 10 GB; a write past it fails with this error
    // (a busy project's hook logs or a long note thread, see docs/capacity.md). No metric reports
    // it, so the functions' logs are searched for it.
    const itemCollectionFull = 'ItemCollectionSizeLimitExceeded';
    props.logGroups.forEach((logGroup, index) => {
      new MetricFilter(this, `ItemCollectionFullFilter${index + 1}`, {
        logGroup,
        filterPattern: FilterPattern.anyTerm(itemCollectionFull, `${itemCollectionFull}Exception`),
        metricNamespace: metricsNamespace,
        metricName: itemCollectionFull,
        metricValue: '1',
      });
    });
    notify(
      'DynamoDB item collection full',
      new Alarm(this, 'ItemCollectionFullAlarm', {
        metric: new Metric({
          namespace: metricsNamespace,
          metricName: itemCollectionFull,
          statistic: Stats.SUM,
          period,
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription:
          'A write failed because an item collection (a partition with a local index) reached 10 GB; see docs/capacity.md',
      }),
    );
    if (props.tableQuota) {
      // The quota caps the table per second; before it throttles, the quota (and the warm
      // throughput) should be raised: docs/capacity.md F7.
      const { readUnitsPerSecond: read, writeUnitsPerSecond: write } = props.tableQuota;
      const seconds = period.toSeconds();
      notify(
        'DynamoDB table quota',
        new Alarm(this, 'TableQuotaAlarm', {
          metric: new MathExpression({
            expression: `100 * MAX([r / ${seconds * read}, w / ${seconds * write}])`,
            usingMetrics: {
              r: dynamoMetric('ConsumedReadCapacityUnits'),
              w: dynamoMetric('ConsumedWriteCapacityUnits'),
            },
            label: 'Table-level quota used (%)',
            period,
          }),
          threshold: tableQuotaAlarmPercent,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `The table used more than ${tableQuotaAlarmPercent}% of its table-level quota (${read} RRU/s, ${write} WRU/s) over five minutes: request more (Service Quotas), then raise tableReadQuota/tableWriteQuota and the warm throughput`,
        }),
      );
    }
    this.alarms = alarms;

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${props.rootStackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    const lambdaSearch = (metricName: string, statistic: string) =>
      `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" ${props.rootStackName}', '${statistic}', 300)`;
    const insights = (query: string, label: string) =>
      new MathExpression({ expression: query, usingMetrics: {}, label, period });
    const queueDepths = (queues: ReadonlyMap<string, IQueue>) =>
      [...queues].map(([name, queue]) =>
        queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period, label: name }),
      );
    const width = 8;
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests', left: [requests], width }),
      new GraphWidget({
        title: 'API 4xx and 5xx',
        left: [props.api.metricClientError({ statistic: Stats.SUM, period }), serverErrors],
        right: [serverErrorRate],
        width,
      }),
      new GraphWidget({
        title: 'API latency',
        left: [Stats.p(50), Stats.p(90), Stats.p(99)].map((statistic) =>
          props.api.metricLatency({ statistic, period, label: `latency ${statistic}` }),
        ),
        width,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda errors and throttles (all functions)',
        left: [
          new MathExpression({
            expression: `SUM(${lambdaSearch('Errors', 'Sum')})`,
            usingMetrics: {},
            label: 'errors',
            period,
          }),
          new MathExpression({
            expression: `SUM(${lambdaSearch('Throttles', 'Sum')})`,
            usingMetrics: {},
            label: 'throttles',
            period,
          }),
        ],
        width,
      }),
      new GraphWidget({
        title: 'Lambda duration p99 (slowest function)',
        left: [
          new MathExpression({
            expression: `MAX(${lambdaSearch('Duration', 'p99')})`,
            usingMetrics: {},
            label: 'p99 (ms)',
            period,
          }),
        ],
        width,
      }),
      new GraphWidget({
        title: 'Lambda concurrent executions (account)',
        left: [
          new Metric({
            namespace: 'AWS/Lambda',
            metricName: 'ConcurrentExecutions',
            statistic: Stats.MAXIMUM,
            period,
          }),
        ],
        width,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'DynamoDB consumed capacity (table)',
        left: [dynamoMetric('ConsumedReadCapacityUnits'), dynamoMetric('ConsumedWriteCapacityUnits')],
        width,
      }),
      new GraphWidget({
        title: 'DynamoDB throttle events (table and indexes)',
        left: throttleTargets.flatMap((indexName) =>
          ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName) =>
            dynamoMetric(metricName, indexName).with({ label: `${indexName ?? 'table'} ${metricName}` }),
          ),
        ),
        width,
      }),
      new GraphWidget({ title: 'Queue depths', left: queueDepths(props.queues), width }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Dead-letter queue depths',
        left: queueDepths(props.deadLetterQueues),
        width,
      }),
      new GraphWidget({
        title: 'Requests by status',
        left: [insights(`SELECT SUM(${emf.requests}) FROM ${metricsNamespace} GROUP BY status`, 'requests')],
        width,
      }),
      new GraphWidget({
        title: 'Busiest routes',
        left: [
          insights(
            `SELECT SUM(${emf.requests}) FROM ${metricsNamespace} GROUP BY route ORDER BY SUM() DESC LIMIT 10`,
            'requests',
          ),
        ],
        width,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Jobs by outcome',
        left: [
          insights(`SELECT SUM(${emf.jobsSucceeded}) FROM ${metricsNamespace}`, 'succeeded'),
          insights(`SELECT SUM(${emf.jobsRetried}) FROM ${metricsNamespace}`, 'retried'),
          insights(`SELECT SUM(${emf.jobsFailed}) FROM ${metricsNamespace}`, 'failed'),
        ],
        width,
      }),
      new GraphWidget({
        title: 'Failed jobs by worker',
        left: [insights(`SELECT SUM(${emf.jobsFailed}) FROM ${metricsNamespace} GROUP BY worker`, 'failed')],
        width,
      }),
      new GraphWidget({
        title: 'Webhook deliveries',
        left: [
          insights(`SELECT SUM(${emf.deliveryAttempts}) FROM ${metricsNamespace}`, 'attempts'),
          insights(`SELECT SUM(${emf.deliveryFailures}) FROM ${metricsNamespace}`, 'failures'),
        ],
        width,
      }),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Alarms', alarms: [...alarms.values()], width: 24 }),
    );
  }
}
