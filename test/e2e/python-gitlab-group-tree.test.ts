/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: the group
 * tree (descendant_groups, transfer to a parent and to the top level, visibility on the group
 * list, include_subgroups on a group's projects). On a machine without the package the test is
 * reported as skipped, never as passed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const available = spawnSync(PYTHON, ['-c', 'import gitlab'], { encoding: 'utf8' }).status === 0;

describe('python-gitlab group tree', () => {
  it.skipIf(!available)(
    'descendant_groups.list, transfer(parent) and transfer(), groups.list(visibility), projects.list(include_subgroups)',
    async () => {
      const script = join(import.meta.dirname, 'python', 'check_group_tree.py');
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
