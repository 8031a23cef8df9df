/** Small helpers shared by the benchmark phases: statistics, formatting, child processes, results. */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';

export const projectRoot = resolve(import.meta.dirname, '../..');
export const benchDir = resolve(projectRoot, '.bench');

/** One budget's verdict. `holds: null` means it could not be measured (see `error`). */
export interface BudgetResult {
  id: string;
  title: string;
  holds: boolean | null;
  /** One line: the figure that decides the verdict. */
  summary: string;
  /** Human table lines printed under the budget. */
  table: string[];
  /** Notes and findings (information, not verdicts). */
  notes: string[];
  details: unknown;
  error?: string;
  seconds: number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export const round = (value: number, digits = 2) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * Renders rows as an aligned text table; the first row is the header. Columns whose cells all
 * start with a figure are right-aligned, the others left-aligned.
 */
export function table(rows: readonly (readonly (string | number)[])[]): string[] {
  const cells = rows.map((row) => row.map(String));
  const [header, ...body] = cells;
  if (!header) return [];
  const widths: number[] = [];
  for (const row of cells)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  const numeric = header.map((_, i) => body.every((row) => /^([-\d.]|$)/.test(row[i] ?? '')));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The niceness of a background child (0 is the usual; 19 the lowest). */
const BACKGROUND_PRIORITY = 10;

/**
 * Runs a child process to completion, killing it after `timeoutMs`. `background`: the child runs
 * at a lower CPU priority, for phases that decide on their own CPU time (which waiting for the CPU
 * does not add to) while a phase that needs the wall clock shares the machine.
 */
export function runChild(
  command: string,
  args: readonly string[],
  options: {
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    cwd?: string;
    discardStdout?: boolean;
    background?: boolean;
  },
): Promise<ChildResult> {
  return new Promise((resolveChild, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? projectRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', options.discardStdout ? 'ignore' : 'pipe', 'pipe'],
    });
    if (options.background && child.pid !== undefined) {
      try {
        setPriority(child.pid, BACKGROUND_PRIORITY);
      } catch {
        // Already gone, or not allowed here: it then runs at the usual priority.
      }
    }
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      stderr += `\n[bench] killed after ${options.timeoutMs} ms`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveChild({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** The last line of a child's stdout that parses as JSON (children print their result last). */
export function lastJsonLine<T>(stdout: string): T {
  const lines = stdout.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      return JSON.parse(line) as T;
    } catch {
      // not the result line
    }
  }
  throw new Error(`no JSON result in child output: ${stdout.slice(-500)}`);
}

/** Node flags that let a child run the project's TypeScript (tsx's loader), as `npm run bench` does. */
export const tsxNodeArgs = ['--import', 'tsx'];

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
