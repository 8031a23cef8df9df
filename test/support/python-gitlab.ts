/**
 * python-gitlab (Debian package python3-gitlab) against the local runtime: the scripts of
 * test/e2e/python, run with the runtime's base URL and root token. A script prints "ok" when every
 * check holds; otherwise its stderr names the first mismatch.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { baseUrl, rootToken } from './api.ts';

const PYTHON = '/usr/bin/python3';

/** Whether the package is installed: without it the tests are reported as skipped, never as passed. */
export const pythonGitlabAvailable =
  spawnSync(PYTHON, ['-c', 'import gitlab, requests'], { encoding: 'utf8' }).status === 0;

/** What a script that held every check gives: "ok", nothing on stderr, exit code 0. */
export const PASSED = { stdout: 'ok', stderr: '', exitCode: 0 } as const;

/**
 * Runs test/e2e/python/<script> with the base URL, the root token and `args`; resolves (never
 * rejects, a failing script included) with its output trimmed and its exit code.
 */
export async function runCheck(script: string, args: string[] = [], timeoutMs = 100_000) {
  const path = join(import.meta.dirname, '..', 'e2e', 'python', script);
  const result = await promisify(execFile)(PYTHON, [path, baseUrl(), rootToken(), ...args], {
    timeout: timeoutMs,
    // The scripts import e2e_checks.py: no __pycache__ left in the working tree.
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  }).then(
    (output) => ({ ...output, code: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number | string }) => error,
  );
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim(), exitCode: result.code };
}
