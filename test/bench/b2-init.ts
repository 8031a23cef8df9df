/**
 * B2 (module init) and B11 (cold start), from the same fresh processes: each probe imports a bundle
 * (B2: CPU time of the import; the preload records any socket opened meanwhile) and then serves the
 * function's first request against DynamoDB Local and s3rver (B11: CPU time from the import's start
 * to the first answer). Each figure is compared with that of the reference holding the same SDK
 * clients, probed alike in the same run.
 *
 * Deciding every bundle in bounded time: bundles are decided one after another; the reference's
 * probes are interleaved with the bundle's, and each bundle is compared with the reference's samples
 * nearest in time, so the machine's drift hits both sides. After each batch the ratio's 90%
 * bootstrap interval is computed (ratio of medians, both sides resampled); the bundle stops early
 * once both intervals (B2's and B11's) lie wholly on one side of their budgets, and otherwise at a
 * cap, where its medians decide. The cap shrinks when the phase's time is running out, never below
 * the minimum; the decided-how column says which happened.
 */
import { join } from 'node:path';
import type { BundleInfo } from './b1-bundles.ts';
import { prepareColdStartGround } from './b11-cold-start.ts';
import { type BudgetResult, lastJsonLine, median, percentile, round, runChild, table } from './common.ts';

export const INIT_RATIO_BUDGET = 1.3;
export const COLD_START_RATIO_BUDGET = 1.5;

interface ProbeOutput {
  importMs: number;
  importCpuMs: number;
  bootMs: number;
  hasHandler: boolean;
  sockets: { call: string; stack: string }[] | null;
  cold: {
    cpuMs: number;
    ms: number;
    invokeMs: number;
    status: number | null;
    failures: number | null;
    error: string | null;
  } | null;
}

interface Sample {
  /** Order of the sample in the run: "nearest in time" is nearest in this order. */
  seq: number;
  importCpuMs: number;
  importMs: number;
  coldCpuMs: number;
  coldMs: number;
}

interface Entry {
  bundle: BundleInfo;
  samples: Sample[];
  hasHandler: boolean;
  sockets: { call: string; stack: string }[];
  failures: string[];
  /** The first answers' status codes (or `batchItemFailures: n`), with how often each came. */
  answers: Map<string, number>;
  errors: string[];
}

export interface SequentialOptions {
  /** Samples every bundle gets before it may stop early. */
  minSamples: number;
  /** Samples after which a bundle is decided by its medians. */
  maxSamples: number;
  /** Probes run at once. */
  parallel: number;
  /** Seconds the phase aims to end within: past its share, a bundle's cap drops towards the minimum. */
  targetSec: number;
  /** The interval's confidence (0.9 = 5th to 95th percentile). */
  confidence: number;
  /** Told of progress now and then (a line for the console). */
  progress?: (line: string) => void;
}

interface Comparison {
  ratio: number;
  low: number;
  high: number;
}

interface Verdict {
  name: string;
  reference: string;
  samples: number;
  referenceSamples: number;
  decided: 'early' | 'cap' | 'reference';
  init: Comparison & { cpuMs: number; wallMs: number; wallRatio: number; withinBudget: boolean };
  cold: Comparison & { cpuMs: number; wallMs: number; wallRatio: number; withinBudget: boolean };
  firstRequest: string;
  answers: Record<string, number>;
  sockets: { call: string; stack: string }[];
  failures: string[];
  errors: string[];
  hasHandler: boolean;
}

const probeDir = join(import.meta.dirname, 'probe');

