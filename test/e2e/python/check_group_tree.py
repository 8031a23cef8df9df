"""python-gitlab, unchanged, against the API: the group tree.

group.descendant_groups.list() (the whole subtree, not the group itself), group.transfer(parent_id)
and group.transfer() to the top level (paths of the subtree and its projects follow; a second
transfer to the top level raises GitlabGroupTransferError 400), gl.groups.list(visibility=...)
and group.projects.list(include_subgroups=True).

Usage: python3 check_group_tree.py <base url> <admin token>
Exits non-zero with a message on the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check


url, token = sys.argv[1:3]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pyt-{secrets.token_hex(4)}"


def group(name, parent=None, visibility="private"):
    data = {"name": f"{prefix}-{name}", "path": f"{prefix}-{name}", "visibility": visibility}
    if parent is not None:
        data["parent_id"] = parent.id
    return gl.groups.create(data)


root = group("root", visibility="public")
child = group("child", root, visibility="public")
grandchild = group("grandchild", child, visibility="internal")
other = group("other")
project = gl.projects.create({"name": f"{prefix}-app", "namespace_id": grandchild.id})
top_project = gl.projects.create({"name": f"{prefix}-top", "namespace_id": root.id})

# descendant_groups: every group below, at any depth, never the group itself.
descendants = root.descendant_groups.list(all=True)
check(
    sorted(d.id for d in descendants) == sorted([child.id, grandchild.id]),
    f"descendant_groups: {[d.full_path for d in descendants]}",
)
check(
    all(type(d).__name__ == "GroupDescendantGroup" for d in descendants),
    f"descendant objects: {[type(d).__name__ for d in descendants]}",
)
check(child.descendant_groups.list() and child.descendant_groups.list()[0].id == grandchild.id, "child's descendants")
check(grandchild.descendant_groups.list() == [], "a leaf has no descendants")

# include_subgroups: the whole subtree's projects.
with_sub = root.projects.list(include_subgroups=True, all=True)
check(
    sorted(p.id for p in with_sub) == sorted([project.id, top_project.id]),
    f"include_subgroups: {[p.path_with_namespace for p in with_sub]}",
)
check([p.id for p in root.projects.list(all=True)] == [top_project.id], "without include_subgroups")

# visibility on GET /groups.
internal = gl.groups.list(visibility="internal", all=True)
check(all(g.visibility == "internal" for g in internal), "visibility=internal lists only internal groups")
check(grandchild.id in [g.id for g in internal], "visibility=internal includes the internal subgroup")
check(root.id not in [g.id for g in internal], "visibility=internal leaves the public group out")
public = gl.groups.list(visibility="public", search=prefix, all=True)
check(sorted(g.id for g in public) == sorted([root.id, child.id]), f"visibility=public: {[(g.id, g.name) for g in public]} vs {[root.id, child.id]}")

# transfer(parent_id): the subtree and its projects follow; visibility is lowered to the new parent's.
child.transfer(other.id)
moved = gl.groups.get(child.id)
check(moved.parent_id == other.id, f"parent after transfer: {moved.parent_id}")
check(moved.full_path == f"{other.full_path}/{child.path}", f"full_path after transfer: {moved.full_path}")
check(moved.visibility == "private", f"visibility after transfer: {moved.visibility}")
moved_grandchild = gl.groups.get(grandchild.id)
check(
    moved_grandchild.full_path == f"{other.full_path}/{child.path}/{grandchild.path}",
    f"grandchild after transfer: {moved_grandchild.full_path}",
)
moved_project = gl.projects.get(project.id)
check(
    moved_project.path_with_namespace == f"{moved_grandchild.full_path}/{project.path}",
    f"project after transfer: {moved_project.path_with_namespace}",
)
check(gl.projects.get(moved_project.path_with_namespace).id == project.id, "project found by its new path")
check(sorted(d.id for d in other.descendant_groups.list()) == sorted([child.id, grandchild.id]), "other's descendants")
check(root.descendant_groups.list() == [], "root has no descendants left")

# transfer() to the top level, then again: GitLab's refusal.
moved.transfer()
top = gl.groups.get(child.id)
check(top.parent_id is None and top.full_path == child.path, f"top level: {top.parent_id} {top.full_path}")
check(
    gl.projects.get(project.id).path_with_namespace == f"{child.path}/{grandchild.path}/{project.path}",
    "project under the top-level group",
)
try:
    top.transfer()
    check(False, "a second transfer to the top level succeeded")
except errors.GitlabGroupTransferError as error:
    check(error.response_code == 400, f"second transfer: {error.response_code}")
    check(
        "Transfer failed: Group is already a root group." in str(error.error_message),
        f"second transfer message: {error.error_message}",
    )
try:
    other.transfer(top.id)
    other.transfer(grandchild.id)
except errors.GitlabGroupTransferError as error:
    check(False, f"transfer under a subtree: {error}")
try:
    top.transfer(grandchild.id)
    check(False, "a transfer into its own subgroup succeeded")
except errors.GitlabGroupTransferError as error:
    check(error.response_code == 400, f"into own subgroup: {error.response_code}")
    check("Cannot transfer group to one of its subgroup." in str(error.error_message), f"{error.error_message}")

print("ok")
