/**
 * The alarms, the SNS topic they notify and the dashboard: each dead-letter queue, the API's 5xx
 * rate, Lambda errors and throttles of every function, DynamoDB throttling of the table and each
 * index, full item collections, and the table's use of its table-level quota.
 */
import { Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { maxMetricsPerAlarm, serverErrorRatePercent, tableQuotaAlarmPercent } from '../../lib/monitoring.ts';
import { indexes } from '../../shared/store/table/table.ts';
import { getAtt, type Json, logicalId, ref, synthesize } from './support.ts';

const synth = synthesize();
const { stack } = synth;
const { monitoring } = stack;
const monitoringTemplate = synth.templates.get(monitoring)!.toJSON();
const topicRef = ref(logicalId(monitoring.topic));
const alarmsIn = (s: Stack) =>
  Object.entries(synth.templates.get(s)!.findResources('AWS::CloudWatch::Alarm')) as [string, Json][];
const monitoringAlarms = alarmsIn(monitoring);
/** The queries of a metric-math alarm, with nested parameters written in root terms. */
const queriesOf = (s: Stack, alarm: Json): Json[] => synth.inRoot(s, alarm.Properties.Metrics ?? []);
const metricStats = (queries: Json[]) =>
  queries.filter((query) => query.MetricStat).map((query) => query.MetricStat.Metric);
const dimension = (metric: Json, name: string) => metric.Dimensions.find((d: Json) => d.Name === name)?.Value;

describe('alarm topic', () => {
  it('is one SNS topic, in the monitoring stack, that denies publishing without TLS', () => {
    const topics = synth.resources('AWS::SNS::Topic');
    expect(topics.map(({ stack: holder, id }) => [holder, id])).toEqual([
      [monitoring, logicalId(monitoring.topic)],
    ]);
    const [policy] = synth.resources('AWS::SNS::TopicPolicy');
    expect(policy!.resource.Properties.Topics).toEqual([topicRef]);
    expect(policy!.resource.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('is notified by every alarm of the monitoring stack, on ALARM and on OK', () => {
    const notifying = [
      ...monitoringAlarms,
      ...Object.entries(synth.templates.get(monitoring)!.findResources('AWS::CloudWatch::CompositeAlarm')),
    ].filter(([, alarm]) => alarm.Properties.AlarmActions);
    expect(notifying.length).toBe(monitoring.alarms.size);
    for (const [, alarm] of notifying) {
      expect(alarm.Properties.AlarmActions).toEqual([topicRef]);
      expect(alarm.Properties.OKActions).toEqual([topicRef]);
    }
  });
});

describe('dead-letter queues', () => {
  const deadLetterQueues = [
    ...[...stack.workerQueues].map(([name, { deadLetterQueue }]) => [name, deadLetterQueue] as const),
    ...[...stack.streamConsumers].map(
      ([name, { failureQueue }]) => [`${name} (stream)`, failureQueue] as const,
    ),
  ];

  it.each(deadLetterQueues)(
    '%s: an alarm as soon as its dead-letter queue holds a message',
    (_name, queue) => {
      const matching = monitoringAlarms.filter(
        ([, alarm]) =>
          alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
          JSON.stringify(synth.inRoot(monitoring, alarm.Properties.Dimensions)) ===
            JSON.stringify([{ Name: 'QueueName', Value: getAtt(logicalId(queue), 'QueueName') }]),
      );
      expect(matching).toHaveLength(1);
      const [, alarm] = matching[0]!;
      expect(alarm.Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        Statistic: 'Maximum',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [topicRef],
      });
    },
  );

  it('has no other queue alarm', () => {
    const queueAlarms = monitoringAlarms.filter(([, alarm]) => alarm.Properties.Namespace === 'AWS/SQS');
    expect(queueAlarms).toHaveLength(deadLetterQueues.length);
  });
});

describe('API 5xx rate', () => {
  it(`alarms above ${serverErrorRatePercent}% of requests answered 5xx in five minutes`, () => {
    const matching = monitoringAlarms.filter(([, alarm]) =>
      metricStats(queriesOf(monitoring, alarm)).some((metric) => metric.Namespace === 'AWS/ApiGateway'),
    );
    expect(matching).toHaveLength(1);
    const [, alarm] = matching[0]!;
    const queries = queriesOf(monitoring, alarm);
    const apiId = { Ref: logicalId(stack.api) };
    const byName = Object.fromEntries(metricStats(queries).map((metric) => [metric.MetricName, metric]));
    expect(Object.keys(byName).sort()).toEqual(['5xx', 'Count']);
    for (const metric of Object.values(byName)) expect(dimension(metric, 'ApiId')).toEqual(apiId);
    const expression = queries.find((query) => query.Expression)!;
    expect(expression.ReturnData ?? true).toBe(true);
    expect(expression.Expression).toMatch(/100 \* \w+ \/ \w+/);
    expect(alarm.Properties).toMatchObject({
      Threshold: serverErrorRatePercent,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [topicRef],
    });
    expect(queries.every((query) => !query.MetricStat || query.MetricStat.Period === 300)).toBe(true);
  });
});

describe('Lambda errors and throttles', () => {
  const functions = [
    ...[...stack.routeFunctions.values()],
    ...[...stack.workerQueues.values()].map(({ consumer }) => consumer),
    ...[...stack.streamConsumers.values()].map(({ consumer }) => consumer),
    ...[...stack.scheduledFunctions.values()].map(({ fn }) => fn),
  ];
  const holders = [...stack.routeStacks.values(), monitoring];
  /** Each Lambda alarm: where it is, what it watches (function refs in root terms per metric). */
  const lambdaAlarms = holders.flatMap((holder) =>
    alarmsIn(holder)
      .map(([id, alarm]) => {
        const metrics = metricStats(queriesOf(holder, alarm)).filter((m) => m.Namespace === 'AWS/Lambda');
        return { holder, id, alarm, metrics };
      })
      .filter(({ metrics }) => metrics.length > 0),
  );

  it.each(['Errors', 'Throttles'])('every function’s %s are watched by exactly one alarm', (metricName) => {
    for (const fn of functions) {
      const watching = lambdaAlarms.filter(({ holder, metrics }) =>
        metrics.some(
          (metric) =>
            metric.MetricName === metricName &&
            JSON.stringify(dimension(metric, 'FunctionName')) ===
              JSON.stringify(
                holder === monitoring ? ref(logicalId(fn)) : synth.inRoot(holder, ref(logicalId(fn))),
              ),
        ),
      );
      expect(watching, `${fn.node.path} ${metricName}`).toHaveLength(1);
      // Beside the function when it is a route's (no cross-stack reference), else in the monitoring stack.
      expect(watching[0]!.holder).toBe(Stack.of(fn) === stack ? monitoring : Stack.of(fn));
    }
  });

  it(`watches at most ${maxMetricsPerAlarm} metrics an alarm, summed, any error or throttle in five minutes`, () => {
    for (const { alarm, metrics } of lambdaAlarms) {
      expect(metrics.length).toBeLessThanOrEqual(maxMetricsPerAlarm);
      expect(new Set(metrics.map((m) => m.MetricName)).size).toBe(1);
      const expression = alarm.Properties.Metrics.find((query: Json) => query.Expression);
      expect(expression.Expression).toMatch(/^SUM\(\[/);
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.Properties.AlarmActions).toBeUndefined();
    }
    expect(lambdaAlarms.length).toBeGreaterThanOrEqual((2 * functions.length) / maxMetricsPerAlarm);
  });

  it.each(['Errors', 'Throttles'])(
    'one composite alarm for %s, over all of them, notifies the topic',
    (metricName) => {
      const composites = Object.values(
        synth.templates.get(monitoring)!.findResources('AWS::CloudWatch::CompositeAlarm'),
      ).filter((composite) => String(composite.Properties.AlarmDescription).includes(metricName));
      expect(composites).toHaveLength(1);
      const rule = JSON.stringify(synth.inRoot(monitoring, composites[0]!.Properties.AlarmRule));
      const children = lambdaAlarms.filter(({ metrics }) => metrics[0]!.MetricName === metricName);
      for (const { holder, id } of children) {
        // A child in a route stack is named through that stack's output; one here by its own ARN.
        const mention = holder === monitoring ? id : logicalId(holder.nestedStackResource!);
        expect(rule).toContain(mention);
      }
      expect((rule.match(/ALARM\(/g) ?? []).length).toBe(children.length);
      expect(composites[0]!.Properties.AlarmActions).toEqual([topicRef]);
    },
  );
});

describe('DynamoDB throttles', () => {
  const tableRef = { Ref: logicalId(stack.table) };
  const dynamoAlarms = monitoringAlarms
    .map(([, alarm]) => ({ alarm, metrics: metricStats(queriesOf(monitoring, alarm)) }))
    .filter(({ metrics }) =>
      metrics.some(
        (metric) => metric.Namespace === 'AWS/DynamoDB' && metric.MetricName.endsWith('ThrottleEvents'),
      ),
    );

  it.each([undefined, ...indexes.map((index) => index.name)])(
    'read and write throttle events of %s are alarmed on',
    (indexName) => {
      for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        const watching = dynamoAlarms.filter(({ metrics }) =>
          metrics.some(
            (metric) =>
              metric.MetricName === metricName &&
              JSON.stringify(dimension(metric, 'TableName')) === JSON.stringify(tableRef) &&
              dimension(metric, 'GlobalSecondaryIndexName') === indexName,
          ),
        );
        expect(watching, `${indexName ?? 'table'} ${metricName}`).toHaveLength(1);
      }
    },
  );

  it('each alarm watches at most ten metrics, fires on one throttle event, notifies the topic', () => {
    expect(dynamoAlarms.length).toBe(Math.ceil((2 * (indexes.length + 1)) / maxMetricsPerAlarm));
    for (const { alarm, metrics } of dynamoAlarms) {
      expect(metrics.length).toBeLessThanOrEqual(maxMetricsPerAlarm);
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [topicRef],
      });
    }
  });
});

describe('table-level quota', () => {
  const quotaAlarms = monitoringAlarms.filter(([, alarm]) =>
    metricStats(queriesOf(monitoring, alarm)).some((metric) => metric.MetricName.startsWith('Consumed')),
  );

  it(`alarms when the table uses more than ${tableQuotaAlarmPercent}% of the configured quota over five minutes`, () => {
    expect(quotaAlarms).toHaveLength(1);
    const [, alarm] = quotaAlarms[0]!;
    const queries = queriesOf(monitoring, alarm);
    const metrics = metricStats(queries);
    expect(metrics.map((metric) => metric.MetricName).sort()).toEqual([
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
    ]);
    for (const metric of metrics) {
      expect(dimension(metric, 'TableName')).toEqual({ Ref: logicalId(stack.table) });
      expect(dimension(metric, 'GlobalSecondaryIndexName')).toBeUndefined();
    }
    // The default quota, 40,000 units a second each, over a five-minute sum.
    const { readUnitsPerSecond, writeUnitsPerSecond } = stack.settings.tableQuota;
    expect([readUnitsPerSecond, writeUnitsPerSecond]).toEqual([40_000, 40_000]);
    const expression = queries.find((query) => query.Expression)!.Expression as string;
    expect(expression).toMatch(
      new RegExp(
        `^100 \\* MAX\\(\\[\\w+ / ${300 * readUnitsPerSecond}, \\w+ / ${300 * writeUnitsPerSecond}\\]\\)$`,
      ),
    );
    expect(alarm.Properties).toMatchObject({
      Threshold: tableQuotaAlarmPercent,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [topicRef],
    });
  });
});

describe('item collections', () => {
  it('alarms when a write finds an item collection full, from both function log groups', () => {
    const filters = synth.resources('AWS::Logs::MetricFilter');
    expect(filters.every(({ stack: holder }) => holder === monitoring)).toBe(true);
    expect(
      filters.map(({ resource }) => synth.inRoot(monitoring, resource.Properties.LogGroupName)).sort(),
    ).toEqual([ref(logicalId(stack.apiLogGroup)), ref(logicalId(stack.workerLogGroup))].sort());
    for (const { resource } of filters) {
      expect(resource.Properties.FilterPattern).toContain('ItemCollectionSizeLimitExceeded');
      expect(resource.Properties.MetricTransformations).toEqual([
        { MetricNamespace: 'GitlabApi', MetricName: 'ItemCollectionSizeLimitExceeded', MetricValue: '1' },
      ]);
    }
    const alarm = monitoringAlarms.find(
      ([, a]) => a.Properties.MetricName === 'ItemCollectionSizeLimitExceeded',
    )?.[1];
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'GitlabApi',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [topicRef],
    });
  });
});

