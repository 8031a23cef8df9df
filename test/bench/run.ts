/**
 * `npm run bench`: the performance budgets of docs/performance.md that a benchmark decides (B1–B6, B8–B11).
 * Prints a short table per budget and a verdict list, writes .bench/results.json, and
 * exits 1 unless every measured budget holds and the whole run took at most 15 minutes.
 *
 * The machine is shared and noisy: verdicts rest on medians of repeated runs and on ratios taken
 * side by side in the same run; absolute times are printed as information only.
 *
 * Options: --only=B1,B4 (B2 implies B1) · --quick (fewer repetitions, for trying the harness out;
 * its verdicts are marked as such).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { config } from '#config/env.ts';
import { type BundleInfo, runB1 } from './b1-bundles.ts';
import { runInitAndColdStart } from './b2-init.ts';
import { runB3 } from './b3-middleware.ts';
import { runB4 } from './b4-requests.ts';
import { runB5 } from './b5-list-cost.ts';
import { runB6 } from './b6-latency.ts';
import { runB8 } from './b8-webhooks.ts';
import { runB9 } from './b9-contention.ts';
import { runB10 } from './b10-write-cost.ts';
import { type BudgetResult, benchDir, projectRoot, table } from './common.ts';
import { type BenchRuntime, startBenchRuntime } from './runtime.ts';

// Logging is read per call; the runtime would otherwise print one line per request.
process.env.LOG_LEVEL = 'silent';
// The SDK's notice that its 2027 releases need Node 22 says nothing about this run; other warnings stay.
const warningListeners = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (`${warning.name} ${warning.message}`.includes('NodeVersionSupportWarning')) return;
  for (const listener of warningListeners) listener(warning);
});

const SEED_USERS = 160;
/** The whole run's limit on a 2-core machine. */
const RUN_LIMIT_SEC = 15 * 60;
/** Seconds B2 + B11 aim to take: their share of the whole run's 15 minutes. */
const B2_B11_TARGET_SEC = 240;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg ? new Set(onlyArg.toUpperCase().split(',')) : undefined;
const wanted = (id: string) => !only || only.has(id) || (id === 'B1' && (only.has('B2') || only.has('B11')));

const startedAt = new Date();
const t0 = performance.now();
const results: BudgetResult[] = [];
const out = (line = '') => process.stdout.write(`${line}\n`);

function failed(id: string, title: string, error: unknown, since: number): BudgetResult {
  return {
    id,
    title,
    holds: null,
    summary: 'not measured: the benchmark itself failed',
    table: [],
    notes: [],
    details: null,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    seconds: (performance.now() - since) / 1000,
  };
}

async function phase<T extends BudgetResult>(
  id: string,
  title: string,
  run: () => Promise<T>,
): Promise<T | undefined> {
  const since = performance.now();
  out(`… ${id} ${title}`);
  try {
    const result = await run();
    results.push(result);
    print(result);
    return result;
  } catch (error) {
    const result = failed(id, title, error, since);
    results.push(result);
    print(result);
    return undefined;
  }
}

/**
 * Starts a phase that runs beside the others; the function returned waits for it (once) and
 * reports it.
 */
function inBackground(id: string, title: string, run: () => Promise<BudgetResult>): () => Promise<void> {
  const since = performance.now();
  let running: Promise<BudgetResult> | undefined = run().catch((error: unknown) =>
    failed(id, title, error, since),
  );
  return async () => {
    if (!running) return;
    const ending = running;
    running = undefined;
    out(`… waiting for ${id} to end`);
    const result = await ending;
    results.push(result);
    print(result);
  };
}
/** A background phase that was not started: nothing to wait for. */
async function noPhase(): Promise<void> {}

const verdict = (result: BudgetResult) =>
  result.holds === null ? 'UNKNOWN' : result.holds ? 'HOLDS' : 'FAILS';

function print(result: BudgetResult): void {
  out();
  out(`${result.id} — ${result.title}`);
  for (const line of result.table) out(`  ${line}`);
  for (const note of result.notes) out(`  · ${note}`);
  if (result.error) out(`  ! ${result.error.split('\n').slice(0, 6).join('\n    ')}`);
  out(
    `  => ${result.id} ${verdict(result)}${quick ? ' (quick run)' : ''}: ${result.summary} [${result.seconds.toFixed(1)} s]`,
  );
  out();
}

out(
  `npm run bench — node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}${quick ? ', QUICK' : ''}`,
);

let bundles: BundleInfo[] | undefined;
/** DynamoDB commands the shared runtime sent, by name (B5 adds its own process's to prove no Scan). */
let runtimeCommandCounts: Record<string, number> | undefined;
/**
 * B5 counts read capacity and items, it times nothing: its child grows a table of its own while the
 * phases that count rather than time run beside it (B1's build, B4's requests, B10's capacity), and
 * so do the phases deciding on their own processes' CPU time (B3, B2 + B11); the phases timing
 * wall-clock latency (B6, B8, B9) wait for it to end.
 */
