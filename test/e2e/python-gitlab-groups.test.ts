/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: groups,
 * subgroups and members. CI installs the package; on a machine without it this test is reported
 * as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

describe('python-gitlab groups', () => {
  it.skipIf(!available)('creates, lists, pages, shows, saves and deletes groups and members', async () => {
    const script = join(import.meta.dirname, 'python', 'check_groups.py');
    const { stdout } = await promisify(execFile)(PYTHON, [script, inject('baseUrl'), inject('rootToken')], {
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe('ok');
  });
});
