/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: personal
 * snippets (create, list, public, get, raw content, save, delete, user_agent_detail as admin) with
 * the errors python-gitlab raises for callers who may not. CI installs the package; on a machine
 * without it the test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab personal snippets', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'create, list, public, get, content, save, delete; user_agent_detail as admin; 404/403/401',
    async () => {
      expect(await runCheck('check_personal_snippets.py')).toEqual(PASSED);
    },
    120_000,
  );
});
