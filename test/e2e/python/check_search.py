"""python-gitlab, unchanged, against the API: the search API at each level.

gl.search with the projects, users, issues and snippet_titles scopes (global), group.search
(milestones among them), project.search (notes among them), pagination through the client's list
(per_page=1, all=True follows the Link header), and GitlabSearchError for a scope the level does
not offer.

Usage: python3 check_search.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
import gitlab.const
from gitlab import exceptions as errors

from e2e_checks import check


url, token = sys.argv[1:3]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
tag = secrets.token_hex(5)

group = gl.groups.create({"name": f"pys-{tag}", "path": f"pys-{tag}", "visibility": "public"})
first = gl.projects.create({"name": f"one-{tag}", "namespace_id": group.id, "visibility": "public"})
second = gl.projects.create({"name": f"two-{tag}", "namespace_id": group.id, "visibility": "private"})
issue = first.issues.create({"title": f"found {tag}"})
user = gl.users.create(
    {"username": f"pyu-{tag}", "email": f"pyu-{tag}@example.com", "name": f"Py {tag}", "password": "password123"}
)

found = gl.search(gitlab.const.SEARCH_SCOPE_PROJECTS, tag)
check([p["id"] for p in found] == [second.id, first.id], f"global projects: {found}")
check(found[1]["path_with_namespace"] == f"pys-{tag}/one-{tag}", f"project entity: {found[1]}")

paged = gl.search(gitlab.const.SEARCH_SCOPE_PROJECTS, tag, per_page=1, all=True)
check([p["id"] for p in paged] == [second.id, first.id], f"all pages: {paged}")

users = gl.search(gitlab.const.SEARCH_SCOPE_USERS, f"pyu-{tag}")
check([u["id"] for u in users] == [user.id], f"global users: {users}")
check(users[0]["username"] == f"pyu-{tag}", f"user entity: {users[0]}")

groups = gl.search("groups", tag)
check(groups == [{"id": group.id, "name": f"pys-{tag}", "path": f"pys-{tag}", "description": ""}], f"groups: {groups}")

in_group = group.search(gitlab.const.SEARCH_SCOPE_PROJECTS, f"one-{tag}")
check([p["id"] for p in in_group] == [first.id], f"group projects: {in_group}")
group_issues = group.search(gitlab.const.SEARCH_SCOPE_ISSUES, tag)
check([i["id"] for i in group_issues] == [issue.id], f"group issues: {group_issues}")

in_project = first.search(gitlab.const.SEARCH_SCOPE_ISSUES, "found")
check([i["iid"] for i in in_project] == [issue.iid], f"project issues: {in_project}")
check(first.search(gitlab.const.SEARCH_SCOPE_MILESTONES, tag) == [], "project milestones")

try:
    first.search(gitlab.const.SEARCH_SCOPE_PROJECTS, tag)
    check(False, "projects scope in a project should be refused")
except errors.GitlabSearchError as error:
    check(error.response_code == 400, f"refusal code: {error.response_code}")
    check("scope does not have a valid value" in str(error), f"refusal message: {error}")

note = issue.notes.create({"body": f"a remark {tag}"})
issue.notes.create({"body": "nothing to find"})
notes = first.search("notes", f"remark {tag}")
check([n["id"] for n in notes] == [note.id], f"project notes: {notes}")
check(notes[0]["noteable_type"] == "Issue" and notes[0]["noteable_iid"] == issue.iid, f"note entity: {notes[0]}")

snippet = gl.snippets.create(
    {"title": f"snip {tag}", "file_name": "a.txt", "content": "x", "visibility": "private"}
)
snippets = gl.search("snippet_titles", f"snip {tag}")
check([s["id"] for s in snippets] == [snippet.id], f"snippet titles: {snippets}")
check(snippets[0]["project_id"] is None and snippets[0]["title"] == f"snip {tag}", f"snippet entity: {snippets[0]}")

milestone = second.milestones.create({"title": f"ms {tag}"})
milestones = group.search(gitlab.const.SEARCH_SCOPE_MILESTONES, f"ms {tag}")
check([m["id"] for m in milestones] == [milestone.id], f"group milestones: {milestones}")
check(milestones[0]["project_id"] == second.id, f"milestone entity: {milestones[0]}")
check(gl.search(gitlab.const.SEARCH_SCOPE_MILESTONES, f"ms {tag}")[0]["id"] == milestone.id, "global milestones")

try:
    group.search("notes", tag)
    check(False, "notes scope in a group should be refused")
except errors.GitlabSearchError as error:
    check(error.response_code == 400, f"group notes refusal code: {error.response_code}")

print("ok")
