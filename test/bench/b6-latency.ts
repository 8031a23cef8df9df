/**
 * B6: latency through the local gateway against a raw DocumentClient GetItem of the same item from
 * this process (the one that runs the gateway and the handlers), side by side: every round
 * measures each raw read and each endpoint back to back, in a rotating order, at equal concurrency.
 * The HTTP load comes from autocannon in a child process so it does not share the gateway's loop.
 *
 * Decides: GET /api/v4/projects/:id (as root, and anonymously on the same public project) against
 * a raw GetItem of that project's item. GET /api/v4/users/:id against a raw GetItem of the user
 * item is kept as information.
 */
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { groupNamespace } from '#store/projects/namespace-lookup.ts';
import { documentClient, tableName } from '#store/table/client.ts';
import { keys } from '#store/table/keys.ts';
import { type BudgetResult, lastJsonLine, median, round, runChild, table, tsxNodeArgs } from './common.ts';
import { type LatencySummary, summarize } from './latency.ts';
import { type BenchRuntime, ROOT_TOKEN } from './runtime.ts';
import { seedGroup, seedProject } from './seed.ts';

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

type Key = { pk: string; sk: string };

interface RawTarget {
  kind: 'raw';
  key: string;
  label: string;
  item: Key;
}
interface HttpTarget {
  kind: 'http';
  key: string;
  label: string;
  url: string;
  token?: string;
  /** The raw target it is compared with. */
  against: string;
  /** Decides B6 (the others are information). */
  verdict: boolean;
}
type Target = RawTarget | HttpTarget;

