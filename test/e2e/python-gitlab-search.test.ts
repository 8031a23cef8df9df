/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: gl.search,
 * group.search and project.search. CI installs the package; on a machine without it this test is
 * reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

describe('python-gitlab search', () => {
  it.skipIf(!available)(
    'gl.search (projects, users, groups, pages), group.search, project.search and the 400 refusal',
    async () => {
      const script = join(import.meta.dirname, 'python', 'check_search.py');
      const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken')], {
        timeout: 100_000,
      }).catch((error: { stdout?: string; stderr?: string }) => error);
      expect({ stdout: result.stdout?.trim(), stderr: result.stderr?.trim() }).toEqual({
        stdout: 'ok',
        stderr: '',
      });
    },
    120_000,
  );
});