let b5Done = noPhase;
/** The shared runtime while it runs: B5 reads its DynamoDB command counts when it ends (no Scan). */
let liveRuntime: BenchRuntime | undefined;
if (wanted('B5')) {
  out('… B5 list cost vs table size: started, beside B1, B4 and B10');
  b5Done = inBackground('B5', 'list cost vs table size', () =>
    runB5(
      quick
        ? { small: 1000, large: 20_000, seedDeadlineSec: 60, repetitions: 1, perPage: 20, pages: [1, 5, 10] }
        : {
            small: 1000,
            large: 100_000,
            // Seconds of growth: it stops at the large size or here, whichever comes first.
            seedDeadlineSec: 300,
            repetitions: 3,
            perPage: 20,
            pages: [1, 5, 10],
          },
      {
        get commandCounts() {
          return liveRuntime?.commandCounts() ?? runtimeCommandCounts;
        },
        // The small size (≈ 50–120 s), the growth's deadline, then the list counters, the streams'
        // catch-up and the measurements (≈ 60–130 s seen on a loaded 2-core machine).
        timeoutSec: 800,
      },
    ),
  );
}
/**
 * B2 and B11 come from the same fresh processes: one phase, two verdicts (once). They measure CPU
 * time of their own processes against references interleaved with them, on engines of their own,
 * so they may run while B5 and B3 count and time CPU in the background; the phases that time wall
 * latency (B6, B8, B9) wait for all of them.
 */
let coldStartRan = false;
async function coldStartPhase(): Promise<void> {
  if (coldStartRan || !(wanted('B2') || wanted('B11'))) return;
  coldStartRan = true;
  const since = performance.now();
  out('… B2 + B11 module init and cold start in fresh processes');
  try {
    if (!bundles) throw new Error('B1 produced no bundles');
    const { b2, b11 } = await runInitAndColdStart(
      bundles,
      quick
        ? { minSamples: 3, maxSamples: 5, parallel: 2, targetSec: 90, confidence: 0.9, progress: out }
        : {
            minSamples: 4,
            maxSamples: 15,
            parallel: 2,
            targetSec: B2_B11_TARGET_SEC,
            confidence: 0.9,
            progress: out,
          },
    );
    for (const result of [b2, b11]) {
      if (!wanted(result.id)) continue;
      results.push(result);
      print(result);
    }
  } catch (error) {
    for (const [id, title] of [
      ['B2', 'module init in fresh processes'],
      ['B11', 'cold start in fresh processes'],
    ] as const) {
      if (!wanted(id)) continue;
      const result = failed(id, title, error, since);
      results.push(result);
      print(result);
    }
  }
}

