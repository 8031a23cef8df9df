/**
 * B3: warm overhead of the shared middleware chain. Runs b3-middleware-child.ts in its own process
 * (the mock replaces DocumentClient.send for the whole process) once with LOG_LEVEL=silent — the
 * budget — and once with LOG_LEVEL=info writing its request log to /dev/null, for information.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BudgetResult, median, round, runChild, table, tsxNodeArgs } from './common.ts';

export const CHAIN_OVERHEAD_BUDGET_US = 50;

interface ChildOutput {
  logLevel: string;
  perRound: number;
  rounds: number;
  warmup: number;
  invocations: Record<string, number>;
  perCallUs: Record<'bare' | 'send' | 'work' | 'chain', number[]>;
  perCallCpuUs: Record<'bare' | 'send' | 'work' | 'chain', number[]>;
  gcBetweenLoops: boolean;
}

interface Figures {
  /** Median per-call time of each variant over the rounds, µs. */
  medianUs: Record<string, number>;
  /** Median over rounds of (chain − bare) in the same round. */
  overheadUs: number;
  /** Median over rounds of (chain − work): the chain alone, without the route's own store work. */
  chainOnlyUs: number;
}

interface LevelResult {
  logLevel: string;
  invocations: Record<string, number>;
  /** CPU time per call (decides). */
  cpu: Figures;
  /** Wall time per call (information). */
  wall: Figures;
  rounds: { cpuUs: ChildOutput['perCallCpuUs']; wallUs: ChildOutput['perCallUs'] };
}

function figures(perCall: ChildOutput['perCallUs']): Figures {
  const { bare, send, work, chain } = perCall;
  const diff = (a: number[], b: number[]) => a.map((value, i) => value - (b[i] ?? Number.NaN));
  return {
    medianUs: {
      bare: round(median(bare), 3),
      send: round(median(send), 3),
      work: round(median(work), 3),
      chain: round(median(chain), 3),
    },
    overheadUs: round(median(diff(chain, bare)), 3),
    chainOnlyUs: round(median(diff(chain, work)), 3),
  };
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
      { timeoutMs: 150_000, discardStdout: true },
    );
    if (child.code !== 0)
      throw new Error(`B3 child (${logLevel}) exit ${child.code}: ${child.stderr.slice(-800)}`);
    const output = JSON.parse(readFileSync(resultFile, 'utf8')) as ChildOutput;
    return {
      logLevel,
      invocations: output.invocations,
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
  const info = await measure('info', Math.max(1000, Math.round(options.perRound / 2)), options.rounds);
  const us = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(2)} µs`;
  const rows: (string | number)[][] = [
    [
      'LOG_LEVEL',
      'calls each',
      'bare',
      '1 mocked send',
      'same work, no chain',
      'real handler',
      'handler − bare',
      'chain alone',
      'chain alone (wall)',
    ],
  ];
  for (const level of [silent, info]) {
    rows.push([
      level.logLevel,
      level.invocations.chain ?? 0,
      us(level.cpu.medianUs.bare),
      us(level.cpu.medianUs.send),
      us(level.cpu.medianUs.work),
      us(level.cpu.medianUs.chain),
      us(level.cpu.overheadUs),
      us(level.cpu.chainOnlyUs),
      us(level.wall.chainOnlyUs),
    ]);
  }
  const enough = (silent.invocations.chain ?? 0) >= 100_000;
  const verdictFigure = silent.cpu.chainOnlyUs;
  return {
    id: 'B3',
    title: `Warm overhead of the shared chain over a bare async handler ≤ ${CHAIN_OVERHEAD_BUDGET_US} µs (store mocked)`,
    holds: enough ? verdictFigure <= CHAIN_OVERHEAD_BUDGET_US : null,
    summary: `chain alone ${verdictFigure.toFixed(1)} µs/call CPU (${silent.wall.chainOnlyUs.toFixed(
      1,
    )} µs wall); real handler − bare handler ${silent.cpu.overheadUs.toFixed(1)} µs, of which ≈ ${(
      2 * (silent.cpu.medianUs.send ?? 0)
    ).toFixed(1)} µs is the mock's two sends (LOG_LEVEL=silent, ${
      silent.invocations.chain
    } calls each after 10k warm-up)${enough ? '' : ' — fewer than 100k calls, verdict unknown'}`,
    table: table(rows),
    notes: [
      'Real handler = functions/users/get-current.ts (GET /api/v4/user) with DynamoDBDocumentClient mocked by aws-sdk-client-mock (token grant item + user item). Bare = an async function returning the same response object. Same work, no chain = the token lookup, the user read and the JSON response without middy and the shared middlewares.',
      `Figures are CPU time per call of the measuring process (user + system; other processes on this shared machine cannot inflate it), medians over ${options.rounds} interleaved rounds; the last column is the same difference in wall time, for information.`,
      'Verdict on "chain alone" = real handler − same work without the chain, per round: the mock is sinon and costs "1 mocked send" per store call, which is the mock\'s cost, not the chain\'s. "handler − bare" (real handler − a bare async handler) is printed too.',
      `LOG_LEVEL=silent decides; LOG_LEVEL=info (its request log line written to /dev/null, half the calls) measured ${(
        info.cpu.chainOnlyUs - silent.cpu.chainOnlyUs
      ).toFixed(1)} µs more for the chain alone — within noise when small or negative.`,
    ],
    details: { verdictFigure: 'silent.cpu.chainOnlyUs', silent, info },
    seconds: (performance.now() - started) / 1000,
  };
}
