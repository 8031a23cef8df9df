/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime:
 * project.transfer(), gl.namespaces.list()/get()/exists() and gl.projects.list() with id bounds.
 * On a machine without the package the test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab projects and namespaces', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'project.transfer, namespaces.list/get/exists, projects.list(id_after, id_before)',
    async () => {
      expect(await runCheck('check_projects_ns.py')).toEqual(PASSED);
    },
    120_000,
  );
});
