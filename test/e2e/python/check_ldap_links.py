"""python-gitlab, unchanged, against the API: LDAP group links.

group.add_ldap_group_link(cn, group_access, provider) (owners; a maintainer is refused 403; the
same link again is GitlabCreateError 409), group.ldap_group_links.list() and .create() with a
filter, the links on groups.get(), link.delete() (the query form of DELETE), and
group.delete_ldap_group_link(cn, provider) and (cn) alone; once none is left the list is
GitlabListError 404 and a second removal GitlabDeleteError 404.

Usage: python3 check_ldap_links.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys
import warnings

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client

DEVELOPER, MAINTAINER = 30, 40

# add_ldap_group_link and delete_ldap_group_link are deprecated in python-gitlab 3.12 (they still
# work); the driver expects an empty stderr.
warnings.simplefilter("ignore", DeprecationWarning)


def main():
    base_url, admin_token = sys.argv[1], sys.argv[2]
    admin = gitlab.Gitlab(base_url, private_token=admin_token)
    admin.auth()
    suffix = secrets.token_hex(4)

    owner, owner_gl = user_with_client(admin, base_url, f"ldap-owner-{suffix}", "LDAP owner", token_name="e2e")
    maintainer, maintainer_gl = user_with_client(admin, base_url, f"ldap-maint-{suffix}", "LDAP maintainer")
    group = owner_gl.groups.create({"name": f"ldap-{suffix}", "path": f"ldap-{suffix}", "visibility": "private"})
    group.members.create({"user_id": maintainer.id, "access_level": MAINTAINER})

    # group.add_ldap_group_link(): owners only.
    group.add_ldap_group_link("developers", DEVELOPER, "ldapmain")
    refused(
        lambda: maintainer_gl.groups.get(group.id).add_ldap_group_link("ops", DEVELOPER, "ldapmain"),
        errors.GitlabCreateError,
        403,
        "a maintainer adds a link",
    )
    duplicate = refused(
        lambda: group.add_ldap_group_link("developers", MAINTAINER, "ldapmain"),
        errors.GitlabCreateError,
        409,
        "the same link again",
    )
    check(duplicate.error_message == "Cn has already been taken", f"duplicate message {duplicate.error_message!r}")

    # ldap_group_links.create() with a filter, then list() in the order they were made.
    made = group.ldap_group_links.create({"provider": "ldapmain", "group_access": MAINTAINER, "filter": "(ou=ops)"})
    check(made.filter == "(ou=ops)" and made.cn is None, f"created filter link {made.attributes}")
    # (python-gitlab adds the parent's `group_id` to each object: left out of the comparison.)
    listed = [
        {key: value for key, value in link.attributes.items() if key != "group_id"}
        for link in group.ldap_group_links.list()
    ]
    expected = [
        {"cn": "developers", "group_access": DEVELOPER, "provider": "ldapmain", "filter": None},
        {"cn": None, "group_access": MAINTAINER, "provider": "ldapmain", "filter": "(ou=ops)"},
    ]
    check(listed == expected, f"ldap_group_links.list() {listed}")

    # The group's detail shows them (the attribute; `ldap_group_links` on the object is the manager).
    shown = owner_gl.groups.get(group.id).attributes["ldap_group_links"]
    check(shown == expected, f"detail {shown}")

    # link.delete(): DELETE /groups/:id/ldap_group_links?provider=…&filter=…
    filter_link = [link for link in group.ldap_group_links.list() if link.filter == "(ou=ops)"][0]
    filter_link.delete()

    # group.delete_ldap_group_link(cn, provider), and (cn) alone for a link of another provider.
    group.delete_ldap_group_link("developers", "ldapmain")
    group.add_ldap_group_link("qa", DEVELOPER, "ldapsecondary")
    group.delete_ldap_group_link("qa")
    missing = refused(lambda: group.ldap_group_links.list(), errors.GitlabListError, 404, "list with no links")
    check(missing.error_message == "No linked LDAP groups found", f"empty list message {missing.error_message!r}")
    gone = refused(
        lambda: group.delete_ldap_group_link("developers", "ldapmain"),
        errors.GitlabDeleteError,
        404,
        "removing a removed link",
    )
    check(gone.error_message == "Linked LDAP group not found", f"missing link message {gone.error_message!r}")

    print("ok")


main()
