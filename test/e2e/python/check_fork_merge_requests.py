"""python-gitlab, unchanged, against the API: a merge request from a fork into its upstream.

The admin imports the fixture (main with three commits) as the upstream; a contributor forks it,
commits to a new branch of the fork through the commits API and opens the merge request from the
fork (fork.mergerequests.create with target_project_id = the upstream): it is created in the
upstream (project_id, source_project_id, target_project_id, the upstream's iid), so it is read
there (mr.changes(), mr.commits()) and not under the fork (404, as GitLab answers python-gitlab's
object made by the fork's manager). The admin merges it (mr.merge()): the upstream's main is the
merge commit, whose second parent is the fork's commit, and "Closes #1" closed the upstream's issue.

Usage: python3 check_fork_merge_requests.py <base url> <admin token> <remote url> <main>
Exits non-zero with a message on the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, idle, refused, user_with_client

url, token, remote, main_sha = sys.argv[1:5]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pyfork-{secrets.token_hex(4)}"

upstream = gl.projects.create({"name": f"{prefix}-upstream", "import_url": remote, "visibility": "public"})
idle(url)
upstream = gl.projects.get(upstream.id)
check(upstream.import_status == "finished", f"import finished, got {upstream.import_status}")
issue = upstream.issues.create({"title": "Fix me"})

contributor, as_contributor = user_with_client(gl, url, f"{prefix}-contributor", "Contributor")
fork = as_contributor.projects.get(upstream.id).forks.create({})
idle(url)
fork = as_contributor.projects.get(fork.id)
check(fork.forked_from_project["id"] == upstream.id, f"a fork of the upstream, got {fork.forked_from_project!r}")
commit = fork.commits.create(
    {
        "branch": "feature",
        "start_branch": "main",
        "commit_message": "Add from-fork.txt\n\nCloses #1",
        "actions": [{"action": "create", "file_path": "from-fork.txt", "content": "from the fork\n"}],
    }
)

created = fork.mergerequests.create(
    {"source_branch": "feature", "target_branch": "main", "title": "From the fork", "target_project_id": upstream.id}
)
check(created.project_id == upstream.id, f"created in the upstream, got project_id {created.project_id}")
check(created.source_project_id == fork.id, f"source_project_id, got {created.source_project_id}")
check(created.target_project_id == upstream.id, f"target_project_id, got {created.target_project_id}")
check(created.iid == 1, f"the upstream's first iid, got {created.iid}")
check(created.sha == commit.id, f"sha is the fork's tip, got {created.sha}")
# The object the fork's manager made names the fork's path, where no such merge request is.
refused(lambda: created.changes(), errors.GitlabListError, 404, "the merge request read under the fork")

mr = gl.projects.get(upstream.id).mergerequests.get(created.iid)
changes = mr.changes()
check(
    changes["diff_refs"] == {"base_sha": main_sha, "head_sha": commit.id, "start_sha": main_sha},
    f"diff_refs, got {changes['diff_refs']}",
)
check(changes["changes_count"] == "1", f"changes_count, got {changes['changes_count']!r}")
check([c["new_path"] for c in changes["changes"]] == ["from-fork.txt"], f"changes, got {changes['changes']}")
check([c.id for c in mr.commits()] == [commit.id], "the fork's commit is the merge request's")
check(mr.merge_status == "can_be_merged", f"mergeable, got {mr.merge_status}")

mr.merge()
check(mr.state == "merged", f"merged, got {mr.state}")
head = gl.projects.get(upstream.id).commits.get("main")
check(head.id == mr.merge_commit_sha, "the upstream's main is the merge commit")
check(head.parent_ids == [main_sha, commit.id], f"parents: main and the fork's commit, got {head.parent_ids}")
idle(url)
check(upstream.issues.get(issue.iid).state == "closed", "Closes #1 closed the upstream's issue 1")

print("ok")
