/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: award emoji
 * on issues, issue notes, merge requests and project snippets — create, list, get and delete, the
 * votes they count and the errors python-gitlab raises. CI installs the package; on a machine
 * without it these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab award emoji', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'issue.awardemojis, note.awardemojis, mr.awardemojis and snippet.awardemojis round trip; votes; 404 and 401',
    async () => {
      expect(await runCheck('check_award_emoji.py')).toEqual(PASSED);
    },
    120_000,
  );
});
