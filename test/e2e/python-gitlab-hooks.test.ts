/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: project
 * hooks (create, list, get, save, update, delete) and push rules (create, get, save, delete), with
 * the errors python-gitlab raises for bad values and for callers who may not. One script, one
 * part per test. CI installs the package; on a machine without it these tests are reported as
 * skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab project hooks and push rules', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'hooks: create, list, get, save (wiki_events), update, delete; no token shown; 422/404/403/401',
    async () => {
      expect(await runCheck('check_hooks.py', ['hooks'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'push rules: create, get, save, delete; 422 for a second, 400 for a bad regex, null when none',
    async () => {
      expect(await runCheck('check_hooks.py', ['push_rules'])).toEqual(PASSED);
    },
    120_000,
  );
});
