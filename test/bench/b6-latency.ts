/**
 * B6: latency through the local gateway against a raw DocumentClient GetItem of the same user item
 * from this process (the one that runs the gateway and the handlers), side by side: every round
 * measures the raw read and each endpoint back to back, in a rotating order, at equal concurrency.
 * The HTTP load comes from autocannon in a child process so it does not share the gateway's loop.
 */
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#store/client.ts';
import { keys } from '#store/keys.ts';
import { type BudgetResult, lastJsonLine, median, round, runChild, table, tsxNodeArgs } from './common.ts';
import { type LatencySummary, summarize } from './latency.ts';
import { type BenchRuntime, ROOT_TOKEN } from './runtime.ts';

export const MEDIAN_RATIO_BUDGET = 2.5;
export const P99_RATIO_BUDGET = 4;

interface HttpSummary extends LatencySummary {
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface LoadShape {
  connections: number;
  /** Upper bound on requests per measurement, whatever the duration. */
  maxRequests: number;
}

async function rawGetItem(userId: number, options: LoadShape, durationSec: number): Promise<LatencySummary> {
  const client = documentClient();
  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + durationSec * 1000;
  const worker = async () => {
    while (performance.now() < deadline && samples.length < options.maxRequests) {
      const t0 = performance.now();
      const result = await client.send(
        new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true }),
      );
      samples.push(performance.now() - t0);
      if (!result.Item) throw new Error(`user ${userId} not found by the raw GetItem`);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  return summarize(samples, performance.now() - started);
}

async function httpLoad(url: string, options: LoadShape, durationSec: number): Promise<HttpSummary> {
  const child = await runChild(
    process.execPath,
    [
      ...tsxNodeArgs,
      join(import.meta.dirname, 'http-load.ts'),
      JSON.stringify({
        url,
        headers: { 'PRIVATE-TOKEN': ROOT_TOKEN },
        connections: options.connections,
        durationSec,
        maxRequests: options.maxRequests,
      }),
    ],
    { timeoutMs: (durationSec + 30) * 1000 },
  );
  if (child.code !== 0) throw new Error(`load generator exit ${child.code}: ${child.stderr.slice(-600)}`);
  return lastJsonLine<HttpSummary>(child.stdout);
}

type Target = 'raw' | 'user' | 'userById';
const TARGETS: Target[] = ['raw', 'user', 'userById'];

interface Profile {
  connections: number;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  maxRequests: number;
}

interface ProfileResult {
  profile: Profile;
  rounds: Record<Target, LatencySummary>[];
  figures: Record<Target, { medianMs: number; p99Ms: number; perSecond: number; count: number }>;
  ratios: Record<Exclude<Target, 'raw'>, { median: number; p99: number }>;
  problems: string[];
}

async function measureProfile(
  profile: Profile,
  urls: Record<Exclude<Target, 'raw'>, string>,
  userId: number,
  labels: Record<Target, string>,
): Promise<ProfileResult> {
  const measure = (target: Target, seconds: number) =>
    target === 'raw' ? rawGetItem(userId, profile, seconds) : httpLoad(urls[target], profile, seconds);
  // Warm-up: JIT in both JVM and Node, keep-alive pools, DynamoDB Local's caches.
  if (profile.warmupSec > 0) for (const target of TARGETS) await measure(target, profile.warmupSec);
  const rounds: Record<Target, LatencySummary>[] = [];
  for (let r = 0; r < profile.rounds; r++) {
    const order = TARGETS.map((_, i) => TARGETS[(i + r) % TARGETS.length] as Target);
    const result = {} as Record<Target, LatencySummary>;
    for (const target of order) result[target] = await measure(target, profile.durationSec);
    rounds.push(result);
  }
  const figure = (target: Target) => ({
    medianMs: round(median(rounds.map((r) => r[target].medianMs)), 3),
    p99Ms: round(median(rounds.map((r) => r[target].p99Ms)), 3),
    perSecond: round(median(rounds.map((r) => r[target].perSecond)), 0),
    count: rounds.reduce((sum, r) => sum + r[target].count, 0),
  });
  const ratio = (target: Exclude<Target, 'raw'>) => ({
    median: round(median(rounds.map((r) => r[target].medianMs / r.raw.medianMs)), 2),
    p99: round(median(rounds.map((r) => r[target].p99Ms / r.raw.p99Ms)), 2),
  });
  const problems: string[] = [];
  for (const target of ['user', 'userById'] as const) {
    for (const r of rounds) {
      const summary = r[target] as HttpSummary;
      if (summary.non2xx || summary.errors || summary.timeouts) {
        problems.push(
          `${labels[target]} at ${profile.connections} connection(s): ${summary.non2xx} non-2xx, ${summary.errors} errors, ${summary.timeouts} timeouts`,
        );
      }
    }
  }
  return {
    profile,
    rounds,
    figures: { raw: figure('raw'), user: figure('user'), userById: figure('userById') },
    ratios: { user: ratio('user'), userById: ratio('userById') },
    problems,
  };
}

const withinBudget = (ratio: { median: number; p99: number }) =>
  ratio.median <= MEDIAN_RATIO_BUDGET && ratio.p99 <= P99_RATIO_BUDGET;

export async function runB6(
  bench: BenchRuntime,
  userId: number,
  options: { loaded: Profile; unloaded?: Profile },
): Promise<BudgetResult> {
  const started = performance.now();
  const urls: Record<Exclude<Target, 'raw'>, string> = {
    user: `${bench.runtime.apiUrl}/user`,
    userById: `${bench.runtime.apiUrl}/users/${userId}`,
  };
  const labels: Record<Target, string> = {
    raw: 'raw GetItem (DocumentClient)',
    user: 'GET /api/v4/user',
    userById: `GET /api/v4/users/${userId}`,
  };
  const loaded = await measureProfile(options.loaded, urls, userId, labels);
  const unloaded = options.unloaded
    ? await measureProfile(options.unloaded, urls, userId, labels)
    : undefined;

  const rows: (string | number)[][] = [
    ['target', 'conn', 'requests', 'req/s', 'median', 'p99', 'median ratio', 'p99 ratio', 'ok'],
  ];
  for (const result of [loaded, unloaded]) {
    if (!result) continue;
    for (const target of TARGETS) {
      const f = result.figures[target];
      const ratio = target === 'raw' ? undefined : result.ratios[target];
      rows.push([
        labels[target],
        result.profile.connections,
        f.count,
        f.perSecond,
        `${f.medianMs.toFixed(2)} ms`,
        `${f.p99Ms.toFixed(2)} ms`,
        ratio ? `${ratio.median.toFixed(2)}×` : '1',
        ratio ? `${ratio.p99.toFixed(2)}×` : '1',
        !ratio
          ? 'ref'
          : result === unloaded
            ? withinBudget(ratio)
              ? 'info'
              : 'info: over'
            : withinBudget(ratio)
              ? 'yes'
              : 'NO',
      ]);
    }
  }
  const { user, userById } = loaded.ratios;
  const problems = [...loaded.problems, ...(unloaded?.problems ?? [])];
  const holds = loaded.problems.length ? null : withinBudget(user) && withinBudget(userById);
  const describe = (p: Profile) =>
    `${p.rounds} rounds of ${p.durationSec} s per target${p.warmupSec ? ` after ${p.warmupSec} s warm-up each` : ''}`;
  return {
    id: 'B6',
    title: `Latency through the local gateway ≤ ${MEDIAN_RATIO_BUDGET}× (median) and ≤ ${P99_RATIO_BUDGET}× (p99) a raw GetItem of the same item`,
    holds,
    summary: `at ${options.loaded.connections} connections: median ${user.median}× / ${userById.median}×, p99 ${user.p99}× / ${userById.p99}× (GET /user / GET /users/:id vs raw GetItem)`,
    table: table(rows),
    notes: [
      `Verdict at ${options.loaded.connections} concurrent connections (HTTP: autocannon in a child process; raw: as many loops in the gateway's process), ${describe(options.loaded)}, order rotating; figures are medians over rounds, ratios taken within each round.${
        options.unloaded
          ? ` The ${options.unloaded.connections}-connection rows (${describe(options.unloaded)}) show unloaded latency, information only.`
          : ''
      }`,
      `Both endpoints read the same item (root's USER#${userId}, ConsistentRead like getUser) after authenticating with root's token (one more GetItem), so each request costs two DynamoDB Local reads against the raw loop's one; at 10 connections DynamoDB Local is the bottleneck and latency is mostly queueing. LOG_LEVEL=silent. PERFORMANCE.md names GET /projects/:id, which does not exist yet.`,
      ...problems.map((problem) => `PROBLEM ${problem}`),
    ],
    details: { loaded, unloaded },
    seconds: (performance.now() - started) / 1000,
  };
}
