/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: issues,
 * merge requests, project snippets and group epics with their notes — create, list, get, save and
 * delete, close and reopen with system notes, open_issues_count, and the errors python-gitlab
 * raises for strangers. One script, one part per test. CI installs the package; on a machine
 * without it these tests are reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

/** Runs one part of check_notes.py; the script's stderr names the first mismatch. */
async function runPart(part: string) {
  const script = join(import.meta.dirname, 'python', 'check_notes.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken'), part], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab notes and their parents', () => {
  it.skipIf(!available)(
    'issues: create, list, get, save, close and reopen with system notes, delete; notes round trip; 404/403/401',
    async () => {
      expect(await runPart('issues')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'merge requests: create, list, get, save, close, delete; notes round trip; 404 for a stranger',
    async () => {
      expect(await runPart('merge_requests')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'snippets: create, list, get, content, save, delete; notes round trip with the single read of §2.4',
    async () => {
      expect(await runPart('snippets')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );

  it.skipIf(!available)(
    'epics: create, list, get, save, delete; notes by the epic id; 404 for a stranger',
    async () => {
      expect(await runPart('epics')).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
