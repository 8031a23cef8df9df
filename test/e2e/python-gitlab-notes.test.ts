/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: issues,
 * merge requests, project snippets and group epics with their notes — create, list, get, save and
 * delete, close and reopen with system notes, open_issues_count, and the errors python-gitlab
 * raises for strangers. One script, one part per test. CI installs the package; on a machine
 * without it these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab notes and their parents', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'issues: create, list, get, save, close and reopen with system notes, delete; notes round trip; 404/403/401',
    async () => {
      expect(await runCheck('check_notes.py', ['issues'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'merge requests: create, list, get, save, close, delete; notes round trip; 404 for a stranger',
    async () => {
      expect(await runCheck('check_notes.py', ['merge_requests'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'snippets: create, list, get, content, save, delete; notes round trip with the snippet fields in a note single read',
    async () => {
      expect(await runCheck('check_notes.py', ['snippets'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'epics: create, list, get, save, delete; notes by the epic id; 404 for a stranger',
    async () => {
      expect(await runCheck('check_notes.py', ['epics'])).toEqual(PASSED);
    },
    120_000,
  );
});
