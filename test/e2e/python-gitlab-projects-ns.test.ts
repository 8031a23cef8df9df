/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime:
 * project.transfer(), gl.namespaces.list()/get()/exists() and gl.projects.list() with id bounds.
 * On a machine without the package the test is reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

async function runCheck() {
  const script = join(import.meta.dirname, 'python', 'check_projects_ns.py');
  const result = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken')], {
    timeout: 100_000,
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  return { stdout: result.stdout?.trim(), stderr: result.stderr?.trim() };
}

describe('python-gitlab projects and namespaces', () => {
  it.skipIf(!available)(
    'project.transfer, namespaces.list/get/exists, projects.list(id_after, id_before)',
    async () => {
      expect(await runCheck()).toEqual({ stdout: 'ok', stderr: '' });
    },
    120_000,
  );
});
