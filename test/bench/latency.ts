import { median, percentile, round } from './common.ts';

export interface LatencySummary {
  count: number;
  medianMs: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  perSecond: number;
}

/** Latency figures of one measurement (samples in milliseconds). */
export function summarize(samples: readonly number[], elapsedMs?: number): LatencySummary {
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    count: samples.length,
    medianMs: round(median(samples), 3),
    p90Ms: round(percentile(samples, 90), 3),
    p99Ms: round(percentile(samples, 99), 3),
    maxMs: round(
      samples.reduce((max, value) => Math.max(max, value), 0),
      3,
    ),
    meanMs: round(samples.length ? total / samples.length : Number.NaN, 3),
    perSecond: elapsedMs ? round((samples.length / elapsedMs) * 1000, 1) : Number.NaN,
  };
}
