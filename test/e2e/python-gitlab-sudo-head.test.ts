/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: sudo as a
 * keyword argument and as a session header, HEAD through `http_head` with X-Total, and a token
 * revoking itself. One script, one part per test. CI installs the package; on a machine without it
 * these tests are reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab sudo, HEAD and self-revocation', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'projects.create(..., sudo=uid) creates as that user; users.create under sudo; the Sudo header; 403 and 404',
    async () => {
      expect(await runCheck('check_sudo_head.py', ['sudo'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'http_head on a list gives X-Total, X-Total-Pages and Link; on one project its content type; 404 raises',
    async () => {
      expect(await runCheck('check_sudo_head.py', ['head'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'http_delete("/personal_access_tokens/self") revokes the token in use; it then fails authentication',
    async () => {
      expect(await runCheck('check_sudo_head.py', ['revoke'])).toEqual(PASSED);
    },
    120_000,
  );
});
