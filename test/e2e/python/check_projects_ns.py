"""python-gitlab, unchanged, against the API: project transfer, namespaces and project bounds.

project.transfer() into a group by id and back to the user's namespace by path (the project's
path follows; a clash is GitlabTransferProjectError 400), gl.namespaces.list() (the user's own
namespace and groups, search), gl.namespaces.get() by id and by path (404 for another user's),
gl.namespaces.exists(), and gl.projects.list(id_after=..., id_before=..., order_by="id").

Usage: python3 check_projects_ns.py <base url> <admin token>. Exits non-zero with a message on
the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client


def main():
    base_url, admin_token = sys.argv[1], sys.argv[2]
    admin = gitlab.Gitlab(base_url, private_token=admin_token)
    suffix = secrets.token_hex(4)
    user, gl = user_with_client(admin, base_url, f"ns-{suffix}", f"ns-{suffix}", token_name="e2e")
    group = admin.groups.create({"name": f"nsg-{suffix}", "path": f"nsg-{suffix}"})
    group.members.create({"user_id": user.id, "access_level": 40})

    # Transfer: into the group by id, then back to the personal namespace by path.
    project = gl.projects.create({"name": f"moving-{suffix}"})
    project.transfer(group.id)
    moved = gl.projects.get(project.id)
    check(moved.path_with_namespace == f"{group.full_path}/{project.path}", f"moved path {moved.path_with_namespace}")
    check(moved.namespace["id"] == group.id, "namespace is the group")
    moved.transfer(user.username)
    back = gl.projects.get(project.id)
    check(back.path_with_namespace == f"{user.username}/{project.path}", f"back path {back.path_with_namespace}")
    gl.projects.create({"name": project.name, "path": project.path, "namespace_id": group.id})
    error = refused(lambda: back.transfer(group.full_path), errors.GitlabTransferProjectError, 400, "clash")
    check("Project with same name or path in target namespace already exists" in str(error.error_message),
          f"clash message {error.error_message}")
    refused(lambda: back.transfer(f"nowhere-{suffix}"), errors.GitlabTransferProjectError, 404, "no namespace")

    # Namespaces.
    namespaces = gl.namespaces.list()
    paths = [namespace.full_path for namespace in namespaces]
    check(paths == [user.username, group.full_path], f"namespaces {paths}")
    check(namespaces[0].kind == "user" and namespaces[1].kind == "group", "kinds")
    searched = gl.namespaces.list(search=group.path)
    check([namespace.id for namespace in searched] == [group.id], "search")
    by_id = gl.namespaces.get(namespaces[0].id)
    check(by_id.path == user.username, "get by id")
    by_path = gl.namespaces.get(group.full_path)
    check(by_path.id == group.id and by_path.kind == "group", "get by path")
    refused(lambda: gl.namespaces.get("root"), errors.GitlabGetError, 404, "another user's namespace")
    check(len(admin.namespaces.list(get_all=True)) >= 3, "admin sees every namespace")
    exists = gl.namespaces.exists(group.path)
    check(exists.exists is True and exists.suggests == [f"{group.path}1"], f"exists {exists.attributes}")
    check(gl.namespaces.exists(f"free-{suffix}").exists is False, "free path")

    # Project bounds.
    created = [gl.projects.create({"name": f"bound-{suffix}-{index}"}) for index in range(3)]
    first, middle, last = (project.id for project in created)
    bounded = gl.projects.list(owned=True, order_by="id", sort="asc", id_after=first, id_before=last)
    check([project.id for project in bounded] == [middle], f"id bounds {[project.id for project in bounded]}")
    after = gl.projects.list(owned=True, order_by="id", sort="asc", id_after=middle)
    check([project.id for project in after] == [last], "id_after")
    print("ok")


if __name__ == "__main__":
    main()
