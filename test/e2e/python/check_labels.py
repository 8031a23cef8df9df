"""python-gitlab, unchanged, against the API: project and group labels, labels on issues.

project.labels.create/list/get, label.save() (colour, then a new name), subscribe/unsubscribe,
label.delete(), a duplicate refused (GitlabCreateError 409), an unknown label (GitlabGetError 404);
issue.labels = [...]; issue.save() (a new title becomes a project label), project.issues.list()
by labels, Any and None; group.labels.create/list; label.promote().

Usage: python3 check_labels.py <base url> <admin token>. Exits non-zero with a message on the
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

prefix = f"pyl-{secrets.token_hex(4)}"
group = gl.groups.create({"name": prefix, "path": prefix})
project = gl.projects.create({"name": f"{prefix}-p", "namespace_id": group.id})

# Project labels -----------------------------------------------------------------------------------
bug = project.labels.create({"name": "bug", "color": "#FF0000", "description": "Broken"})
check(isinstance(bug.id, int) and bug.id > 0, f"label id, got {bug.id!r}")
check(bug.name == "bug" and bug.color == "#FF0000", f"label name and colour, got {bug.name!r} {bug.color!r}")
check(bug.text_color == "#FFFFFF", f"text_color, got {bug.text_color!r}")
check(bug.description == "Broken" and bug.description_html == "Broken", f"description, got {bug.description!r}")
check(bug.subscribed is False and bug.priority is None, f"subscribed and priority, got {bug.subscribed!r} {bug.priority!r}")
check(bug.is_project_label is True, f"is_project_label, got {bug.is_project_label!r}")
refused(
    lambda: project.labels.create({"name": "bug", "color": "#000000"}),
    errors.GitlabCreateError,
    409,
    "a second label named bug",
)
refused(
    lambda: project.labels.create({"name": "bad", "color": "not a colour"}),
    errors.GitlabCreateError,
    400,
    "a label with a bad colour",
)

check([label.name for label in project.labels.list()] == ["bug"], "project labels listed")
fetched = project.labels.get("bug")
check(fetched.id == bug.id, f"label read by name, got {fetched.id!r}")
refused(lambda: project.labels.get("nothing"), errors.GitlabGetError, 404, "an unknown label")

fetched.color = "lightgreen"
fetched.save()
check(fetched.color == "#90EE90", f"colour saved as hex, got {fetched.color!r}")
check(project.labels.get(bug.id).color == "#90EE90", "saved colour read back")
fetched.new_name = "defect"
fetched.save()
check(fetched.name == "defect", f"renamed, got {fetched.name!r}")

fetched.subscribe()
check(fetched.subscribed is True, "subscribed")
fetched.unsubscribe()
check(fetched.subscribed is False, "unsubscribed")

fetched.delete()
check(project.labels.list() == [], "label deleted")

# Group labels -------------------------------------------------------------------------------------
team = group.labels.create({"name": "team", "color": "#0000FF"})
check(team.is_project_label is False, f"group label is no project label, got {team.is_project_label!r}")
check([label.name for label in group.labels.list()] == ["team"], "group labels listed")

# Labels on issues ---------------------------------------------------------------------------------
first = project.issues.create({"title": "First"})
second = project.issues.create({"title": "Second"})
first.labels = ["team", "needs-review"]
first.save()
check(sorted(first.labels) == ["needs-review", "team"], f"issue labels saved, got {first.labels!r}")
check(
    sorted(project.issues.get(first.iid).labels) == ["needs-review", "team"],
    "issue labels read back",
)
names = sorted(label.name for label in project.labels.list())
check(names == ["needs-review", "team"], f"a new title became a project label, got {names!r}")
created = project.labels.get("needs-review")
check(created.color == "#428BCA" and created.is_project_label is True, f"the created label, got {created.color!r}")


def titles(**filters):
    return sorted(issue.title for issue in project.issues.list(all=True, **filters))


check(titles(labels=["team"]) == ["First"], "issues with the label team")
check(titles(labels=["team", "needs-review"]) == ["First"], "issues with both labels")
check(titles(labels=["team", "other"]) == [], "issues with a label none has")
check(titles(labels="Any") == ["First"], "issues with any label")
check(titles(labels="None") == ["Second"], "issues with no label")
check(second.labels == [], f"an issue without labels, got {second.labels!r}")

counted = {
    label.name: (label.open_issues_count, label.closed_issues_count, label.open_merge_requests_count)
    for label in project.labels.list(with_counts=True)
}
check(counted == {"needs-review": (1, 0, 0), "team": (1, 0, 0)}, f"labels with counts, got {counted!r}")
second.labels = ["team"]
second.state_event = "close"
second.save()
counted = {label.name: label.closed_issues_count for label in group.labels.list(with_counts=True)}
check(counted == {"team": 1}, f"a closed issue counted on the group's label, got {counted!r}")
check(not hasattr(project.labels.list()[0], "open_issues_count"), "no counts unless asked")

# Promotion to the group -------------------------------------------------------------------------
promo = project.labels.create({"name": "promo", "color": "#00FF00"})
promo.promote()
check(sorted(label.name for label in group.labels.list()) == ["promo", "team"], "the promoted label is the group's")
check(project.labels.get("promo").is_project_label is False, "the project sees the group's label")

print("ok")
