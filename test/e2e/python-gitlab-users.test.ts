/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: what admins
 * do to users (states, identities, custom attributes, memberships, avatars). One script, one part
 * per test. CI installs the package; on a machine without it these tests are reported as skipped,
 * never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab: users as admins manage them', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'block() twice (True, then None), unblock, ban/unban, deactivate/activate, tokens refused meanwhile',
    async () => {
      expect(await runCheck('check_users_admin.py', ['states'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'users.create with provider and extern_uid, users.list by identity, identityproviders.delete',
    async () => {
      expect(await runCheck('check_users_admin.py', ['identities'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'customattributes.set/get/list/delete',
    async () => {
      expect(await runCheck('check_users_admin.py', ['attributes'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'memberships.list, with type=Namespace and type=Project; 400 for another type',
    async () => {
      expect(await runCheck('check_users_admin.py', ['memberships'])).toEqual(PASSED);
    },
    120_000,
  );

  it.skipIf(!pythonGitlabAvailable)(
    'an avatar on create and on save(): the bytes read back from avatar_url are the bytes sent',
    async () => {
      expect(await runCheck('check_users_admin.py', ['avatar'])).toEqual(PASSED);
    },
    120_000,
  );
});
