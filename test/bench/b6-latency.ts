/**
 * B6: latency through the local gateway against the raw DocumentClient read that serves the same
 * data, sent from this process (the one that runs the gateway and the handlers), side by side:
 * every round measures each raw read and each endpoint back to back, in a rotating order, at equal
 * concurrency. The HTTP load comes from autocannon in a child process so it does not share the
 * gateway's loop.
 *
 * Decides: GET /api/v4/projects/:id (as root, and anonymously on the same public project) against
 * a raw GetItem of that project's item, and GET /api/v4/projects/:id/issues (as root) against the
 * very Query the route sends for its page, captured from the route itself.
 */
import { join } from 'node:path';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { groupNamespace } from '#store/projects/namespace-lookup.ts';
import { documentClient, tableName } from '#store/table/client.ts';
import { keys } from '#store/table/keys.ts';
import { type BudgetResult, lastJsonLine, median, round, runChild, table, tsxNodeArgs } from './common.ts';
import { type LatencySummary, summarize } from './latency.ts';
import { type BenchRuntime, ROOT_TOKEN } from './runtime.ts';
import { seedGroup, seedProject } from './seed.ts';

export const MEDIAN_RATIO_BUDGET = 2.0;
export const P99_RATIO_BUDGET = 3;

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
  /** A GetItem of this item, or this Query as the route sends it. */
  item?: Key;
  query?: QueryCommandInput;
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

async function rawRead(target: RawTarget, options: LoadShape, durationSec: number): Promise<LatencySummary> {
  const client = documentClient();
  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + durationSec * 1000;
  const { item, query } = target;
  const once = async () => {
    if (query) {
      const result = await client.send(new QueryCommand(query));
      if (!result.Items?.length) throw new Error(`${target.label} found nothing`);
    } else if (item) {
      const result = await client.send(
        new GetCommand({ TableName: tableName(), Key: item, ConsistentRead: true }),
      );
      if (!result.Item) throw new Error(`${item.pk} not found by the raw GetItem`);
    }
  };
  const worker = async () => {
    while (performance.now() < deadline && samples.length < options.maxRequests) {
      const t0 = performance.now();
      await once();
      samples.push(performance.now() - t0);
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
    target.kind === 'raw' ? rawRead(target, profile, seconds) : httpLoad(target, profile, seconds);
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

/** Issues in the measured project: a full first page at the default per_page. */
const ISSUES = 20;

/** Issues made through the API as root, then the runtime idle (their stream and queue work done). */
async function seedIssues(bench: BenchRuntime, url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `Latency issue ${i + 1}`, description: 'An issue to list.' }),
      signal: AbortSignal.timeout(30_000),
    });
    if (response.status !== 201)
      throw new Error(`issue ${i + 1}: ${response.status} ${await response.text()}`);
  }
  await bench.runtime.idle({ timeoutMs: 60_000 });
}

const CAPTURE = 'b6-capture-query';

/**
 * The Query the issues route sends for its page, captured from the route itself (the
 * DocumentClient's input, before marshalling), and what else the request sends: the raw read is
 * that Query alone. Warm first, so the capture is a warm request's.
 */
async function captureListQuery(
  bench: BenchRuntime,
  url: string,
): Promise<{ query: QueryCommandInput; sends: string[] }> {
  const get = async () => {
    const response = await fetch(url, {
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN },
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as unknown[];
    if (response.status !== 200 || body.length !== ISSUES)
      throw new Error(`issues list: ${response.status}, ${body.length} issues`);
  };
  for (let i = 0; i < 3; i++) await get();
  const queries: QueryCommandInput[] = [];
  const stack = documentClient().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if ((context as { commandName?: string }).commandName === 'QueryCommand')
        queries.push(structuredClone((args as { input: QueryCommandInput }).input));
      return next(args);
    },
    { step: 'initialize', name: CAPTURE },
  );
  let sends: string[];
  try {
    const recorded = await bench.record(get);
    sends = recorded.sends.map((send) => `${send.command} ${send.target}`);
  } finally {
    stack.remove(CAPTURE);
  }
  const page = queries.find((query) => (query.Limit ?? 0) >= ISSUES) ?? queries[0];
  if (!page) throw new Error(`the issues route sent no Query (${sends.join(', ')})`);
  return { query: page, sends };
}

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
  const issuesUrl = `${api}/projects/${project.id}/issues`;
  await seedIssues(bench, `${api}/projects/${project.id}/issues`, ISSUES);
  const issues = await captureListQuery(bench, issuesUrl);
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
    {
      kind: 'raw',
      key: 'rawIssues',
      label: `raw Query of the issues page (${issues.sends.length} DynamoDB calls per request)`,
      query: issues.query,
    },
    {
      kind: 'http',
      key: 'issues',
      label: `GET /api/v4/projects/${project.id}/issues (root)`,
      url: issuesUrl,
      token: ROOT_TOKEN,
      against: 'rawIssues',
      verdict: true,
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
  const named: Record<string, string> = {
    project: 'projects/:id root',
    projectAnon: 'projects/:id anonymous',
    issues: 'projects/:id/issues root',
  };
  return {
    id: 'B6',
    title: `Latency through the local gateway ≤ ${MEDIAN_RATIO_BUDGET}× (median) and ≤ ${P99_RATIO_BUDGET}× (p99) the raw read that serves it: GET /projects/:id against a GetItem of the project, GET /projects/:id/issues against its page's Query`,
    holds,
    summary: `at ${options.loaded.connections} connections: ${decidingRatios
      .map(
        ({ target, ratio }) => `${named[target.key] ?? target.key} median ${ratio.median}× p99 ${ratio.p99}×`,
      )
      .join('; ')}`,
    table: table(rows),
    notes: [
      `Verdict at ${options.loaded.connections} concurrent connections (HTTP: autocannon in a child process; raw: as many loops in the gateway's process), ${describe(options.loaded)}, order rotating; figures are medians over rounds, ratios taken within each round against the raw read of the same data.${
        options.unloaded
          ? ` The ${options.unloaded.connections}-connection rows (${describe(options.unloaded)}) show unloaded latency, information only.`
          : ''
      }`,
      "GET /projects/:id as root: the credential, the project, its counters and (once this container has seen that credential and project) root's memberships that decide access come in one BatchGetItem; anonymously one BatchGetItem of the project and its counters. LOG_LEVEL=silent.",
      `GET /projects/:id/issues as root (${ISSUES} issues, the default page): a warm request sends, in the order they start, ${issues.sends.join(', ')}; the raw read is the page's Query alone, as the route sends it.`,
      ...problems.map((problem) => `PROBLEM ${problem}`),
    ],
    details: { project: project.id, issueSends: issues.sends, targets, loaded, unloaded },
    seconds: (performance.now() - started) / 1000,
  };
}