async function rawGetItem(item: Key, options: LoadShape, durationSec: number): Promise<LatencySummary> {
  const client = documentClient();
  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + durationSec * 1000;
  const worker = async () => {
    while (performance.now() < deadline && samples.length < options.maxRequests) {
      const t0 = performance.now();
      const result = await client.send(
        new GetCommand({ TableName: tableName(), Key: item, ConsistentRead: true }),
      );
      samples.push(performance.now() - t0);
      if (!result.Item) throw new Error(`${item.pk} not found by the raw GetItem`);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  return summarize(samples, performance.now() - started);
}

async function httpLoad(target: HttpTarget, options: LoadShape, durationSec: number): Promise<HttpSummary> {
  const child = await runChild(
    process.execPath,
    [
      ...tsxNodeArgs,
      join(import.meta.dirname, 'http-load.ts'),
      JSON.stringify({
        url: target.url,
        headers: target.token ? { 'PRIVATE-TOKEN': target.token } : {},
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

interface Profile {
  connections: number;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  maxRequests: number;
}

interface Figures {
  medianMs: number;
  p99Ms: number;
  perSecond: number;
  count: number;
}

interface ProfileResult {
  profile: Profile;
  rounds: Record<string, LatencySummary>[];
  figures: Record<string, Figures>;
  /** Per HTTP target: medians over rounds of (target ÷ its raw read) taken within each round. */
  ratios: Record<string, { median: number; p99: number }>;
  problems: string[];
}

async function measureProfile(profile: Profile, targets: Target[]): Promise<ProfileResult> {
  const measure = (target: Target, seconds: number) =>
    target.kind === 'raw' ? rawGetItem(target.item, profile, seconds) : httpLoad(target, profile, seconds);
  // Warm-up: JIT in both JVM and Node, keep-alive pools, DynamoDB Local's caches.
  if (profile.warmupSec > 0) for (const target of targets) await measure(target, profile.warmupSec);
  const rounds: Record<string, LatencySummary>[] = [];
  for (let r = 0; r < profile.rounds; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length] as Target);
    const result: Record<string, LatencySummary> = {};
    for (const target of order) result[target.key] = await measure(target, profile.durationSec);
    rounds.push(result);
  }
  const at = (r: Record<string, LatencySummary>, key: string) => r[key] as LatencySummary;
  const figures: Record<string, Figures> = {};
  for (const target of targets) {
    figures[target.key] = {
      medianMs: round(median(rounds.map((r) => at(r, target.key).medianMs)), 3),
      p99Ms: round(median(rounds.map((r) => at(r, target.key).p99Ms)), 3),
      perSecond: round(median(rounds.map((r) => at(r, target.key).perSecond)), 0),
      count: rounds.reduce((sum, r) => sum + at(r, target.key).count, 0),
    };
  }
  const ratios: ProfileResult['ratios'] = {};
  const problems: string[] = [];
  for (const target of targets) {
    if (target.kind !== 'http') continue;
    ratios[target.key] = {
      median: round(
        median(rounds.map((r) => at(r, target.key).medianMs / at(r, target.against).medianMs)),
        2,
      ),
      p99: round(median(rounds.map((r) => at(r, target.key).p99Ms / at(r, target.against).p99Ms)), 2),
    };
    for (const r of rounds) {
      const summary = r[target.key] as HttpSummary;
      if (summary.non2xx || summary.errors || summary.timeouts) {
        problems.push(
          `${target.label} at ${profile.connections} connection(s): ${summary.non2xx} non-2xx, ${summary.errors} errors, ${summary.timeouts} timeouts`,
        );
      }
    }
  }
  return { profile, rounds, figures, ratios, problems };
}

const withinBudget = (ratio: { median: number; p99: number }) =>
  ratio.median <= MEDIAN_RATIO_BUDGET && ratio.p99 <= P99_RATIO_BUDGET;

export async function runB6(
  bench: BenchRuntime,
  userId: number,
  options: { loaded: Profile; unloaded?: Profile },
): Promise<BudgetResult> {
  const started = performance.now();
  // A public project of its own, in a public group, created through the store.
  const stamp = Date.now().toString(36);
  const group = await seedGroup(`bench-b6-${stamp}`, 'public', userId);
  const project = await seedProject(groupNamespace(group), `latency-${stamp}`, 'public', userId);
  const api = bench.runtime.apiUrl;
  const targets: Target[] = [
    {
      kind: 'raw',
      key: 'rawProject',
      label: `raw GetItem PROJECT#${project.id}`,
      item: keys.project(project.id),
    },
    {
      kind: 'http',
      key: 'project',
      label: `GET /api/v4/projects/${project.id} (root)`,
      url: `${api}/projects/${project.id}`,
      token: ROOT_TOKEN,
      against: 'rawProject',
      verdict: true,
    },
    {
      kind: 'http',
      key: 'projectAnon',
      label: `GET /api/v4/projects/${project.id} (anonymous)`,
      url: `${api}/projects/${project.id}`,
      against: 'rawProject',
      verdict: true,
    },
    { kind: 'raw', key: 'rawUser', label: `raw GetItem USER#${userId}`, item: keys.user(userId) },
    {
      kind: 'http',
      key: 'userById',
      label: `GET /api/v4/users/${userId} (root)`,
      url: `${api}/users/${userId}`,
      token: ROOT_TOKEN,
      against: 'rawUser',
      verdict: false,
    },
  ];
  const loaded = await measureProfile(options.loaded, targets);
  const unloaded = options.unloaded ? await measureProfile(options.unloaded, targets) : undefined;

  const rows: (string | number)[][] = [
    ['target', 'conn', 'requests', 'req/s', 'median', 'p99', 'median ratio', 'p99 ratio', 'ok'],
  ];
  for (const result of [loaded, unloaded]) {
    if (!result) continue;
    for (const target of targets) {
      const f = result.figures[target.key] as Figures;
      const ratio = target.kind === 'http' ? result.ratios[target.key] : undefined;
      const decides = target.kind === 'http' && target.verdict && result === loaded;
      rows.push([
        target.label,
        result.profile.connections,
        f.count,
        f.perSecond,
        `${f.medianMs.toFixed(2)} ms`,
        `${f.p99Ms.toFixed(2)} ms`,
        ratio ? `${ratio.median.toFixed(2)}×` : '1',
        ratio ? `${ratio.p99.toFixed(2)}×` : '1',
        !ratio
          ? 'ref'
          : decides
            ? withinBudget(ratio)
              ? 'yes'
              : 'NO'
            : withinBudget(ratio)
              ? 'info'
              : 'info: over',
      ]);
    }
  }
  const deciding = targets.filter((target): target is HttpTarget => target.kind === 'http' && target.verdict);
  const decidingRatios = deciding.map((target) => ({
    target,
    ratio: loaded.ratios[target.key] ?? { median: NaN, p99: NaN },
  }));
  const problems = [...loaded.problems, ...(unloaded?.problems ?? [])];
  const holds = loaded.problems.length ? null : decidingRatios.every(({ ratio }) => withinBudget(ratio));
  const describe = (p: Profile) =>
    `${p.rounds} rounds of ${p.durationSec} s per target${p.warmupSec ? ` after ${p.warmupSec} s warm-up each` : ''}`;
  return {
    id: 'B6',
    title: `Latency of GET /projects/:id through the local gateway ≤ ${MEDIAN_RATIO_BUDGET}× (median) and ≤ ${P99_RATIO_BUDGET}× (p99) a raw GetItem of the same item`,
    holds,
    summary: `at ${options.loaded.connections} connections: ${decidingRatios
      .map(
        ({ target, ratio }) =>
          `${target.key === 'project' ? 'root' : 'anonymous'} median ${ratio.median}× p99 ${ratio.p99}×`,
      )
      .join('; ')} (GET /projects/:id vs raw GetItem)`,
    table: table(rows),
    notes: [
      `Verdict at ${options.loaded.connections} concurrent connections (HTTP: autocannon in a child process; raw: as many loops in the gateway's process), ${describe(options.loaded)}, order rotating; figures are medians over rounds, ratios taken within each round against the raw read of the same item.${
        options.unloaded
          ? ` The ${options.unloaded.connections}-connection rows (${describe(options.unloaded)}) show unloaded latency, information only.`
          : ''
      }`,
      "GET /projects/:id as root: the credential, the project and (once this container has seen that credential and project) root's memberships that decide access come in one BatchGetItem; the memberships are read again only when the guess missed. Anonymously it is one BatchGetItem of the project. At 10 connections DynamoDB Local is the bottleneck and latency is mostly queueing, so the ratio tracks the number of DynamoDB requests per call. LOG_LEVEL=silent.",
      `GET /users/:id (token GetItem + user GetItem) against a raw GetItem of the user item is information, kept from before the projects endpoints existed.`,
      ...problems.map((problem) => `PROBLEM ${problem}`),
    ],
    details: { project: project.id, targets, loaded, unloaded },
    seconds: (performance.now() - started) / 1000,
  };
}
