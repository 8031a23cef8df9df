"""python-gitlab, unchanged, against the API: changing a repository through it.

project.files.create/get/update/delete (with last_commit_id, and its refusal), a first commit to
an empty project (default_branch follows), project.branches.create/list/delete,
project.commits.create with actions (create, update, move, chmod, delete), then
project.repository_tree and project.repository_compare reading what was written.

Usage: python3 check_commits.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import base64
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused

url, token = sys.argv[1:3]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
me = gl.user
project = gl.projects.create({"name": f"pyc-{secrets.token_hex(4)}"})

# A first commit to an empty project makes its branch, which becomes the default one.
created = project.files.create(
    {"file_path": "docs/readme.md", "branch": "trunk", "content": "# Hello\n", "commit_message": "First"}
)
check(created.file_path == "docs/readme.md", f"files.create answers the path, got {created.file_path!r}")
project = gl.projects.get(project.id)
check(project.default_branch == "trunk", f"default_branch follows the first branch, got {project.default_branch!r}")

read = project.files.get(file_path="docs/readme.md", ref="trunk")
check(read.decode() == b"# Hello\n", f"files.get reads what was written, got {read.decode()!r}")
first_commit = read.last_commit_id

read.content = "# Hello again\n"
read.save(branch="trunk", commit_message="Second", last_commit_id=first_commit)
again = project.files.get(file_path="docs/readme.md", ref="trunk")
check(again.decode() == b"# Hello again\n", "files update changed the content")
check(again.last_commit_id != first_commit, "the update is a new commit")

stale = project.files.get(file_path="docs/readme.md", ref="trunk")
stale.content = "lost"
error = refused(
    lambda: stale.save(branch="trunk", commit_message="Stale", last_commit_id=first_commit),
    errors.GitlabUpdateError,
    400,
    "an update from a stale last_commit_id",
)
check("changed since you started editing" in str(error.error_message), f"the conflict's words, got {error.error_message!r}")

# Branches: create from the default branch, list, delete.
branch = project.branches.create({"branch": "feature/py", "ref": "trunk"})
check(branch.commit["id"] == again.last_commit_id, "the branch starts at trunk's tip")
check(sorted(b.name for b in project.branches.list()) == ["feature/py", "trunk"], "branches.list")

# One commit of several actions on the new branch.
commit = project.commits.create(
    {
        "branch": "feature/py",
        "commit_message": "Many actions",
        "actions": [
            {"action": "create", "file_path": "src/tool.sh", "content": "#!/bin/sh\necho hi\n", "execute_filemode": True},
            {
                "action": "create",
                "file_path": "data.bin",
                "content": base64.b64encode(b"\x00\x01\x02").decode(),
                "encoding": "base64",
            },
            {"action": "move", "file_path": "docs/README.md", "previous_path": "docs/readme.md"},
        ],
    }
)
check(commit.parent_ids == [again.last_commit_id], f"the commit's parent is the branch's tip, got {commit.parent_ids}")
check(commit.author_email == me.email and commit.committer_email == me.email, "the caller authors and commits")
check(commit.stats["total"] >= 3, f"stats of the commit, got {commit.stats}")

tree = project.repository_tree(ref="feature/py", recursive=True, get_all=True)
files = {entry["path"]: entry["mode"] for entry in tree if entry["type"] == "blob"}
check(
    files == {"data.bin": "100644", "docs/README.md": "100644", "src/tool.sh": "100755"},
    f"repository_tree shows the commit's files, got {files}",
)

compare = project.repository_compare("trunk", "feature/py")
check([c["id"] for c in compare["commits"]] == [commit.id], f"compare lists the new commit, got {compare['commits']}")
check(
    sorted(d["new_path"] for d in compare["diffs"]) == ["data.bin", "docs/README.md", "docs/readme.md", "src/tool.sh"],
    f"compare's diffs, got {[d['new_path'] for d in compare['diffs']]}",
)

deleted = project.commits.create(
    {
        "branch": "feature/py",
        "commit_message": "Delete and chmod",
        "actions": [
            {"action": "delete", "file_path": "data.bin"},
            {"action": "chmod", "file_path": "src/tool.sh", "execute_filemode": False},
        ],
    }
)
check(deleted.parent_ids == [commit.id], "a second commit follows the first")
mode = project.files.get(file_path="src/tool.sh", ref="feature/py").execute_filemode
check(mode is False, f"chmod made the file not executable, got {mode!r}")
refused(
    lambda: project.files.get(file_path="data.bin", ref="feature/py"), errors.GitlabGetError, 404, "a deleted file"
)

# files.delete, then the branch goes.
project.files.delete(file_path="docs/README.md", branch="feature/py", commit_message="Remove readme")
refused(
    lambda: project.files.get(file_path="docs/README.md", ref="feature/py"), errors.GitlabGetError, 404, "deleted"
)
project.branches.delete("feature/py")
check([b.name for b in project.branches.list()] == ["trunk"], "the branch is gone")

print("ok")
