/**
 * B2: module init. Every bundle is imported in fresh Node processes (round-robin over the bundles so
 * machine noise hits all of them alike); its median import time is compared with that of the
 * reference holding the same SDK clients (DynamoDB alone, or with S3 and/or SQS), from the same run. Import time is taken as the process's CPU time around the import
 * (wall time too, for information): on a shared machine other processes inflate wall time far more
 * than the 30% the budget allows. A preload records any socket opened or name resolved during import.
 */
import { join } from 'node:path';
import type { BundleInfo } from './b1-bundles.ts';
import { type BudgetResult, lastJsonLine, median, round, runChild, table } from './common.ts';

export const INIT_RATIO_BUDGET = 1.3;

interface ProbeOutput {
  importMs: number;
  importCpuMs: number;
  bootMs: number;
  hasHandler: boolean;
  sockets: { call: string; stack: string }[] | null;
}

interface BundleTiming {
  name: string;
  /** CPU time of the import (user + system, all threads of the fresh process), ms. */
  cpuSamples: number[];
  /** Wall time of the import, ms. */
  samples: number[];
  bootSamples: number[];
  medianCpuMs: number;
  medianMs: number;
  /** The reference it is compared with. */
  reference: string;
  /** Median CPU time over its reference's: the verdict. */
  ratio: number;
  /** Median wall time over the reference's: information (other processes inflate it). */
  wallRatio: number;
  withinBudget: boolean;
  hasHandler: boolean;
  sockets: { call: string; stack: string }[];
  failures: string[];
}

const probeDir = join(import.meta.dirname, 'probe');

/** A Lambda-like environment: no loader flags, no local endpoints, a region. */
function probeEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'gitlab-api',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
  };
  return env;
}

