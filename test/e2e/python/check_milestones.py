"""python-gitlab, unchanged, against the API: project and group milestones.

project.milestones.create/list/get, milestone.save() (state_event close, then a new title),
milestone.delete(), milestone.issues() and .merge_requests(), an issue's and a merge request's milestone_id and the issues' milestone filter, a taken title and dates out of order refused (GitlabCreateError 400), an unknown
milestone (GitlabGetError 404); group.milestones.create/list and the group's milestone in its
project's list with include_ancestors, and its issues() and merge_requests().

Usage: python3 check_milestones.py <base url> <admin token>. Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

prefix = f"pym-{secrets.token_hex(4)}"
group = gl.groups.create({"name": prefix, "path": prefix})
project = gl.projects.create({"name": f"{prefix}-p", "namespace_id": group.id})

# Project milestones -------------------------------------------------------------------------------
v1 = project.milestones.create({"title": "v1", "description": "First", "due_date": "2999-01-31"})
check(isinstance(v1.id, int) and v1.id > 0 and v1.iid == 1, f"milestone id and iid, got {v1.id!r} {v1.iid!r}")
check(v1.project_id == project.id, f"project_id, got {v1.project_id!r}")
check(v1.title == "v1" and v1.description == "First", f"title and description, got {v1.title!r} {v1.description!r}")
check(v1.state == "active" and v1.expired is False, f"state and expired, got {v1.state!r} {v1.expired!r}")
check(v1.due_date == "2999-01-31" and v1.start_date is None, f"dates, got {v1.due_date!r} {v1.start_date!r}")
check(v1.web_url.endswith(f"/{project.path_with_namespace}/-/milestones/1"), f"web_url, got {v1.web_url!r}")
refused(lambda: project.milestones.create({"title": "v1"}), errors.GitlabCreateError, 400, "a second v1")
refused(
    lambda: project.milestones.create({"title": "back", "start_date": "2999-02-01", "due_date": "2999-01-01"}),
    errors.GitlabCreateError,
    400,
    "dates out of order",
)
v2 = project.milestones.create({"title": "v2"})
check(v2.iid == 2, f"second iid, got {v2.iid!r}")

check([m.title for m in project.milestones.list()] == ["v1", "v2"], "project milestones listed by due date")
fetched = project.milestones.get(v1.id)
check(fetched.title == "v1" and fetched.iid == 1, f"milestone read back, got {fetched.title!r}")
refused(lambda: project.milestones.get(999999999), errors.GitlabGetError, 404, "an unknown milestone")

fetched.state_event = "close"
fetched.save()
check(fetched.state == "closed", f"closed, got {fetched.state!r}")
check([m.title for m in project.milestones.list(state="closed")] == ["v1"], "closed milestones")
check([m.title for m in project.milestones.list(state="active")] == ["v2"], "active milestones")
fetched.title = "v1.0"
fetched.save()
check(project.milestones.get(v1.id).title == "v1.0", "renamed milestone read back")

# Issues carrying a milestone -----------------------------------------------------------------------
issue = project.issues.create({"title": "Planned", "milestone_id": v1.id})
check(issue.milestone is not None and issue.milestone["id"] == v1.id, f"issue milestone, got {issue.milestone!r}")
project.issues.create({"title": "Unplanned"})
carried = [i.title for i in project.milestones.get(v1.id).issues()]
check(carried == ["Planned"], f"milestone.issues(), got {carried!r}")
check([i.title for i in project.issues.list(milestone="v1.0")] == ["Planned"], "issues by milestone title")
check([i.title for i in project.issues.list(milestone="None")] == ["Unplanned"], "issues without a milestone")
issue.milestone_id = 0
issue.save()
check(project.issues.get(issue.iid).milestone is None, "milestone removed from the issue")

# Merge requests carrying a milestone ---------------------------------------------------------------
mr = project.mergerequests.create(
    {"title": "Planned MR", "source_branch": "planned", "target_branch": "master", "milestone_id": v1.id}
)
check(mr.milestone is not None and mr.milestone["id"] == v1.id, f"merge request milestone, got {mr.milestone!r}")
project.mergerequests.create({"title": "Unplanned MR", "source_branch": "unplanned", "target_branch": "master"})
carried_mrs = [m.title for m in project.milestones.get(v1.id).merge_requests()]
check(carried_mrs == ["Planned MR"], f"milestone.merge_requests(), got {carried_mrs!r}")
by_title = [m.title for m in project.mergerequests.list(milestone="v1.0")]
check(by_title == ["Planned MR"], f"merge requests by milestone title, got {by_title!r}")

v2.delete()
refused(lambda: project.milestones.get(v2.id), errors.GitlabGetError, 404, "a deleted milestone")
check([m.title for m in project.milestones.list()] == ["v1.0"], "the rest after a delete")

# Group milestones ---------------------------------------------------------------------------------
q1 = group.milestones.create({"title": "Q1", "start_date": "2999-01-01", "due_date": "2999-03-31"})
check(q1.group_id == group.id and q1.iid == 1, f"group milestone, got {q1.group_id!r} {q1.iid!r}")
check(q1.web_url.endswith(f"/groups/{group.full_path}/-/milestones/1"), f"group web_url, got {q1.web_url!r}")
check([m.title for m in group.milestones.list()] == ["Q1"], "group milestones listed")
refused(lambda: project.milestones.create({"title": "Q1"}), errors.GitlabCreateError, 400, "a project takes Q1")
seen = [m.title for m in project.milestones.list(include_ancestors=True)]
check(seen == ["v1.0", "Q1"], f"the group's milestone in its project's list, got {seen!r}")

project.issues.create({"title": "Quarterly", "milestone_id": q1.id})
project.mergerequests.create(
    {"title": "Quarterly MR", "source_branch": "quarterly", "target_branch": "master", "milestone_id": q1.id}
)
group_issues = [i.title for i in q1.issues()]
check(group_issues == ["Quarterly"], f"group_milestone.issues(), got {group_issues!r}")
group_mrs = [m.title for m in q1.merge_requests()]
check(group_mrs == ["Quarterly MR"], f"group_milestone.merge_requests(), got {group_mrs!r}")

print("ok")
