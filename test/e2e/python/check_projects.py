"""python-gitlab, unchanged, against the API: projects.

Create, get by id and path, list and search, save, star/unstar, archive/unarchive, share/unshare,
upload, members, and get_all walking the Link headers over 250 projects. (There is no
DELETE /projects yet, so nothing is deleted.)

Usage: python3 check_projects.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import re
import secrets
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import gitlab

from e2e_checks import check, create_token, create_user


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

prefix = f"pyp-{secrets.token_hex(4)}"

# A user to act as a second party, with a token of their own.
user = create_user(gl, f"{prefix}-user", f"Py {prefix}", email=f"{prefix}@example.com")
as_user = gitlab.Gitlab(url, private_token=create_token(user))

# Create: defaults, path from name, get by id and by path.
project = gl.projects.create({"name": f"Py Project {prefix}", "description": "from python"})
check(project.path == f"py-project-{prefix}", f"path from name, got {project.path}")
check(project.visibility == "private", f"default visibility private, got {project.visibility}")
check(project.default_branch == "master", f"default branch master, got {project.default_branch}")
check(project.star_count == 0 and project.archived is False, "new project: no stars, not archived")
check(project.namespace["kind"] == "user", f"root's namespace, got {project.namespace}")
check(project.shared_with_groups == [], f"no shares, got {project.shared_with_groups}")

by_id = gl.projects.get(project.id)
check(by_id.path_with_namespace == f"root/py-project-{prefix}", f"get(id), got {by_id.path_with_namespace}")
by_path = gl.projects.get(f"root/py-project-{prefix}")
check(by_path.id == project.id, f"get('ns/path') finds it, got {by_path.id}")
with_stats = gl.projects.get(project.id, statistics=True)
check(with_stats.statistics["commit_count"] == 0, f"statistics, got {with_stats.statistics}")

try:
    gl.projects.create({"name": f"Py Project {prefix}"})
    check(False, "duplicate project must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 400, f"duplicate is 400, got {error.response_code}")
    check(
        error.error_message == {"name": ["has already been taken"], "path": ["has already been taken"]},
        f"duplicate message, got {error.error_message}",
    )

# Save (PUT with the changed attributes only).
by_id.description = "changed"
by_id.issues_enabled = False
by_id.save()
again = gl.projects.get(project.id)
check(again.description == "changed", f"save() updates description, got {again.description}")
check(again.issues_enabled is False, f"save() updates issues_enabled, got {again.issues_enabled}")
again.name = f"Py Renamed {prefix}"
again.save()
check(gl.projects.get(project.id).name == f"Py Renamed {prefix}", "save() renames")

# Public so the second user can star it.
again.visibility = "public"
again.save()
theirs = as_user.projects.get(project.id)
check(theirs.visibility == "public", f"the user sees the public project, got {theirs.visibility}")

# Star / unstar, with GitLab's 304 for no change.
theirs.star()
check(theirs.star_count == 1, f"star() refreshes star_count to 1, got {theirs.star_count}")
try:
    theirs.star()
    check(False, "starring twice must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 304, f"second star is 304, got {error.response_code}")
starred = as_user.projects.list(starred=True)
check([p.id for p in starred] == [project.id], f"starred list, got {[p.id for p in starred]}")
theirs.unstar()
check(theirs.star_count == 0, f"unstar() refreshes star_count to 0, got {theirs.star_count}")
try:
    theirs.unstar()
    check(False, "unstarring twice must fail")
except gitlab.exceptions.GitlabDeleteError as error:
    check(error.response_code == 304, f"second unstar is 304, got {error.response_code}")

# Archive / unarchive: idempotent for the owner; a stranger may not.
by_id.archive()
check(by_id.archived is True, f"archive() sets archived, got {by_id.archived}")
by_id.archive()
check(by_id.archived is True, "archiving twice is fine")
check(gl.projects.list(search=prefix, archived=True)[0].id == project.id, "archived=True lists it")
try:
    theirs.archive()
    check(False, "a stranger may not archive")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 403, f"stranger archive is 403, got {error.response_code}")
by_id.unarchive()
check(by_id.archived is False, f"unarchive() clears archived, got {by_id.archived}")
by_id.unarchive()
check(gl.projects.get(project.id).archived is False, "unarchiving twice is fine")

# Share / unshare: the group's members read the private project right after.
hidden = gl.projects.create({"name": f"Py Hidden {prefix}"})
group = gl.groups.create({"name": f"Py Share {prefix}", "path": f"{prefix}-share"})
group.members.create({"user_id": user.id, "access_level": gitlab.const.REPORTER_ACCESS})
try:
    as_user.projects.get(hidden.id)
    check(False, "the private project is hidden before sharing")
except gitlab.exceptions.GitlabGetError as error:
    check(error.response_code == 404, f"hidden is 404, got {error.response_code}")
hidden.share(group.id, gitlab.const.DEVELOPER_ACCESS, expires_at="2999-01-01")
shared = gl.projects.get(hidden.id).shared_with_groups
check(
    [(s["group_id"], s["group_access_level"], s["expires_at"]) for s in shared]
    == [(group.id, 30, "2999-01-01")],
    f"shared_with_groups, got {shared}",
)
check(as_user.projects.get(hidden.id).id == hidden.id, "a member of the shared group reads it")
try:
    hidden.share(group.id, gitlab.const.GUEST_ACCESS)
    check(False, "sharing twice must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 409, f"second share is 409, got {error.response_code}")
    check(error.error_message == "Group already shared with this group", f"message, got {error.error_message}")
hidden.unshare(group.id)
check(gl.projects.get(hidden.id).shared_with_groups == [], "unshare() removes the link")
try:
    hidden.unshare(group.id)
    check(False, "unsharing twice must fail")
except gitlab.exceptions.GitlabDeleteError as error:
    check(error.response_code == 404, f"second unshare is 404, got {error.response_code}")

# Upload.
image = b"\x89PNG\r\n\x1a\n" + secrets.token_bytes(128)
uploaded = project.upload("dk.png", filedata=image)
check(uploaded["alt"] == "dk", f"upload alt, got {uploaded['alt']}")
check(re.fullmatch(r"/uploads/[0-9a-f]{32}/dk\.png", uploaded["url"]) is not None, f"url, got {uploaded['url']}")
check(uploaded["markdown"] == f"![dk]({uploaded['url']})", f"markdown, got {uploaded['markdown']}")
raw = gl.http_get(f"/projects/{project.id}{uploaded['url']}", raw=True, streamed=False)
check(raw.content == image, "the uploaded bytes come back unchanged")
text = project.upload("notes.txt", filedata=b"hello")
check(text["markdown"] == f"[notes.txt]({text['url']})", f"text markdown, got {text['markdown']}")

# Members.
member = hidden.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
check(member.id == user.id and member.access_level == 30, f"members.create, got {member.id} {member.access_level}")
levels = sorted((m.username, m.access_level) for m in hidden.members.list())
check(levels == sorted([("root", 50), (f"{prefix}-user", 30)]), f"members.list(), got {levels}")
fetched = hidden.members.get(user.id)
fetched.access_level = gitlab.const.MAINTAINER_ACCESS
fetched.save()
check(hidden.members.get(user.id).access_level == 40, "member.save() changes the level")
users = hidden.users.list(search=f"{prefix}-user")
check([u.username for u in users] == [f"{prefix}-user"], f"project users search, got {[u.username for u in users]}")
fetched.delete()
try:
    hidden.members.get(user.id)
    check(False, "removed member must be gone")
except gitlab.exceptions.GitlabGetError as error:
    check(error.response_code == 404, f"removed member is 404, got {error.response_code}")

# 250 projects in a group, created through the API in parallel, then walked page by page.
bulk = gl.groups.create({"name": f"Py Bulk {prefix}", "path": f"{prefix}-bulk"})
local = threading.local()


def create(i):
    if not hasattr(local, "gl"):
        local.gl = gitlab.Gitlab(url, private_token=token)
    return local.gl.projects.create({"name": f"{prefix} Bulk {i:03d}", "namespace_id": bulk.id}).id


with ThreadPoolExecutor(max_workers=16) as pool:
    created = sorted(pool.map(create, range(250)))
check(len(set(created)) == 250, f"250 distinct projects, got {len(set(created))}")

listing = gl.projects.list(search=f"{prefix} Bulk", iterator=True)
check(listing.total == 250, f"X-Total 250, got {listing.total}")
check(listing.total_pages == 13, f"X-Total-Pages 13 at 20 a page, got {listing.total_pages}")
everything = gl.projects.list(search=f"{prefix} Bulk", get_all=True)
check(sorted(p.id for p in everything) == created, f"get_all walks every page, got {len(everything)} projects")
ordered = gl.projects.list(search=f"{prefix} Bulk", order_by="name", sort="asc", per_page=100, get_all=True)
check(
    [p.name for p in ordered] == [f"{prefix} Bulk {i:03d}" for i in range(250)],
    "get_all keeps order_by=name across pages",
)
in_group = bulk.projects.list(get_all=True, per_page=100)
check(sorted(p.id for p in in_group) == created, f"group.projects.list(get_all), got {len(in_group)}")

# Search: name, path or description, case-insensitive; simple entities.
found = gl.projects.list(search=f"PY RENAMED {prefix}".upper())
check([p.id for p in found] == [project.id], f"search by name, got {[p.id for p in found]}")
simple = gl.projects.list(search=f"Py Renamed {prefix}", simple=True)
check(not hasattr(simple[0], "visibility"), "simple=True leaves out visibility")
check(simple[0].path_with_namespace == f"root/py-project-{prefix}", "simple keeps the path")
owned = as_user.projects.list(owned=True)
check(owned == [], f"the user owns nothing, got {[p.id for p in owned]}")

# Create a project for the user as admin (POST /projects/user/:user_id), list GET /users/:id/projects.
theirs_now = user.projects.create({"name": f"Py For User {prefix}", "visibility": "internal"})
check(theirs_now.owner["id"] == user.id, f"user.projects.create, got {theirs_now.owner}")
check(theirs_now.path_with_namespace == f"{prefix}-user/py-for-user-{prefix}", "in the user's namespace")
check([p.id for p in as_user.projects.list(owned=True)] == [theirs_now.id], "the user owns it")
check([p.id for p in user.projects.list()] == [theirs_now.id], "user.projects.list()")
by_username = gl.http_list(f"/users/{prefix}-user/projects", get_all=True)
check([p["id"] for p in by_username] == [theirs_now.id], "GET /users/:username/projects")

print("ok")
