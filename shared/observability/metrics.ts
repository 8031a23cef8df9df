/**
 * CloudWatch metrics as EMF lines through Powertools' Metrics, one line per invocation. Names and
 * dimensions (docs: README "Operate"):
 *
 * - `Requests` (Count), dimensions `service`, `route` (the route template, never the raw path)
 *   and `status`;
 * - `JobsSucceeded`, `JobsRetried`, `JobsFailed` (Count), dimensions `service`, `worker` (the
 *   queue, or the stream consumer);
 * - `WebhookDeliveryAttempts`, `WebhookDeliveryFailures` (Count), in the hook-delivery worker's line.
 *
 * Off outside Lambda unless POWERTOOLS_METRICS_DISABLED=false (the local runtime and the tests would
 * otherwise print a line per request); when off, Metrics is never even built. When on, it is built
 * on first use, not at import (it opens process.stdout, as the logger does: see ./log.ts).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '#config/env.ts';

export type MetricName =
  | 'Requests'
  | 'JobsSucceeded'
  | 'JobsRetried'
  | 'JobsFailed'
  | 'WebhookDeliveryAttempts'
  | 'WebhookDeliveryFailures';

let instance: Metrics | undefined;

const metrics = (): Metrics | undefined => {
  if (!config.metricsEnabled) return undefined;
  instance ??= new Metrics({ namespace: config.metricsNamespace, serviceName: config.serviceName });
  return instance;
};

/** Counted in the invocation's line, written by publishMetrics(). */
export function count(name: MetricName, value = 1): void {
  metrics()?.addMetric(name, MetricUnit.Count, value);
}

/** The `worker` dimension of the jobs an invocation counts (the queue or the stream consumer). */
export function countJobsOf(worker: string): void {
  metrics()?.addDimensions({ worker });
}

/** The request's `Requests` count, written at once (a request is its invocation). */
export function countRequest(route: string, status: number): void {
  const on = metrics();
  if (!on) return;
  on.addDimensions({ route, status: String(status) });
  on.addMetric('Requests', MetricUnit.Count, 1);
  on.publishStoredMetrics();
}

/** Writes the invocation's metrics (one EMF line) and forgets them and their dimensions. */
export function publishMetrics(): void {
  const on = metrics();
  if (!on) return;
  if (on.hasStoredMetrics()) {
    on.publishStoredMetrics();
    return;
  }
  on.clearMetrics();
  on.clearDimensions();
}
