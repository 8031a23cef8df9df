"""python-gitlab, unchanged, against the API: award emoji.

On an issue: awardemojis.create/list/get/delete, the entity's fields, the vote counted in the
issue's upvotes, a second identical award refused (GitlabCreateError 404), someone else's award
not theirs to remove (401); on an issue note: note.awardemojis.create/list; on a merge request
and a project snippet: create, list, get and delete.

Usage: python3 check_award_emoji.py <base url> <admin token>. Exits non-zero with a message on
the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
root = gl.user

prefix = f"pya-{secrets.token_hex(4)}"
other, as_other = user_with_client(gl, url, f"{prefix}-other", "Py other")


def check_award(award, name, awardable_id, awardable_type, user=None):
    """The fields every award shows (GitLab's AwardEmoji entity)."""
    user = user or root
    check(award.name == name, f"award name {name!r}, got {award.name!r}")
    check(isinstance(award.id, int) and award.id > 0, f"award id, got {award.id!r}")
    check(award.awardable_id == awardable_id, f"awardable_id {awardable_id}, got {award.awardable_id!r}")
    check(award.awardable_type == awardable_type, f"awardable_type {awardable_type}, got {award.awardable_type!r}")
    check(award.user["id"] == user.id, f"award user id {user.id}, got {award.user}")
    check(award.user["username"] == user.username, f"award user username, got {award.user}")
    check(isinstance(award.created_at, str) and award.created_at.endswith("Z"), f"created_at, got {award.created_at!r}")
    check(award.updated_at == award.created_at, f"updated_at, got {award.updated_at!r}")


def round_trip(parent, awardable_id, awardable_type):
    """create, list, get and delete on one awardable."""
    award = parent.awardemojis.create({"name": "tada"})
    check_award(award, "tada", awardable_id, awardable_type)
    listed = parent.awardemojis.list()
    check([a.id for a in listed] == [award.id], f"{awardable_type} awards listed, got {[a.id for a in listed]}")
    fetched = parent.awardemojis.get(award.id)
    check_award(fetched, "tada", awardable_id, awardable_type)
    refused(
        lambda: parent.awardemojis.create({"name": "tada"}),
        errors.GitlabCreateError,
        404,
        f"the same {awardable_type} award twice",
    )
    fetched.delete()
    check(parent.awardemojis.list() == [], f"{awardable_type} award deleted")
    refused(lambda: parent.awardemojis.get(award.id), errors.GitlabGetError, 404, f"a deleted {awardable_type} award")


project = gl.projects.create({"name": f"{prefix} awards", "visibility": "public"})

# Issues and their notes ---------------------------------------------------------------------------
issue = project.issues.create({"title": "Awarded"})
round_trip(issue, issue.id, "Issue")
up = issue.awardemojis.create({"name": "thumbsup"})
check_award(up, "thumbsup", issue.id, "Issue")
alias = as_other.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True).awardemojis.create({"name": "+1"})
check_award(alias, "thumbsup", issue.id, "Issue", user=other)
check(project.issues.get(issue.iid).upvotes == 2, "two thumbsup are two upvotes")
refused(
    lambda: issue.awardemojis.create({"name": "no_such_emoji"}),
    errors.GitlabCreateError,
    404,
    "a name that is no emoji",
)
theirs = as_other.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True).awardemojis.get(up.id)
refused(theirs.delete, errors.GitlabAuthenticationError, 401, "removing someone else's award")
issue.awardemojis.delete(up.id)
check(project.issues.get(issue.iid).upvotes == 1, "a removed thumbsup is no upvote")

note = issue.notes.create({"body": "a note"})
note_award = note.awardemojis.create({"name": "eyes"})
check_award(note_award, "eyes", note.id, "Note")
check([a.id for a in note.awardemojis.list()] == [note_award.id], "note awards listed")
check(note.awardemojis.get(note_award.id).name == "eyes", "note award read")
check([a.id for a in issue.awardemojis.list()] == [alias.id], "a note's awards are not the issue's")

# Merge requests -----------------------------------------------------------------------------------
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "master", "title": "Awarded"})
round_trip(mr, mr.id, "MergeRequest")
mr.awardemojis.create({"name": "thumbsdown"})
check(project.mergerequests.get(mr.iid).downvotes == 1, "a thumbsdown is a downvote")

# The caller's own reactions filter the lists --------------------------------------------------------
quiet = project.issues.create({"title": "Not awarded"})
issue.awardemojis.create({"name": "thumbsup"})


def iids(**filters):
    return sorted(item.iid for item in project.issues.list(all=True, **filters))


check(iids(my_reaction_emoji="thumbsup") == [issue.iid], "issues with my thumbsup")
check(iids(my_reaction_emoji="Any") == [issue.iid], "issues with any award of mine")
check(iids(my_reaction_emoji="None") == [quiet.iid], "issues without an award of mine")
check(
    [item.iid for item in project.mergerequests.list(my_reaction_emoji="thumbsdown")] == [mr.iid],
    "merge requests with my thumbsdown",
)

# Project snippets ---------------------------------------------------------------------------------
snippet = project.snippets.create({"title": "Snip", "file_name": "s.py", "content": "x = 1\n", "visibility": "public"})
round_trip(snippet, snippet.id, "Snippet")

print("ok")
