"""python-gitlab, unchanged, against the API: merge requests between real branches.

A project imports the fixture (main; `feature` diverged from it, its last commit naming "Fixes #1";
`clash` conflicting with main), issue 1 is opened, then: mr.changes() (diff_refs, changes_count,
the files), mr.commits() (newest first), mr.merge_ref() (the commit merging feature into main, read
back by its id; the same one when asked again), the conflicting merge request refused by
mr.merge() (405) and mr.merge_ref() (400), mr.rebase() (the source replayed on main), mr.merge(should_remove_source_branch=True) (merged, the
merge commit on main, the source branch gone, issue 1 closed).

Usage: python3 check_merge_requests.py <base url> <admin token> <remote url> <main> <base> <feature>
Exits non-zero with a message on the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, idle, refused

url, token, remote, main_sha, base_sha, feature_sha = sys.argv[1:7]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

project = gl.projects.create({"name": f"pymr-{secrets.token_hex(4)}", "import_url": remote})
idle(url)
project = gl.projects.get(project.id)
check(project.import_status == "finished", f"import finished, got {project.import_status}")
issue = project.issues.create({"title": "Fix me"})
idle(url)

mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
check(mr.sha == feature_sha, f"sha is the source tip, got {mr.sha}")
changes = mr.changes()
check(
    changes["diff_refs"] == {"base_sha": base_sha, "head_sha": feature_sha, "start_sha": main_sha},
    f"diff_refs, got {changes['diff_refs']}",
)
check(changes["changes_count"] == "2", f"changes_count, got {changes['changes_count']!r}")
check([c["new_path"] for c in changes["changes"]] == ["f.txt", "n.txt"], f"changes, got {changes['changes']}")
check(changes["changes"][1]["new_file"] is True, "n.txt is a new file")
commits = list(mr.commits())
check([c.title for c in commits] == ["Add n", "Capital A"], f"commits newest first, got {[c.title for c in commits]}")

merge_ref = mr.merge_ref()
check(sorted(merge_ref) == ["commit_id"], f"merge_ref answer, got {merge_ref!r}")
merged_preview = project.commits.get(merge_ref["commit_id"])
check(
    merged_preview.parent_ids == [main_sha, feature_sha],
    f"the merge ref merges feature into main, got {merged_preview.parent_ids}",
)
check(mr.merge_ref() == merge_ref, "the same merge ref for the same tips")

clash = project.mergerequests.create({"source_branch": "clash", "target_branch": "main", "title": "Clash"})
check(clash.has_conflicts is True, "the clash has conflicts")
refused(lambda: clash.merge(), errors.GitlabMRClosedError, 405, "merging a conflicting merge request")
error = refused(lambda: clash.merge_ref(), errors.GitlabGetError, 400, "the merge ref of a conflicting merge request")
check(
    error is not None and error.error_message == "Merge request is not mergeable",
    f"its message, got {error and error.error_message!r}",
)
listed = {entry.iid: entry.sha for entry in project.mergerequests.list(state="opened")}
check(listed == {mr.iid: feature_sha, clash.iid: clash.sha}, f"lists show each source tip, got {listed}")

rebased = mr.rebase()
check(rebased == {"rebase_in_progress": False}, f"rebase answer, got {rebased!r}")
mr = project.mergerequests.get(mr.iid, include_rebase_in_progress=True)
check(mr.diff_refs["base_sha"] == main_sha, f"rebased on main, got {mr.diff_refs}")

mr.merge(should_remove_source_branch=True)
check(mr.state == "merged", f"merged, got {mr.state}")
head = project.commits.get("main")
check(head.id == mr.merge_commit_sha, "main is the merge commit")
check(head.parent_ids[0] == main_sha, f"the merge commit's first parent is main, got {head.parent_ids}")
refused(lambda: project.branches.get("feature"), errors.GitlabGetError, 404, "the source branch is gone")
idle(url)
check(project.issues.get(issue.iid).state == "closed", "Fixes #1 closed issue 1")

print("ok")