if (wanted('B1')) {
  await phase('B1', 'bundles', async () => {
    const built = await runB1();
    bundles = built.bundles;
    return built.result;
  });
}
// B3 decides on CPU time per call in a child process, the two chains in interleaved rounds, so
// other work beside it moves both alike: it runs beside B4 and B10, after B1's build.
let b3Done = noPhase;
if (wanted('B3')) {
  out('… B3 warm middleware overhead: started, beside B4 and B10');
  b3Done = inBackground('B3', 'warm middleware overhead', () =>
    runB3(quick ? { perRound: 4_000, rounds: 3 } : { perRound: 10_000, rounds: 10 }),
  );
}
// B4, B6, B8, B9 and B10 share one runtime: the store's DocumentClient is made once per process.
// The counting phases (B4, B10) first, beside B5 and B3; the timed ones (B6, B8, B9) after them.
if (wanted('B4') || wanted('B6') || wanted('B8') || wanted('B9') || wanted('B10')) {
  let bench: BenchRuntime | undefined;
  try {
    const seedUsers = wanted('B4') || wanted('B6');
    out(
      `… starting the local runtime (DynamoDB Local in memory, s3rver, gateway, table stream, queues)${seedUsers ? ' and seeding users' : ''}`,
    );
    const since = performance.now();
    const runtime = await startBenchRuntime();
    bench = runtime;
    liveRuntime = runtime;
    const seeding = await runtime.record(() => runtime.seedUsers(seedUsers ? SEED_USERS : 0));
    const users = seeding.value;
    const seedReservations = seeding.sends.filter((send) => send.idReservation).length;
    out(
      `  runtime at ${runtime.runtime.url}${seedUsers ? `, ${SEED_USERS} users seeded` : ''} in ${((performance.now() - since) / 1000).toFixed(1)} s`,
    );
    const root = await fetch(`${runtime.runtime.apiUrl}/user`, {
      headers: { 'PRIVATE-TOKEN': runtime.runtime.rootToken },
      signal: AbortSignal.timeout(30_000),
    }).then((response) => response.json() as Promise<{ id: number }>);
    if (wanted('B4'))
      await phase('B4', 'DynamoDB requests per API call', () =>
        runB4(runtime, users, {
          idBlockSize: config.idBlockSize,
          seedCreations: SEED_USERS,
          seedReservations,
          rootId: root.id,
        }),
      );
    if (wanted('B10')) {
      await phase('B10', 'write cost per request', () =>
        // Units are counted, not timed: three repetitions gave the same on every route.
        runB10(runtime, { repetitions: 1, idBlockSize: config.idBlockSize }),
      );
    }
    // The timed phases run with B5's growth over.
    await coldStartPhase();
    await b5Done();
    await b3Done();
    if (wanted('B6')) {
      await phase('B6', 'latency through the local gateway', () =>
        runB6(
          runtime,
          root.id,
          quick
            ? { loaded: { connections: 10, durationSec: 1.5, warmupSec: 1, rounds: 2, maxRequests: 50_000 } }
            : {
                loaded: { connections: 10, durationSec: 2, warmupSec: 1.5, rounds: 5, maxRequests: 200_000 },
              },
        ),
      );
    }
    if (wanted('B8')) {
      await phase('B8', 'webhook delivery through the local runtime', () =>
        runB8(
          runtime,
          quick
            ? { notes: 30, burst: 30, hooks: 3, warmup: 3, timeoutSec: 60, graceMs: 1000 }
            : { notes: 100, burst: 100, hooks: 3, warmup: 5, timeoutSec: 120, graceMs: 2000 },
        ),
      );
    }
    if (wanted('B9')) {
      await phase('B9', 'contention on one parent', () =>
        runB9(
          runtime,
          quick
            ? { single: 12, writers: 30, perWriter: 2, idleTimeoutSec: 120 }
            : { single: 40, writers: 30, perWriter: 4, idleTimeoutSec: 180 },
        ),
      );
    }
  } catch (error) {
    for (const [id, title] of [
      ['B4', 'DynamoDB requests per API call'],
      ['B6', 'latency through the local gateway'],
      ['B8', 'webhook delivery through the local runtime'],
      ['B9', 'contention on one parent'],
      ['B10', 'write cost per request'],
    ] as const) {
      if (wanted(id) && !results.some((result) => result.id === id)) {
        const result = failed(id, title, error, performance.now());
        results.push(result);
        print(result);
      }
    }
  } finally {
    runtimeCommandCounts = bench?.commandCounts();
    liveRuntime = undefined;
    await bench?.stop().catch(() => undefined);
  }
}
await b5Done();
await b3Done();
// B5's no-Scan rule covers the whole shared runtime, whose timed phases ran after B5 read its counts.
const runtimeScans = runtimeCommandCounts?.ScanCommand ?? 0;
const listCost = results.find((result) => result.id === 'B5');
if (listCost && runtimeScans > 0) {
  listCost.holds = false;
  listCost.summary += `; the shared runtime sent ${runtimeScans} Scan in all`;
  out(`B5 FAILS after all: the shared runtime (B4–B10) sent ${runtimeScans} Scan in all.`);
}
await coldStartPhase();
await b3Done();
const notMeasured = [
  { id: 'B7', why: 'body and message limits are decided by tests, not by this benchmark' },
];
const seconds = (performance.now() - t0) / 1000;
mkdirSync(benchDir, { recursive: true });
const file = join(benchDir, 'results.json');
writeFileSync(
  file,
  `${JSON.stringify(
    {
      generatedAt: startedAt.toISOString(),
      quick,
      seconds: Math.round(seconds),
      machine: {
        node: process.version,
        platform: process.platform,
        arch: process.arch,
        cores: cpus().length,
        cpu: cpus()[0]?.model,
        memoryBytes: totalmem(),
        loadAverageAtEnd: loadavg(),
      },
      limitSeconds: RUN_LIMIT_SEC,
      withinLimit: seconds <= RUN_LIMIT_SEC,
      allHold: results.every((result) => result.holds === true),
      budgets: results.map((result) => ({ ...result, verdict: verdict(result) })),
      notMeasured,
    },
    null,
    2,
  )}\n`,
);

out('Budgets');
for (const line of table([
  ['budget', 'verdict', 'figure'],
  ...results.map((result) => [result.id, verdict(result), result.summary]),
  ...notMeasured.map((entry) => [entry.id, 'n/a', entry.why]),
]))
  out(`  ${line}`);
const holding = results.filter((result) => result.holds === true).map((result) => result.id);
const failing = results.filter((result) => result.holds === false).map((result) => result.id);
const unknown = results.filter((result) => result.holds === null).map((result) => result.id);
out();
out(
  `Hold: ${holding.join(', ') || 'none'}. Fail: ${failing.join(', ') || 'none'}.${unknown.length ? ` Unknown: ${unknown.join(', ')}.` : ''}`,
);
out(`Results: ${relative(projectRoot, file)} (${seconds.toFixed(0)} s${quick ? ', quick run' : ''}).`);
out(
  `Phases: ${results.map((result) => `${result.id} ${result.seconds.toFixed(0)} s`).join(', ')}; total ${seconds.toFixed(0)} s of ${RUN_LIMIT_SEC} s.`,
);
const overTime = seconds > RUN_LIMIT_SEC;
if (overTime)
  out(
    `FAILED: the run took ${(seconds / 60).toFixed(1)} minutes, over the ${RUN_LIMIT_SEC / 60} minutes the whole benchmark may take.`,
  );
process.exitCode = failing.length || unknown.length || overTime ? 1 : 0;
