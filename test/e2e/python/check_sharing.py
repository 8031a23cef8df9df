"""python-gitlab, unchanged, against the API: groups shared with groups and members with inherited levels.

group.share(group_id, group_access) (shared_with_groups on the group, the invited group's members
reaching a private project of the shared group's subgroup at once, at the lower of their own level
and the share's, in projects.get() and projects.list(membership=True); a second share of the same pair is GitlabCreateError 409), group.members_all.list()
and .get() (direct, inherited and shared members once each at their effective level),
project.members_all.list(), project.groups.list() (the namespace's groups, with_shared adding the
invited group, search, skip_groups), and group.unshare(group_id) (the access gone at once, a second
unshare GitlabDeleteError 404).

Usage: python3 check_sharing.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client

GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER = 10, 20, 30, 40, 50


def main():
    base_url, admin_token = sys.argv[1], sys.argv[2]
    admin = gitlab.Gitlab(base_url, private_token=admin_token)
    admin.auth()
    suffix = secrets.token_hex(4)

    def new_user(role):
        name = f"sh-{role}-{suffix}"
        return user_with_client(admin, base_url, name, name, token_name="e2e")

    owner, owner_gl = new_user("owner")
    invited_maintainer, invited_gl = new_user("invited")
    developer, _ = new_user("dev")

    # The shared group (private) with a subgroup holding a private project; the invited group.
    shared = owner_gl.groups.create({"name": f"shared-{suffix}", "path": f"shared-{suffix}", "visibility": "private"})
    subgroup = owner_gl.groups.create(
        {"name": f"sub-{suffix}", "path": f"sub-{suffix}", "parent_id": shared.id, "visibility": "private"}
    )
    project = owner_gl.projects.create({"name": f"app-{suffix}", "namespace_id": subgroup.id, "visibility": "private"})
    shared.members.create({"user_id": developer.id, "access_level": DEVELOPER})
    invited = admin.groups.create({"name": f"invited-{suffix}", "path": f"invited-{suffix}", "visibility": "public"})
    invited.members.create({"user_id": invited_maintainer.id, "access_level": MAINTAINER})

    refused(lambda: invited_gl.projects.get(project.id), errors.GitlabGetError, 404, "project before the share")

    # group.share(): the group answers with its shares.
    owner_shared = owner_gl.groups.get(shared.id)
    owner_shared.share(invited.id, DEVELOPER)
    seen = owner_gl.groups.get(shared.id)
    check(
        seen.shared_with_groups
        == [
            {
                "group_id": invited.id,
                "group_name": invited.name,
                "group_full_path": invited.full_path,
                "group_access_level": DEVELOPER,
                "expires_at": None,
            }
        ],
        f"shared_with_groups {seen.shared_with_groups}",
    )
    error = refused(lambda: owner_shared.share(invited.id, REPORTER), errors.GitlabCreateError, 409, "share twice")
    check("already been shared" in str(error.error_message), f"409 message {error.error_message}")

    # Access flows at once, capped by the share (developer, not the member's maintainer).
    reached = invited_gl.projects.get(project.id)
    check(
        reached.permissions["group_access"] == {"access_level": DEVELOPER, "notification_level": 3},
        f"permissions through the share {reached.permissions}",
    )
    check(invited_gl.groups.get(subgroup.id).id == subgroup.id, "subgroup reached through the share")
    listed = {item.id: item for item in invited_gl.projects.list(membership=True, get_all=True)}
    check(project.id in listed, f"projects.list(membership=True) {sorted(listed)}")
    check(
        listed[project.id].permissions["group_access"] == {"access_level": DEVELOPER, "notification_level": 3},
        f"listed permissions {listed[project.id].permissions}",
    )

    # members_all: each user once at their effective level.
    expected = {
        owner.username: OWNER,
        developer.username: DEVELOPER,
        invited_maintainer.username: DEVELOPER,
        # root created the invited group and owns it: capped at the share's level.
        "root": DEVELOPER,
    }
    group_all = owner_gl.groups.get(subgroup.id).members_all.list(get_all=True)
    levels = {member.username: member.access_level for member in group_all}
    check(levels == expected, f"group members_all {levels}")
    check(
        [member.id for member in group_all] == sorted(member.id for member in group_all),
        "members_all ordered by id",
    )
    one = owner_gl.groups.get(subgroup.id).members_all.get(invited_maintainer.id)
    check(one.username == invited_maintainer.username and one.access_level == DEVELOPER, f"members_all.get {one}")
    project_all = owner_gl.projects.get(project.id).members_all.list(get_all=True)
    levels = {member.username: member.access_level for member in project_all}
    check(levels == expected, f"project members_all {levels}")
    direct = owner_gl.projects.get(project.id).members.list(get_all=True)
    check([member.username for member in direct] == [], f"project direct members {direct}")
    refused(
        lambda: owner_gl.projects.get(project.id).members_all.get(99_999_999),
        errors.GitlabGetError,
        404,
        "members_all.get of no member",
    )

    # project.groups: the namespace's group and its ancestors, newest first; with_shared adds none
    # here (the project itself is not shared), search and skip_groups narrow.
    groups = owner_gl.projects.get(project.id).groups.list(get_all=True)
    check([group.id for group in groups] == [subgroup.id, shared.id], f"project groups {[g.id for g in groups]}")
    # The client adds project_id (its parent's id) to what the server sent.
    fields = sorted(key for key in groups[0].attributes if key != "project_id")
    check(fields == ["avatar_url", "full_name", "full_path", "id", "name", "web_url"], f"basic group entity {fields}")
    check(groups[0].full_path == f"{shared.full_path}/{subgroup.path}", f"full_path {groups[0].full_path}")
    skipped = owner_gl.projects.get(project.id).groups.list(skip_groups=[subgroup.id])
    check([group.id for group in skipped] == [shared.id], f"skip_groups {[g.id for g in skipped]}")
    searched = owner_gl.projects.get(project.id).groups.list(search=f"sub-{suffix}")
    check([group.id for group in searched] == [subgroup.id], f"search {[g.id for g in searched]}")
    owner_gl.projects.get(project.id).share(invited.id, REPORTER)
    with_shared = owner_gl.projects.get(project.id).groups.list(with_shared=True)
    check(
        [group.id for group in with_shared] == [invited.id, subgroup.id, shared.id],
        f"with_shared {[g.id for g in with_shared]}",
    )
    above = owner_gl.projects.get(project.id).groups.list(with_shared=True, shared_min_access_level=DEVELOPER)
    check([group.id for group in above] == [subgroup.id, shared.id], f"shared_min_access_level {[g.id for g in above]}")
    owner_gl.projects.get(project.id).unshare(invited.id)

    # group.unshare(): the access goes at once; a second unshare finds no link.
    owner_shared.unshare(invited.id)
    check(owner_gl.groups.get(shared.id).shared_with_groups == [], "shared_with_groups after unshare")
    refused(lambda: invited_gl.projects.get(project.id), errors.GitlabGetError, 404, "project after unshare")
    listed = [item.id for item in invited_gl.projects.list(membership=True, get_all=True)]
    check(project.id not in listed, f"projects.list(membership=True) after unshare {listed}")
    levels = {member.username: member.access_level for member in owner_gl.groups.get(subgroup.id).members_all.list()}
    check(levels == {owner.username: OWNER, developer.username: DEVELOPER}, f"members_all after unshare {levels}")
    refused(lambda: owner_shared.unshare(invited.id), errors.GitlabDeleteError, 404, "unshare twice")

    print("ok")


main()