async function probe(file: string): Promise<ProbeOutput> {
  const child = await runChild(
    process.execPath,
    ['--import', join(probeDir, 'no-socket.mjs'), join(probeDir, 'import-probe.mjs'), file],
    { env: probeEnv(), timeoutMs: 30_000 },
  );
  if (child.code !== 0) throw new Error(`exit ${child.code}: ${child.stderr.trim().slice(-400)}`);
  return lastJsonLine<ProbeOutput>(child.stdout);
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

export async function runB2(bundles: BundleInfo[], runs: number, deadlineMs: number): Promise<BudgetResult> {
  const started = performance.now();
  const references = bundles.filter((bundle) => bundle.kind === 'reference');
  const candidates = bundles.filter((bundle) => bundle.kind !== 'reference');
  for (const bundle of candidates) {
    if (!references.some((reference) => reference.name === bundle.reference))
      throw new Error(`no reference bundle ${bundle.reference} for ${bundle.name}`);
  }
  const all = [...references, ...candidates];
  const state = new Map(
    all.map((bundle) => [
      bundle.name,
      {
        samples: [] as number[],
        cpuSamples: [] as number[],
        bootSamples: [] as number[],
        hasHandler: true,
        sockets: [] as { call: string; stack: string }[],
        failures: [] as string[],
      },
    ]),
  );

  // One untimed import each, so every bundle starts from a warm file cache.
  for (const bundle of all) await probe(bundle.file).catch(() => undefined);

  let completedRounds = 0;
  for (let round = 0; round < runs; round++) {
    if (performance.now() - started > deadlineMs) break;
    for (const bundle of shuffle([...all])) {
      const entry = state.get(bundle.name);
      if (!entry) continue;
      try {
        const output = await probe(bundle.file);
        entry.samples.push(output.importMs);
        entry.cpuSamples.push(output.importCpuMs);
        entry.bootSamples.push(output.bootMs);
        entry.hasHandler &&= output.hasHandler;
        for (const socket of output.sockets ?? []) {
          if (entry.sockets.length < 5) entry.sockets.push(socket);
        }
        if (output.sockets === null) entry.failures.push('socket preload did not run');
      } catch (error) {
        entry.failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    completedRounds++;
  }

  const referenceMedian = (name: string) => median(state.get(name)?.samples ?? []);
  const referenceCpuMedian = (name: string) => median(state.get(name)?.cpuSamples ?? []);
  const timings: BundleTiming[] = all.map((bundle) => {
    const entry = state.get(bundle.name) ?? {
      samples: [],
      cpuSamples: [],
      bootSamples: [],
      hasHandler: false,
      sockets: [],
      failures: ['not run'],
    };
    const medianMs = median(entry.samples);
    const medianCpuMs = median(entry.cpuSamples);
    const ratio = medianCpuMs / referenceCpuMedian(bundle.reference);
    return {
      name: bundle.name,
      reference: bundle.reference,
      cpuSamples: entry.cpuSamples.map((value) => round(value, 3)),
      samples: entry.samples.map((value) => round(value, 3)),
      bootSamples: entry.bootSamples.map((value) => round(value, 3)),
      medianCpuMs: round(medianCpuMs, 2),
      medianMs: round(medianMs, 2),
      ratio: round(ratio, 3),
      wallRatio: round(medianMs / referenceMedian(bundle.reference), 3),
      withinBudget: bundle.kind === 'reference' || ratio <= INIT_RATIO_BUDGET,
      hasHandler: entry.hasHandler,
      sockets: entry.sockets,
      failures: entry.failures,
    };
  });

  const rows: (string | number)[][] = [
    [
      'bundle',
      'compared with',
      'size',
      'runs',
      'import CPU',
      'ratio',
      'ok',
      'import wall',
      'wall ratio',
      'node boot',
      'sockets',
    ],
  ];
  for (const timing of timings) {
    const bundle = all.find((candidate) => candidate.name === timing.name);
    const isReference = bundle?.kind === 'reference';
    rows.push([
      timing.name,
      isReference ? '-' : timing.reference,
      bundle ? `${(bundle.bytes / 1000).toFixed(0)} kB` : '-',
      timing.samples.length,
      `${timing.medianCpuMs.toFixed(1)} ms`,
      `${timing.ratio.toFixed(2)}×`,
      isReference ? 'ref' : timing.withinBudget ? 'yes' : 'NO',
      `${timing.medianMs.toFixed(1)} ms`,
      `${timing.wallRatio.toFixed(2)}×`,
      `${median(timing.bootSamples).toFixed(1)} ms`,
      timing.sockets.length ? timing.sockets.map((socket) => socket.call).join(',') : 'none',
    ]);
  }
  const enoughRuns = timings.every((timing) => timing.samples.length >= Math.min(runs, 15));
  const slow = timings.filter((timing) => !timing.withinBudget);
  const socketOpeners = timings.filter((timing) => timing.sockets.length > 0);
  const broken = timings.filter((timing) => timing.failures.length > 0 || !timing.hasHandler);
  const referenceNames = new Set(references.map((reference) => reference.name));
  const worst = [...timings].filter((t) => !referenceNames.has(t.name)).sort((a, b) => b.ratio - a.ratio)[0];
  const base = references.find((reference) => reference.name === 'reference') ?? references[0];
  const baseCpu = base ? referenceCpuMedian(base.name) : Number.NaN;
  const baseWall = base ? referenceMedian(base.name) : Number.NaN;
  const notes = [
    `Import time is measured inside each fresh process around \`await import(bundle)\` (node ${process.version}), as CPU time of that process (user + system, all threads) and as wall time. The verdict uses the median CPU time: on this shared machine other processes inflate wall time by up to several × (wall figures are information, ratio of medians likewise). Node boot = process start to that import, information only.`,
    `Rounds completed: ${completedRounds} of ${runs}; every bundle timed: ${candidates.length} functions and ${references.length} references (${references
      .map((reference) => reference.name)
      .join(', ')}), each function against the reference holding the same SDK clients.`,
  ];
  for (const timing of socketOpeners) {
    notes.push(
      `FINDING ${timing.name}: import opened a socket: ${timing.sockets[0]?.call} at ${timing.sockets[0]?.stack}`,
    );
  }
  for (const timing of broken) {
    notes.push(
      `PROBLEM ${timing.name}: ${timing.hasHandler ? '' : 'no exported handler; '}${timing.failures.slice(0, 2).join('; ')}`,
    );
  }
  if (!enoughRuns)
    notes.push('Fewer than 15 samples for some bundle (time limit reached): verdict is unknown.');
  return {
    id: 'B2',
    title: `Module init: median import ≤ ${INIT_RATIO_BUDGET}× that of the reference with the same SDK clients; import opens no socket`,
    holds: !enoughRuns || broken.length ? null : slow.length === 0 && socketOpeners.length === 0,
    summary: `reference ${baseCpu.toFixed(1)} ms CPU (${baseWall.toFixed(1)} ms wall); worst ${worst ? `${worst.name} ${worst.ratio.toFixed(2)}×` : '-'}; ${
      slow.length
    } over ${INIT_RATIO_BUDGET}×; ${socketOpeners.length} opened a socket`,
    table: table(rows),
    notes,
    details: {
      references: Object.fromEntries(
        references.map((reference) => [
          reference.name,
          {
            medianCpuMs: round(referenceCpuMedian(reference.name), 3),
            medianMs: round(referenceMedian(reference.name), 3),
          },
        ]),
      ),
      completedRounds,
      timings,
    },
    seconds: (performance.now() - started) / 1000,
  };
}
