/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: a group's
 * LDAP group links added, listed and removed through every form the client has. On a machine
 * without the package the test is reported as skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab LDAP group links', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'group.add_ldap_group_link, ldap_group_links.list/create, link.delete, group.delete_ldap_group_link',
    async () => {
      expect(await runCheck('check_ldap_links.py')).toEqual(PASSED);
    },
    120_000,
  );
});
