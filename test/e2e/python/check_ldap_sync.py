"""python-gitlab, unchanged, against a runtime with an LDAP provider: group sync.

An owner links an LDAP group (group.add_ldap_group_link) and asks for a sync (group.ldap_sync());
once it has run, the directory's member is a member of the group at the link's level and the group
shows ldap_sync_status "ready"; a maintainer's group.ldap_sync() is GitlabCreateError 403.

Usage: python3 check_ldap_sync.py <base url> <admin token> <provider> <ldap cn> <username>, where
the directory's group <ldap cn> holds the person <username>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys
import warnings

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, create_user, idle, refused, user_with_client

DEVELOPER, MAINTAINER = 30, 40

# add_ldap_group_link is deprecated in python-gitlab 3.12 (it still works); the driver expects an
# empty stderr.
warnings.simplefilter("ignore", DeprecationWarning)


def main():
    base_url, admin_token, provider, cn, username = sys.argv[1:6]
    admin = gitlab.Gitlab(base_url, private_token=admin_token)
    admin.auth()
    suffix = secrets.token_hex(4)

    directory_user = create_user(admin, username, "Directory person")
    owner, owner_gl = user_with_client(admin, base_url, f"sync-owner-{suffix}", "Sync owner")
    maintainer, maintainer_gl = user_with_client(admin, base_url, f"sync-maint-{suffix}", "Sync maintainer")
    group = owner_gl.groups.create({"name": f"sync-{suffix}", "path": f"sync-{suffix}", "visibility": "private"})
    group.members.create({"user_id": maintainer.id, "access_level": MAINTAINER})
    group.add_ldap_group_link(cn, DEVELOPER, provider)

    refused(lambda: maintainer_gl.groups.get(group.id).ldap_sync(), errors.GitlabCreateError, 403, "a maintainer syncs")
    group.ldap_sync()

    idle(base_url)
    shown = owner_gl.groups.get(group.id)
    check(
        shown.attributes.get("ldap_sync_last_successful_update_at"),
        f"no successful sync: {shown.attributes.get('ldap_sync_status')}",
    )
    check(shown.attributes["ldap_sync_status"] == "ready", f"status {shown.attributes['ldap_sync_status']!r}")
    check(shown.attributes["ldap_sync_error"] is None, f"error {shown.attributes['ldap_sync_error']!r}")

    levels = {member.id: member.access_level for member in group.members.list(get_all=True)}
    expected = {owner.id: 50, maintainer.id: MAINTAINER, directory_user.id: DEVELOPER}
    check(levels == expected, f"members after the sync {levels}, expected {expected}")

    print("ok")


main()
