/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: projects —
 * create, get, save, list and search, stars, archive, shares, uploads, members, and get_all over
 * 250 projects. CI installs the package; on a machine without it this test is reported as skipped,
 * never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

describe('python-gitlab projects', () => {
  it.skipIf(!available)(
    'creates, gets, saves, lists and pages projects; stars, archives, shares, uploads, members',
    async () => {
      const script = join(import.meta.dirname, 'python', 'check_projects.py');
      const { stdout } = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken')], {
        timeout: 150_000,
      });
      expect(stdout.trim()).toBe('ok');
    },
    180_000,
  );
});