describe('dashboard', () => {
  const dashboards = synth.resources('AWS::CloudWatch::Dashboard');
  const body = JSON.stringify(dashboards[0]?.resource.Properties.DashboardBody);

  it('is one dashboard, in the monitoring stack, named after the stack and region', () => {
    expect(dashboards.map(({ stack: holder }) => holder)).toEqual([monitoring]);
    expect(JSON.stringify(dashboards[0]!.resource.Properties.DashboardName)).toContain('GitlabApi-');
  });

  it.each([
    ['API requests', '\\"Count\\"'],
    ['API 5xx', '\\"5xx\\"'],
    ['API latency', '\\"Latency\\"'],
    ['Lambda errors', 'MetricName=\\\\\\"Errors\\\\\\"'],
    ['Lambda throttles', 'MetricName=\\\\\\"Throttles\\\\\\"'],
    ['Lambda duration', 'MetricName=\\\\\\"Duration\\\\\\"'],
    ['DynamoDB consumed capacity', 'ConsumedWriteCapacityUnits'],
    ['DynamoDB throttles', 'WriteThrottleEvents'],
    ['queue depths', 'ApproximateNumberOfMessagesVisible'],
    ['requests by status', 'SUM(Requests) FROM GitlabApi GROUP BY status'],
    ['requests by route', 'SUM(Requests) FROM GitlabApi GROUP BY route'],
    ['jobs succeeded', 'SUM(JobsSucceeded) FROM GitlabApi'],
    ['jobs retried', 'SUM(JobsRetried) FROM GitlabApi'],
    ['jobs failed by worker', 'SUM(JobsFailed) FROM GitlabApi GROUP BY worker'],
    ['webhook delivery attempts', 'SUM(WebhookDeliveryAttempts) FROM GitlabApi'],
    ['webhook delivery failures', 'SUM(WebhookDeliveryFailures) FROM GitlabApi'],
  ])('shows %s', (_name, needle) => {
    expect(body).toContain(needle);
  });

  it('shows the depth of every queue and dead-letter queue', () => {
    const queues = [
      ...[...stack.workerQueues.values()].flatMap(({ queue, deadLetterQueue }) => [queue, deadLetterQueue]),
      ...[...stack.streamConsumers.values()].map(({ failureQueue }) => failureQueue),
    ];
    const parameters = monitoringTemplate.Parameters as Record<string, Json>;
    const mentioned = Object.keys(parameters).filter((name) => body.includes(`"Ref":"${name}"`));
    const resolved = JSON.stringify(
      synth.inRoot(
        monitoring,
        mentioned.map((name) => ({ Ref: name })),
      ),
    );
    for (const queue of queues) expect(resolved).toContain(logicalId(queue));
  });
});