async function probe(
  file: string,
  eventFile: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<ProbeOutput> {
  const child = await runChild(
    process.execPath,
    [
      '--import',
      join(probeDir, 'no-socket.mjs'),
      join(probeDir, 'import-probe.mjs'),
      file,
      ...(eventFile ? [eventFile] : []),
    ],
    { env, timeoutMs: 60_000, background: true },
  );
  if (child.code !== 0) throw new Error(`exit ${child.code}: ${child.stderr.trim().slice(-400)}`);
  return lastJsonLine<ProbeOutput>(child.stdout);
}

/** A small deterministic generator: the intervals repeat for the same samples. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function resampledMedian(values: readonly number[], next: () => number): number {
  const drawn = values.map(() => values[Math.floor(next() * values.length)] as number);
  return median(drawn);
}

/**
 * The ratio of medians (bundle over reference) and its percentile-bootstrap interval: both sides
 * resampled independently, 1,000 times.
 */
export function ratioInterval(
  bundle: readonly number[],
  reference: readonly number[],
  confidence: number,
): Comparison {
  const ratio = median(bundle) / median(reference);
  if (bundle.length < 2 || reference.length < 2) return { ratio, low: Number.NaN, high: Number.NaN };
  const next = random(bundle.length * 7919 + reference.length * 104729);
  const ratios: number[] = [];
  for (let i = 0; i < 1000; i++)
    ratios.push(resampledMedian(bundle, next) / resampledMedian(reference, next));
  const tail = ((1 - confidence) / 2) * 100;
  return { ratio, low: percentile(ratios, tail), high: percentile(ratios, 100 - tail) };
}

/** The reference's samples nearest in time to a bundle's: those taken during it, at least `least`. */
function nearestReferenceSamples(
  reference: readonly Sample[],
  samples: readonly Sample[],
  least: number,
): Sample[] {
  if (samples.length === 0) return [];
  const first = Math.min(...samples.map((sample) => sample.seq));
  const last = Math.max(...samples.map((sample) => sample.seq));
  const during = reference.filter((sample) => sample.seq >= first && sample.seq <= last);
  if (during.length >= least) return during;
  const middle = (first + last) / 2;
  return [...reference].sort((a, b) => Math.abs(a.seq - middle) - Math.abs(b.seq - middle)).slice(0, least);
}

const clearOf = (comparison: Comparison, budget: number) =>
  comparison.high <= budget || comparison.low > budget;

/** References first (each probed enough to start), then the functions grouped by reference. */
function order(bundles: readonly BundleInfo[]): BundleInfo[] {
  const references = bundles.filter((bundle) => bundle.kind === 'reference');
  const functions = bundles.filter((bundle) => bundle.kind !== 'reference');
  return [
    ...references,
    ...references.flatMap((reference) => functions.filter((bundle) => bundle.reference === reference.name)),
  ];
}

export async function runInitAndColdStart(
  bundles: BundleInfo[],
  options: SequentialOptions,
): Promise<{ b2: BudgetResult; b11: BudgetResult }> {
  const started = performance.now();
  const references = bundles.filter((bundle) => bundle.kind === 'reference');
  const candidates = bundles.filter((bundle) => bundle.kind !== 'reference');
  for (const bundle of candidates) {
    if (!references.some((reference) => reference.name === bundle.reference))
      throw new Error(`no reference bundle ${bundle.reference} for ${bundle.name}`);
  }
  const ground = await prepareColdStartGround(bundles);
  const entries = new Map<string, Entry>(
    bundles.map((bundle) => [
      bundle.name,
      { bundle, samples: [], hasHandler: true, sockets: [], failures: [], answers: new Map(), errors: [] },
    ]),
  );
  const entryOf = (name: string) => entries.get(name) as Entry;
  let seq = 0;
  let probes = 0;
  const decidedHow = new Map<string, 'early' | 'cap'>();
  /** The probe count when each bundle was decided: its report uses the reference samples it was decided on. */
  const decidedAt = new Map<string, number>();
  const referenceLeast = Math.max(options.minSamples, 7);

  const sample = async (bundle: BundleInfo) => {
    const entry = entryOf(bundle.name);
    const at = seq++;
    probes++;
    try {
      const output = await probe(bundle.file, ground.eventFiles.get(bundle.name), ground.env);
      entry.hasHandler &&= output.hasHandler;
      for (const socket of output.sockets ?? []) if (entry.sockets.length < 5) entry.sockets.push(socket);
      if (output.sockets === null) entry.failures.push('socket preload did not run');
      const cold = output.cold;
      if (!cold) {
        entry.failures.push('the handler was not invoked');
        return;
      }
      const answer = cold.error
        ? 'threw'
        : cold.status !== null
          ? String(cold.status)
          : `failures:${cold.failures}`;
      entry.answers.set(answer, (entry.answers.get(answer) ?? 0) + 1);
      if (cold.error && entry.errors.length < 2) entry.errors.push(cold.error);
      entry.samples.push({
        seq: at,
        importCpuMs: output.importCpuMs,
        importMs: output.importMs,
        coldCpuMs: cold.cpuMs,
        coldMs: cold.ms,
      });
    } catch (error) {
      entry.failures.push(error instanceof Error ? error.message : String(error));
    }
  };

  const compare = (entry: Entry) => {
    const until = decidedAt.get(entry.bundle.name) ?? Number.POSITIVE_INFINITY;
    const reference = entryOf(entry.bundle.reference).samples.filter((sample) => sample.seq < until);
    const near = nearestReferenceSamples(reference, entry.samples, referenceLeast);
    const pick = (key: keyof Omit<Sample, 'seq'>) => [
      entry.samples.map((sample) => sample[key]),
      near.map((sample) => sample[key]),
    ];
    const [initBundle = [], initReference = []] = pick('importCpuMs');
    const [coldBundle = [], coldReference = []] = pick('coldCpuMs');
    return {
      near,
      init: ratioInterval(initBundle, initReference, options.confidence),
      cold: ratioInterval(coldBundle, coldReference, options.confidence),
    };
  };

  try {
    // One untimed probe per reference: node and the engines' first connections warm.
    for (const reference of references)
      await probe(reference.file, ground.eventFiles.get(reference.name), ground.env).catch(() => undefined);
    const ordered = order(bundles);
    const functionCount = candidates.length;
    let functionsDone = 0;
    for (const bundle of ordered) {
      const entry = entryOf(bundle.name);
      if (bundle.kind === 'reference') {
        // Enough reference samples for the first functions' comparisons; more come interleaved.
        while (entry.samples.length < referenceLeast && entry.failures.length < 3) {
          await Promise.all(Array.from({ length: options.parallel }, () => sample(bundle)));
        }
        continue;
      }
      const reference = references.find((candidate) => candidate.name === bundle.reference) as BundleInfo;
      // The cap this bundle may use: the phase's remaining time shared by the remaining functions,
      // at the seconds a probe has taken so far (reference probes included).
      const elapsed = (performance.now() - started) / 1000;
      const perProbe = probes ? elapsed / probes : 0.3;
      const remaining = Math.max(0, options.targetSec - elapsed);
      const perBundleProbes =
        (remaining / Math.max(1, functionCount - functionsDone) / perProbe) * options.parallel;
      // Three function probes for each reference probe.
      const cap = Math.max(
        options.minSamples,
        Math.min(options.maxSamples, Math.floor((perBundleProbes * 3) / 4)),
      );
      let batch = 0;
      for (;;) {
        // Batches alternate: with two at once, [function, reference] then [function, function].
        const withReference = batch % 2 === 0;
        const tasks = Array.from({ length: options.parallel }, (_, i) =>
          withReference && i === options.parallel - 1 ? reference : bundle,
        );
        if (options.parallel === 1 && batch % 3 === 2) tasks[0] = reference;
        batch++;
        await Promise.all(tasks.map((task) => sample(task)));
        if (entry.failures.length >= 3) {
          decidedHow.set(bundle.name, 'cap');
          decidedAt.set(bundle.name, seq);
          break;
        }
        const n = entry.samples.length;
        if (n < options.minSamples) continue;
        const { init, cold } = compare(entry);
        if (clearOf(init, INIT_RATIO_BUDGET) && clearOf(cold, COLD_START_RATIO_BUDGET)) {
          decidedHow.set(bundle.name, 'early');
          decidedAt.set(bundle.name, seq);
          break;
        }
        if (n >= cap) {
          decidedHow.set(bundle.name, 'cap');
          decidedAt.set(bundle.name, seq);
          break;
        }
      }
      functionsDone++;
      if (functionsDone % 25 === 0 || functionsDone === functionCount)
        options.progress?.(
          `  ${functionsDone} of ${functionCount} functions decided, ${probes} probes, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
    }
  } finally {
    await ground.stop();
  }

  const verdicts: Verdict[] = order(bundles).map((bundle) => {
    const entry = entryOf(bundle.name);
    const isReference = bundle.kind === 'reference';
    const { near, init, cold } = compare(entry);
    const wall = (key: 'importMs' | 'coldMs', from: readonly Sample[]) =>
      median(from.map((sample) => sample[key]));
    /** One row's figure: B2's from the import, B11's from import to first answer. */
    const figure = (
      comparison: Comparison,
      cpu: 'importCpuMs' | 'coldCpuMs',
      wallKey: 'importMs' | 'coldMs',
      budget: number,
    ) => ({
      ...comparison,
      cpuMs: median(entry.samples.map((sample) => sample[cpu])),
      wallMs: wall(wallKey, entry.samples),
      wallRatio: wall(wallKey, entry.samples) / wall(wallKey, near),
      withinBudget: isReference || comparison.ratio <= budget,
    });
    return {
      name: bundle.name,
      reference: bundle.reference,
      samples: entry.samples.length,
      referenceSamples: isReference ? entry.samples.length : near.length,
      decided: isReference ? 'reference' : (decidedHow.get(bundle.name) ?? 'cap'),
      init: figure(init, 'importCpuMs', 'importMs', INIT_RATIO_BUDGET),
      cold: figure(cold, 'coldCpuMs', 'coldMs', COLD_START_RATIO_BUDGET),
      firstRequest: ground.firstRequests.get(bundle.name) ?? '-',
      answers: Object.fromEntries(entry.answers),
      sockets: entry.sockets,
      failures: entry.failures.slice(0, 3),
      errors: entry.errors,
      hasHandler: entry.hasHandler,
    };
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    b2: report('B2', verdicts, bundles, options, seconds, probes),
    b11: report('B11', verdicts, bundles, options, seconds, probes),
  };
}

const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '-');
const interval = (comparison: Comparison) =>
  Number.isFinite(comparison.low) ? `${comparison.low.toFixed(2)}–${comparison.high.toFixed(2)}` : '-';

function report(
  id: 'B2' | 'B11',
  verdicts: readonly Verdict[],
  bundles: readonly BundleInfo[],
  options: SequentialOptions,
  seconds: number,
  probes: number,
): BudgetResult {
  const isInit = id === 'B2';
  const budget = isInit ? INIT_RATIO_BUDGET : COLD_START_RATIO_BUDGET;
  const figure = (verdict: Verdict) => (isInit ? verdict.init : verdict.cold);
  const byName = new Map(bundles.map((bundle) => [bundle.name, bundle]));
  const rows: (string | number)[][] = [
    [
      'bundle',
      'compared with',
      'size',
      'samples',
      isInit ? 'import CPU' : 'to 1st answer CPU',
      'ratio',
      `${Math.round(options.confidence * 100)}% interval`,
      'decided',
      'ok',
      'wall',
      'wall ratio',
      isInit ? 'sockets' : 'first request → answer',
    ],
  ];
  for (const verdict of verdicts) {
    const bundle = byName.get(verdict.name);
    const isReference = verdict.decided === 'reference';
    const own = figure(verdict);
    rows.push([
      verdict.name,
      isReference ? '-' : verdict.reference,
      bundle ? `${(bundle.bytes / 1000).toFixed(0)} kB` : '-',
      isReference ? verdict.samples : `${verdict.samples}+${verdict.referenceSamples}`,
      `${own.cpuMs.toFixed(1)} ms`,
      isReference ? '-' : times(own.ratio),
      isReference ? '-' : interval(own),
      verdict.decided,
      isReference ? 'ref' : own.withinBudget ? 'yes' : 'NO',
      `${own.wallMs.toFixed(1)} ms`,
      isReference ? '-' : times(own.wallRatio),
      isInit
        ? verdict.sockets.length
          ? verdict.sockets.map((socket) => socket.call).join(',')
          : 'none'
        : `${verdict.firstRequest} → ${Object.keys(verdict.answers).join('/') || '-'}`,
    ]);
  }
  const functions = verdicts.filter((verdict) => verdict.decided !== 'reference');
  const over = functions.filter((verdict) => !figure(verdict).withinBudget);
  const socketOpeners = isInit ? verdicts.filter((verdict) => verdict.sockets.length > 0) : [];
  const broken = verdicts.filter(
    (verdict) =>
      verdict.failures.length > 0 ||
      !verdict.hasHandler ||
      verdict.samples < options.minSamples ||
      (!isInit && (verdict.errors.length > 0 || 'threw' in verdict.answers)),
  );
  const early = functions.filter((verdict) => verdict.decided === 'early').length;
  const worst = [...functions].sort((a, b) => figure(b).ratio - figure(a).ratio)[0];
  const ratios = functions.map((verdict) => figure(verdict).ratio);
  const base = verdicts.find((verdict) => verdict.name === 'reference');
  const notes = [
    isInit
      ? `Import CPU time is taken inside each fresh process around \`await import(bundle)\` (node ${process.version}): user + system of all its threads, which other processes on a shared machine barely change, unlike wall time (information only). The same process then serves B11's first request.`
      : `CPU time of each fresh process from the import's start to the handler's first answer (user + system, all threads), against DynamoDB Local and s3rver with the environment sam local gives; each reference serves a GetItem. Wall time is information only.`,
    `Decided one bundle after another, with the reference's probes interleaved (one for every three of the bundle's with two probes at once) and each bundle compared with the ${Math.max(options.minSamples, 7)}+ reference samples nearest in time. Ratio = median over the reference's median; interval = ${Math.round(options.confidence * 100)}% bootstrap interval of that ratio. "early": both B2's and B11's intervals lay wholly on one side of their budgets after at least ${options.minSamples} samples; "cap": not, by ${options.maxSamples} samples (fewer when the phase's ${options.targetSec} s target ran short), and the medians decided.`,
    `${functions.length} functions and ${verdicts.length - functions.length} references; ${early} decided early, ${functions.length - early} at the cap; ${probes} probes, ${options.parallel} at once, in ${seconds.toFixed(0)} s (shared with ${isInit ? 'B11' : 'B2'}). Median ratio ${times(median(ratios))}.`,
  ];
  for (const verdict of socketOpeners) {
    notes.push(
      `FINDING ${verdict.name}: import opened a socket: ${verdict.sockets[0]?.call} at ${verdict.sockets[0]?.stack}`,
    );
  }
  for (const verdict of broken) {
    notes.push(
      `PROBLEM ${verdict.name}: ${verdict.hasHandler ? '' : 'no exported handler; '}${[
        ...verdict.failures,
        ...(isInit ? [] : verdict.errors),
      ]
        .slice(0, 2)
        .join('; ')}${verdict.samples < options.minSamples ? ` (${verdict.samples} samples)` : ''}`,
    );
  }
  const holds = over.length === 0 && socketOpeners.length === 0 && broken.length === 0;
  return {
    id,
    title: isInit
      ? `Module init: median import ≤ ${budget}× that of the reference with the same SDK clients; import opens no socket`
      : `Cold start: import and first request ≤ ${budget}× the reference's with the same SDK clients`,
    holds,
    summary: `reference ${base ? figure(base).cpuMs.toFixed(1) : '-'} ms CPU; median ${times(median(ratios))}, worst ${
      worst ? `${worst.name} ${times(figure(worst).ratio)}` : '-'
    }; ${over.length} over ${budget}×${isInit ? `; ${socketOpeners.length} opened a socket` : ''}${
      broken.length ? `; ${broken.length} not served` : ''
    }; ${early} of ${functions.length} decided early`,
    table: table(rows),
    notes,
    details: {
      options,
      probes,
      verdicts: verdicts.map((verdict) => ({
        ...verdict,
        init: roundComparison(verdict.init),
        cold: roundComparison(verdict.cold),
      })),
    },
    seconds,
  };
}

function roundComparison<T extends Comparison & { cpuMs: number; wallMs: number; wallRatio: number }>(
  value: T,
): T {
  return {
    ...value,
    ratio: round(value.ratio, 3),
    low: round(value.low, 3),
    high: round(value.high, 3),
    cpuMs: round(value.cpuMs, 2),
    wallMs: round(value.wallMs, 2),
    wallRatio: round(value.wallRatio, 3),
  };
}
