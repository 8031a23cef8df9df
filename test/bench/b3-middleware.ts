/**
 * B3: warm cost of the shared middleware chain against a reference chain measured in the same
 * process and run. Runs b3-middleware-child.ts in its own process (the mock replaces
 * DocumentClient.send for the whole process) once with LOG_LEVEL=silent — the budget — and once
 * with LOG_LEVEL=info writing both chains' log lines to /dev/null, for information.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BudgetResult, median, round, runChild, table, tsxNodeArgs } from './common.ts';

/** The shared chain may cost at most this many times the reference chain, per warm call. */
export const CHAIN_RATIO_BUDGET = 1.5;

type Variant = 'bare' | 'send' | 'reference' | 'chain';

interface ChildOutput {
  logLevel: string;
  perRound: number;
  rounds: number;
  warmup: number;
  invocations: Record<Variant, number>;
  perCallUs: Record<Variant, number[]>;
  perCallCpuUs: Record<Variant, number[]>;
  responseBytes: number;
  gcBetweenLoops: boolean;
}

interface Figures {
  /** Median per-call time of each variant over the rounds, µs. */
  medianUs: Record<Variant, number>;
  /** Median over rounds of chain ÷ reference in the same round. */
  ratio: number;
  /** Median over rounds of (chain − reference) in the same round, µs. */
  differenceUs: number;
}

interface LevelResult {
  logLevel: string;
  invocations: Record<Variant, number>;
  responseBytes: number;
  /** CPU time per call (decides). */
  cpu: Figures;
  /** Wall time per call (information). */
  wall: Figures;
  rounds: { cpuUs: ChildOutput['perCallCpuUs']; wallUs: ChildOutput['perCallUs'] };
}

function figures(perCall: ChildOutput['perCallUs']): Figures {
  const { bare, send, reference, chain } = perCall;
  const per = (f: (chain: number, reference: number) => number) =>
    median(chain.map((value, i) => f(value, reference[i] ?? Number.NaN)));
  return {
    medianUs: {
      bare: round(median(bare), 3),
      send: round(median(send), 3),
      reference: round(median(reference), 3),
      chain: round(median(chain), 3),
    },
    ratio: round(
      per((c, r) => c / r),
      3,
    ),
    differenceUs: round(
      per((c, r) => c - r),
      3,
    ),
  };
}

/**
 * The parent's environment without what the local runtime set in it when it ran first in this
 * process: with AWS_LAMBDA_MAX_CONCURRENCY, Powertools reads its state from an InvokeStore that
 * the child never sets up.
 */
function chainEnvironment(): NodeJS.ProcessEnv {
  const { AWS_LAMBDA_MAX_CONCURRENCY: _concurrency, ...env } = process.env;
  return env;
}

async function measure(logLevel: 'silent' | 'info', perRound: number, rounds: number): Promise<LevelResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-api-bench-b3-'));
  const resultFile = join(dir, 'result.json');
  try {
    const child = await runChild(
      process.execPath,
      [
        ...tsxNodeArgs,
        '--expose-gc',
        join(import.meta.dirname, 'b3-middleware-child.ts'),
        logLevel,
        resultFile,
        String(perRound),
        String(rounds),
      ],
      { env: chainEnvironment(), timeoutMs: 600_000, discardStdout: true, background: true },
    );
    if (child.code !== 0)
      throw new Error(`B3 child (${logLevel}) exit ${child.code}: ${child.stderr.slice(-800)}`);
    const output = JSON.parse(readFileSync(resultFile, 'utf8')) as ChildOutput;
    return {
      logLevel,
      invocations: output.invocations,
      responseBytes: output.responseBytes,
      cpu: figures(output.perCallCpuUs),
      wall: figures(output.perCallUs),
      rounds: { cpuUs: output.perCallCpuUs, wallUs: output.perCallUs },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runB3(options: { perRound: number; rounds: number }): Promise<BudgetResult> {
  const started = performance.now();
  const silent = await measure('silent', options.perRound, options.rounds);
  // Information only: fewer calls.
  const info = await measure('info', Math.max(1000, Math.round(options.perRound / 4)), options.rounds);
  const us = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} µs`;
  const rows: (string | number)[][] = [
    [
      'LOG_LEVEL',
      'calls each',
      'reference chain',
      'shared chain',
      'chain ÷ reference',
      'chain − reference',
      'ratio (wall)',
      'bare handler',
      '1 mocked send',
    ],
  ];
  for (const level of [silent, info]) {
    rows.push([
      level.logLevel,
      level.invocations.chain ?? 0,
      us(level.cpu.medianUs.reference),
      us(level.cpu.medianUs.chain),
      `${level.cpu.ratio.toFixed(2)}×`,
      us(level.cpu.differenceUs),
      `${level.wall.ratio.toFixed(2)}×`,
      us(level.cpu.medianUs.bare),
      us(level.cpu.medianUs.send),
    ]);
  }
  const enough = (silent.invocations.chain ?? 0) >= 100_000 && (silent.invocations.reference ?? 0) >= 100_000;
  const verdictFigure = silent.cpu.ratio;
  return {
    id: 'B3',
    title: `Warm cost of the shared chain ≤ ${CHAIN_RATIO_BUDGET}× a reference middy chain (same process, store mocked)`,
    holds: enough ? verdictFigure <= CHAIN_RATIO_BUDGET : null,
    summary: `shared chain ${verdictFigure.toFixed(2)}× the reference (CPU; ${silent.wall.ratio.toFixed(
      2,
    )}× wall): ${silent.cpu.medianUs.chain.toFixed(1)} against ${silent.cpu.medianUs.reference.toFixed(
      1,
    )} µs per call, LOG_LEVEL=silent, ${silent.invocations.chain} calls each after 5k warm-up${
      enough ? '' : ' — fewer than 100k calls, verdict unknown'
    }`,
    table: table(rows),
    notes: [
      `Route: GET /api/v4/projects/:id (functions/projects/get.ts) signed in as a developer of the project's group, warm: one mocked BatchGetItem per call (credential, project, memberships, counters), a ${silent.responseBytes}-byte JSON answer. The DocumentClient's send is replaced by a function answering from a map, for both chains.`,
      "Reference chain: middy core with @middy/http-json-body-parser, @middy/validator (a compiled JSON schema of the route's parameters), @middy/http-error-handler and Powertools' injectLambdaContext, whose handler makes the same store calls (the same batch) and the same checks and presentation, logs one line and answers JSON. Its answer is checked to be the route's, byte for byte.",
      `Figures are CPU time per call of the measuring process (user + system; other processes on this shared machine cannot inflate it), medians over ${options.rounds} interleaved rounds in rotating order; the ratio is taken within each round. Wall-time ratio for information. "1 mocked send" is what the mock costs per store call, in both chains.`,
      `LOG_LEVEL=info (both chains' lines written to /dev/null, a quarter of the calls): ${info.cpu.ratio.toFixed(2)}× — information.`,
    ],
    details: { verdictFigure: 'silent.cpu.ratio', silent, info },
    seconds: (performance.now() - started) / 1000,
  };
}
