"""python-gitlab, unchanged, against the API: groups, subgroups, members, paths, pagination.

Usage: python3 check_groups.py <base url> <admin token>. Exits non-zero with a message on the first
mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab

from e2e_checks import check


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

prefix = f"pyg-{secrets.token_hex(4)}"

# Create, defaults, get by id and by path.
top = gl.groups.create({"name": f"Py {prefix}", "path": prefix, "description": "from python"})
check(top.path == prefix, f"groups.create returns the group, got {top.path}")
check(top.visibility == "private", f"default visibility private, got {top.visibility}")
check(top.full_name == f"Py {prefix}", f"full_name, got {top.full_name}")
check(top.parent_id is None, f"top-level parent_id None, got {top.parent_id}")

sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": top.id})
check(sub.full_path == f"{prefix}/sub", f"subgroup full_path, got {sub.full_path}")
check(sub.full_name == f"Py {prefix} / Sub", f"subgroup full_name, got {sub.full_name}")
check(sub.parent_id == top.id, f"subgroup parent_id, got {sub.parent_id}")

by_id = gl.groups.get(top.id)
check(by_id.full_path == prefix, f"groups.get(id), got {by_id.full_path}")
by_path = gl.groups.get(f"{prefix}/sub")
check(by_path.id == sub.id, f"groups.get('a/b') finds the subgroup, got {by_path.id}")

subgroups = top.subgroups.list()
check([g.id for g in subgroups] == [sub.id], f"group.subgroups.list(), got {[g.id for g in subgroups]}")

# Update with save().
by_id.description = "changed"
by_id.name = f"Py2 {prefix}"
by_id.save()
again = gl.groups.get(top.id)
check(again.description == "changed", f"group.save() updates description, got {again.description}")
check(gl.groups.get(sub.id).full_name == f"Py2 {prefix} / Sub", "the rename reaches the subgroup's full_name")

# Duplicate path.
try:
    gl.groups.create({"name": "dup", "path": prefix})
    check(False, "duplicate group path must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 400, f"duplicate path is 400, got {error.response_code}")
    expected = 'Failed to save group {:path=>["has already been taken"]}'
    check(error.error_message == expected, f"message, got {error.error_message}")

# Members.
user = gl.users.create(
    {
        "email": f"{prefix}@example.com",
        "username": f"{prefix}-member",
        "name": "Py Member",
        "password": "password123",
    }
)
member = top.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
check(member.id == user.id and member.access_level == 30, f"members.create, got {member.id} {member.access_level}")
members = top.members.list()
levels = sorted((m.username, m.access_level) for m in members)
check(levels == sorted([("root", 50), (f"{prefix}-member", 30)]), f"members.list(), got {levels}")
fetched = top.members.get(user.id)
check(fetched.username == f"{prefix}-member", f"members.get, got {fetched.username}")
fetched.access_level = gitlab.const.MAINTAINER_ACCESS
fetched.save()
check(top.members.get(user.id).access_level == 40, "member.save() changes the access level")
try:
    top.members.create({"user_id": user.id, "access_level": 30})
    check(False, "duplicate member must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 409, f"duplicate member is 409, got {error.response_code}")
    check(error.error_message == "Member already exists", f"message, got {error.error_message}")
fetched.delete()
try:
    top.members.get(user.id)
    check(False, "removed member must be gone")
except gitlab.exceptions.GitlabGetError as error:
    check(error.response_code == 404, f"removed member is 404, got {error.response_code}")

# Pagination: get_all walks the Link headers.
for i in range(3):
    gl.groups.create({"name": f"Page {i}", "path": f"{prefix}-page-{i}"})
listing = gl.groups.list(search=f"{prefix}-page", per_page=1, page=2, iterator=True)
check(listing.total == 3, f"X-Total 3, got {listing.total}")
check(listing.total_pages == 3, f"X-Total-Pages 3, got {listing.total_pages}")
check(listing.next_page == 3 and listing.prev_page == 1, f"next/prev, got {listing.next_page} {listing.prev_page}")
everything = gl.groups.list(search=f"{prefix}-page", per_page=1, get_all=True)
check(
    sorted(g.path for g in everything) == [f"{prefix}-page-{i}" for i in range(3)],
    f"get_all walks every page, got {[g.path for g in everything]}",
)
listed = gl.groups.list(search=prefix, get_all=True)
check(
    sorted(g.id for g in listed) == sorted([top.id] + [g.id for g in everything]),
    f"search matches name or path (not the subgroup's full path), got {[g.path for g in listed]}",
)

# Transfer a project into the group (admin only).
project = gl.projects.create({"name": f"{prefix} moving"})
top.transfer_project(project.id)
moved = gl.projects.get(project.id)
check(moved.namespace["id"] == top.id, f"project moved into the group, got {moved.namespace}")
check(moved.path_with_namespace == f"{top.full_path}/{project.path}", f"path moved, got {moved.path_with_namespace}")
check([p.id for p in top.projects.list()] == [project.id], "the group lists the transferred project")

# Delete.
gl.groups.delete(top.id)
try:
    gl.groups.get(top.id)
    check(False, "deleted group must be gone")
except gitlab.exceptions.GitlabGetError as error:
    check(error.response_code == 404, f"deleted group is 404, got {error.response_code}")
for group in everything:
    group.delete()

print("ok")
