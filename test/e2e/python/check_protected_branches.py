"""python-gitlab, unchanged, against the API: protected branches.

The default branch an import protects; project.protectedbranches create (with access levels, a
wildcard name), list, get (an encoded pattern too) and delete; 409 for a name protected twice, 404
once unprotected, 403 to a developer; and the branch's `protected` as project.branches shows it.

Usage: python3 check_protected_branches.py <base url> <admin token> <remote url>
Exits non-zero with a message on the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, idle, refused, user_with_client

url, token, remote = sys.argv[1:4]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pyp-{secrets.token_hex(4)}"

project = gl.projects.create({"name": f"{prefix} protected", "import_url": remote})
idle(url)
project = gl.projects.get(project.id)
check(project.import_status == "finished", f"import finished, got {project.import_status}")

# The import protected its default branch (maintainers push and merge); unprotected, it is protected again.
imported = project.protectedbranches.get("trunk")
check([level["access_level"] for level in imported.push_access_levels] == [40], f"default push {imported.push_access_levels}")
check(
    [level["access_level"] for level in imported.merge_access_levels] == [40],
    f"default merge {imported.merge_access_levels}",
)
check([protection.name for protection in project.protectedbranches.list()] == ["trunk"], "only the default branch")
project.protectedbranches.delete("trunk")

trunk = project.protectedbranches.create(
    {
        "name": "trunk",
        "push_access_level": gitlab.const.MAINTAINER_ACCESS,
        "merge_access_level": gitlab.const.DEVELOPER_ACCESS,
    }
)
check(trunk.name == "trunk", f"name, got {trunk.name!r}")
check([level["access_level"] for level in trunk.push_access_levels] == [40], f"push levels {trunk.push_access_levels}")
check([level["access_level"] for level in trunk.merge_access_levels] == [30], f"merge levels {trunk.merge_access_levels}")
check(
    trunk.merge_access_levels[0]["access_level_description"] == "Developers + Maintainers",
    f"description, got {trunk.merge_access_levels[0]}",
)
check(trunk.allow_force_push is False, "allow_force_push defaults to false")

releases = project.protectedbranches.create({"name": "release/*", "push_access_level": gitlab.const.NO_ACCESS})
check(
    releases.push_access_levels[0]["access_level_description"] == "No one", f"No one, got {releases.push_access_levels}"
)
refused(lambda: project.protectedbranches.create({"name": "trunk"}), errors.GitlabCreateError, 409, "a second protection")

listed = [protection.name for protection in project.protectedbranches.list()]
check(listed == ["trunk", "release/*"], f"list, got {listed}")
got = project.protectedbranches.get("release/*")
check(got.id == releases.id, f"get of a pattern, got {got.id} for {releases.id}")
check(project.branches.get("trunk").protected is True, "the branch shows its protection")

dev_user, developer = user_with_client(gl, url, f"{prefix}-dev", "Developer")
project.members.create({"user_id": dev_user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
as_developer = developer.projects.get(project.id, lazy=True)
refused(
    lambda: as_developer.protectedbranches.create({"name": "dev"}), errors.GitlabCreateError, 403, "a developer protects"
)
check(
    [protection.name for protection in as_developer.protectedbranches.list()] == ["trunk", "release/*"],
    "a developer reads the protections",
)

project.protectedbranches.delete("release/*")
refused(lambda: project.protectedbranches.get("release/*"), errors.GitlabGetError, 404, "unprotected")
refused(lambda: project.protectedbranches.delete("release/*"), errors.GitlabDeleteError, 404, "unprotected twice")

print("ok")
