"""python-gitlab, unchanged, against the API: notes and the parents they hang on.

Issues (create, list, get, close and reopen with their system notes, open_issues_count, delete),
merge requests, project snippets and group epics, each with notes.create/list/get, note.save()
and note.delete(); who may see and change what (GitlabGetError 404 for a stranger on a private
project, 403 for a non-author, 401 without a token); get_all over several pages of notes.

Usage: python3 check_notes.py <base url> <admin token> [part ...], parts among issues,
merge_requests, snippets, epics (all when none is named). Exits non-zero with a message on the
first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors
from gitlab.v4.objects import GroupEpic

from e2e_checks import check, refused, user_with_client


url, token = sys.argv[1], sys.argv[2]
parts = set(sys.argv[3:]) or {"issues", "merge_requests", "snippets", "epics"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
root = gl.user

prefix = f"pyn-{secrets.token_hex(4)}"


def new_user(name):
    return user_with_client(gl, url, f"{prefix}-{name}", f"Py {name}")


stranger, as_stranger = new_user("stranger")
anonymous = gitlab.Gitlab(url)


def check_note(note, body, parent_type, parent_id, parent_iid, author=None, system=False):
    """The fields every note shows (GitLab's Note entity)."""
    author = author or root
    check(note.body == body, f"{parent_type} note body {body!r}, got {note.body!r}")
    check(note.system is system, f"{parent_type} note system {system}, got {note.system!r}")
    check(note.noteable_type == parent_type, f"noteable_type {parent_type}, got {note.noteable_type!r}")
    check(note.noteable_id == parent_id, f"{parent_type} noteable_id {parent_id}, got {note.noteable_id!r}")
    check(note.noteable_iid == parent_iid, f"{parent_type} noteable_iid {parent_iid}, got {note.noteable_iid!r}")
    check(note.attachment is None, f"attachment null, got {note.attachment!r}")
    check(note.author["id"] == author.id, f"author id {author.id}, got {note.author}")
    check(note.author["username"] == author.username, f"author username, got {note.author}")
    check(note.author["state"] == "active", f"author state active, got {note.author}")
    check(isinstance(note.id, int) and note.id > 0, f"note id, got {note.id!r}")
    check(
        isinstance(note.created_at, str) and note.created_at.endswith("Z"), f"created_at, got {note.created_at!r}"
    )
    check(isinstance(note.updated_at, str), f"updated_at, got {note.updated_at!r}")


def notes_round_trip(parent, parent_type, parent_id, parent_iid, single_extra=None):
    """notes.create/list/get, note.save() and note.delete() on one parent; returns nothing.

    single_extra: fields the single read of a snippet or epic note also shows beside the note."""
    first = parent.notes.create({"body": f"first {parent_type}"})
    check_note(first, f"first {parent_type}", parent_type, parent_id, parent_iid)
    second = parent.notes.create({"body": f"second {parent_type} :+1: with **markdown**"})
    check_note(second, f"second {parent_type} :+1: with **markdown**", parent_type, parent_id, parent_iid)
    check(second.id > first.id, f"note ids increase, got {first.id} then {second.id}")

    listed = parent.notes.list()
    check(
        [n.id for n in listed] == [second.id, first.id],
        f"{parent_type} notes newest first, got {[n.id for n in listed]}",
    )
    ascending = parent.notes.list(sort="asc", order_by="created_at")
    check([n.id for n in ascending] == [first.id, second.id], f"sort=asc, got {[n.id for n in ascending]}")
    check_note(listed[1], f"first {parent_type}", parent_type, parent_id, parent_iid)

    fetched = parent.notes.get(first.id)
    check(fetched.id == first.id, f"notes.get id, got {fetched.id}")
    check_note(fetched, f"first {parent_type}", parent_type, parent_id, parent_iid)
    for field, value in (single_extra or {}).items():
        shown = fetched.attributes.get(field, "<missing>")
        check(shown == value, f"single {parent_type} note {field} {value!r}, got {shown!r}")

    fetched.body = f"edited {parent_type}"
    fetched.save()
    check(fetched.body == f"edited {parent_type}", f"save() refreshes the body, got {fetched.body!r}")
    check(fetched.id == first.id, f"save() keeps the id, got {fetched.id}")
    again = parent.notes.get(first.id)
    check(again.body == f"edited {parent_type}", f"the edit is stored, got {again.body!r}")
    check(again.updated_at >= again.created_at, f"updated_at, got {again.updated_at} {again.created_at}")
    bodies = [n.body for n in parent.notes.list(sort="asc")]
    check(bodies == [f"edited {parent_type}", second.body], f"the list shows the edit, got {bodies}")

    blank = parent.notes.get(second.id)
    blank.body = "   "
    error = refused(blank.save, errors.GitlabUpdateError, 400, f"a blank {parent_type} note")
    check(
        error.error_message == '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given',
        f"blank note message, got {error.error_message!r}",
    )
    error = refused(
        lambda: parent.notes.create({"body": ""}), errors.GitlabCreateError, 400, f"an empty {parent_type} note"
    )
    check(
        error.error_message == '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given',
        f"empty note message, got {error.error_message!r}",
    )

    again.delete()
    refused(lambda: parent.notes.get(first.id), errors.GitlabGetError, 404, f"a deleted {parent_type} note")
    refused(again.delete, errors.GitlabDeleteError, 404, f"deleting a {parent_type} note twice")
    check([n.id for n in parent.notes.list()] == [second.id], f"one {parent_type} note left")
    refused(lambda: parent.notes.get(2**31 - 1), errors.GitlabGetError, 404, f"an unknown {parent_type} note")


def project_named(name, visibility="private"):
    return gl.projects.create({"name": f"{prefix} {name}", "visibility": visibility})


# Issues -------------------------------------------------------------------------------------------
if "issues" in parts:
    project = project_named("issues")
    issue = project.issues.create({"title": "First issue", "description": "from python", "labels": "a,b"})
    check(issue.iid == 1, f"first iid 1, got {issue.iid}")
    check(issue.project_id == project.id, f"issue project_id, got {issue.project_id}")
    check(issue.state == "opened", f"new issue opened, got {issue.state}")
    check(issue.title == "First issue" and issue.description == "from python", "issue title and description")
    check(sorted(issue.labels) == ["a", "b"], f"labels, got {issue.labels}")
    check(issue.author["id"] == root.id, f"issue author, got {issue.author}")
    check(issue.user_notes_count == 0, f"no notes yet, got {issue.user_notes_count}")
    # closed_by is also a method of ProjectIssue, so the field is read through attributes.
    check(issue.closed_at is None and issue.attributes["closed_by"] is None, "not closed")
    other = project.issues.create({"title": "Second issue"})
    check(other.iid == 2, f"second iid 2, got {other.iid}")

    listed = project.issues.list()
    check([i.iid for i in listed] == [2, 1], f"issues newest first, got {[i.iid for i in listed]}")
    check([i.iid for i in project.issues.list(sort="asc")] == [1, 2], "issues sort=asc")
    fetched = project.issues.get(1)
    check(fetched.id == issue.id and fetched.title == "First issue", f"issues.get(iid), got {fetched.id}")
    refused(lambda: project.issues.get(99), errors.GitlabGetError, 404, "an unknown issue")
    check(gl.projects.get(project.id).open_issues_count == 2, "two open issues")

    notes_round_trip(fetched, "Issue", issue.id, issue.iid)
    check(project.issues.get(1).user_notes_count == 1, "user_notes_count counts the note left")

    # Close: a system note "closed", the opened list and open_issues_count follow.
    fetched.state_event = "close"
    fetched.save()
    check(fetched.state == "closed", f"save() with state_event close, got {fetched.state}")
    closed_by = fetched.attributes["closed_by"]
    check(closed_by is not None and closed_by["id"] == root.id, f"closed_by, got {closed_by}")
    check(isinstance(fetched.closed_at, str), f"closed_at set, got {fetched.closed_at}")
    system = [n for n in fetched.notes.list(get_all=True) if n.system]
    check([n.body for n in system] == ["closed"], f"one system note 'closed', got {[n.body for n in system]}")
    check_note(system[0], "closed", "Issue", issue.id, issue.iid, system=True)
    check([i.iid for i in project.issues.list(state="opened")] == [2], "state=opened leaves the closed issue out")
    check([i.iid for i in project.issues.list(state="closed")] == [1], "state=closed lists it")
    check([i.iid for i in project.issues.list(state="all")] == [2, 1], "state=all lists both")
    check(gl.projects.get(project.id).open_issues_count == 1, "open_issues_count falls on close")
    check(project.issues.get(1).user_notes_count == 1, "system notes are not user notes")
    refused(
        lambda: (setattr(system[0], "body", "rewritten"), system[0].save()),
        errors.GitlabUpdateError,
        403,
        "a system note is nobody's to edit",
    )

    # Closing again changes nothing.
    fetched.state_event = "close"
    fetched.save()
    system = [n for n in fetched.notes.list(get_all=True) if n.system]
    check(len(system) == 1, "closing a closed issue adds no note")
    check(gl.projects.get(project.id).open_issues_count == 1, "nor moves the count")

    # Reopen likewise.
    fetched.state_event = "reopen"
    fetched.save()
    check(fetched.state == "opened", f"reopened, got {fetched.state}")
    check(
        fetched.closed_at is None and fetched.attributes["closed_by"] is None,
        "reopen clears closed_at and closed_by",
    )
    bodies = [n.body for n in fetched.notes.list(sort="asc", get_all=True) if n.system]
    check(bodies == ["closed", "reopened"], f"system notes closed then reopened, got {bodies}")
    check([i.iid for i in project.issues.list(state="opened")] == [2, 1], "both open again")
    check(gl.projects.get(project.id).open_issues_count == 2, "open_issues_count rises on reopen")

    # Plain edits with save().
    fetched.title = "Renamed issue"
    fetched.description = "changed"
    fetched.save()
    again = project.issues.get(1)
    check((again.title, again.description) == ("Renamed issue", "changed"), f"issue.save(), got {again.title}")

    # get_all over several pages of notes.
    many = [other.notes.create({"body": f"note {i:02d}"}).id for i in range(12)]
    pages = other.notes.list(iterator=True, per_page=5)
    check((pages.total, pages.total_pages) == (12, 3), f"12 in 3 pages, got {pages.total} {pages.total_pages}")
    walked = other.notes.list(get_all=True, per_page=5, sort="asc")
    check([n.id for n in walked] == many, f"get_all walks every page once, got {len(walked)} notes")

    # Delete the issue: gone, its notes with it, counted off.
    project.issues.get(2).delete()
    refused(lambda: project.issues.get(2), errors.GitlabGetError, 404, "a deleted issue")
    refused(lambda: other.notes.list(), errors.GitlabListError, 404, "the notes of a deleted issue")
    check(gl.projects.get(project.id).open_issues_count == 1, "deleting an open issue counts it off")
    check([i.iid for i in project.issues.list(state="all")] == [1], "one issue left")
    third = project.issues.create({"title": "Third"})
    check(third.iid == 3, f"iids are not reused, got {third.iid}")

    # A stranger: the private project's issue is a 404 whatever the call.
    check(project.visibility == "private", "the project is private")
    theirs = as_stranger.projects.get(project.id, lazy=True)
    error = refused(lambda: theirs.issues.get(1), errors.GitlabGetError, 404, "a private project's issue")
    check(error.error_message == "404 Project Not Found", f"404 message, got {error.error_message!r}")
    refused(lambda: theirs.issues.list(), errors.GitlabListError, 404, "a private project's issues")
    refused(lambda: theirs.issues.create({"title": "x"}), errors.GitlabCreateError, 404, "creating there")
    lazy_issue = theirs.issues.get(1, lazy=True)
    refused(lambda: lazy_issue.notes.list(), errors.GitlabListError, 404, "a private issue's notes")
    refused(lambda: lazy_issue.notes.create({"body": "hi"}), errors.GitlabCreateError, 404, "a note there")

    # In a public project the stranger reads and comments, but may not change others' notes or issues.
    open_project = project_named("public issues", "public")
    public_issue = open_project.issues.create({"title": "Public"})
    by_admin = public_issue.notes.create({"body": "admin's"})
    seen = as_stranger.projects.get(open_project.id, lazy=True).issues.get(1)
    check(seen.title == "Public", f"the stranger reads a public issue, got {seen.title}")
    mine = seen.notes.create({"body": "stranger's"})
    check_note(mine, "stranger's", "Issue", public_issue.id, 1, author=stranger)
    mine.body = "stranger's, edited"
    mine.save()
    check(public_issue.notes.get(mine.id).body == "stranger's, edited", "the author edits their note")
    foreign = seen.notes.get(by_admin.id)
    foreign.body = "taken over"
    refused(foreign.save, errors.GitlabUpdateError, 403, "editing another's note")
    refused(foreign.delete, errors.GitlabDeleteError, 403, "deleting another's note")
    seen.state_event = "close"
    refused(seen.save, errors.GitlabUpdateError, 403, "a stranger closing someone's issue")
    refused(seen.delete, errors.GitlabDeleteError, 403, "a stranger deleting an issue")
    mine.delete()
    check([n.id for n in public_issue.notes.list()] == [by_admin.id], "the author deletes their note")
    check(public_issue.notes.get(by_admin.id).body == "admin's", "the admin's note is untouched")

    # Without a token: the notes routes all authenticate (GitLab's notes API), public project or not.
    anonymous_issue = anonymous.projects.get(open_project.id, lazy=True).issues.get(1, lazy=True)
    refused(anonymous_issue.notes.list, errors.GitlabAuthenticationError, 401, "notes without a token")
    refused(
        lambda: anonymous_issue.notes.create({"body": "hi"}),
        errors.GitlabAuthenticationError,
        401,
        "a note without a token",
    )


# Merge requests -----------------------------------------------------------------------------------
if "merge_requests" in parts:
    project = project_named("merge requests")
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "master", "title": "First MR"})
    check(mr.iid == 1, f"first MR iid 1, got {mr.iid}")
    check(mr.project_id == project.id, f"MR project_id, got {mr.project_id}")
    check(mr.state == "opened", f"new MR opened, got {mr.state}")
    check((mr.source_branch, mr.target_branch) == ("feature", "master"), f"branches, got {mr.source_branch}")
    check(mr.title == "First MR" and mr.author["id"] == root.id, f"MR title and author, got {mr.title}")
    second = project.mergerequests.create(
        {"source_branch": "other", "target_branch": "master", "title": "Second MR"}
    )
    check(second.iid == 2, f"second MR iid 2, got {second.iid}")

    check([m.iid for m in project.mergerequests.list()] == [2, 1], "merge requests newest first")
    fetched = project.mergerequests.get(1)
    check(fetched.id == mr.id and fetched.title == "First MR", f"mergerequests.get(iid), got {fetched.id}")
    refused(lambda: project.mergerequests.get(99), errors.GitlabGetError, 404, "an unknown merge request")

    notes_round_trip(fetched, "MergeRequest", mr.id, mr.iid)

    fetched.title = "Renamed MR"
    fetched.save()
    check(project.mergerequests.get(1).title == "Renamed MR", "mr.save() renames")
    fetched.state_event = "close"
    fetched.save()
    check(fetched.state == "closed", f"MR closed, got {fetched.state}")
    system = [n.body for n in fetched.notes.list(get_all=True) if n.system]
    check(system == ["closed"], f"closing an MR records 'closed', got {system}")
    check([m.iid for m in project.mergerequests.list(state="opened")] == [2], "state=opened leaves it out")
    fetched.state_event = "reopen"
    fetched.save()
    check(fetched.state == "opened", f"MR reopened, got {fetched.state}")

    second.delete()
    refused(lambda: project.mergerequests.get(2), errors.GitlabGetError, 404, "a deleted merge request")

    theirs = as_stranger.projects.get(project.id, lazy=True)
    refused(lambda: theirs.mergerequests.get(1), errors.GitlabGetError, 404, "a private project's MR")
    lazy_mr = theirs.mergerequests.get(1, lazy=True)
    refused(lambda: lazy_mr.notes.list(), errors.GitlabListError, 404, "a private MR's notes")


# Snippets -----------------------------------------------------------------------------------------
if "snippets" in parts:
    project = project_named("snippets")
    snippet = project.snippets.create(
        {"title": "Snip", "file_name": "snip.py", "content": "print('hi')\n", "visibility": "private"}
    )
    check(snippet.title == "Snip" and snippet.file_name == "snip.py", f"snippet fields, got {snippet.title}")
    check(snippet.project_id == project.id, f"snippet project_id, got {snippet.project_id}")
    check(snippet.author["id"] == root.id, f"snippet author, got {snippet.author}")
    check([s.id for s in project.snippets.list()] == [snippet.id], "snippets.list()")
    fetched = project.snippets.get(snippet.id)
    check(fetched.title == "Snip", f"snippets.get, got {fetched.title}")
    check(fetched.content() == b"print('hi')\n", "snippet.content() returns the raw code")
    refused(lambda: project.snippets.get(2**31 - 1), errors.GitlabGetError, 404, "an unknown snippet")

    notes_round_trip(
        fetched,
        "Snippet",
        snippet.id,
        None,
        {"title": "Snip", "file_name": "snip.py", "expires_at": None},
    )

    fetched.title = "Snap"
    fetched.save()
    check(project.snippets.get(snippet.id).title == "Snap", "snippet.save() renames")

    theirs = as_stranger.projects.get(project.id, lazy=True)
    refused(lambda: theirs.snippets.get(snippet.id), errors.GitlabGetError, 404, "a private project's snippet")
    lazy_snippet = theirs.snippets.get(snippet.id, lazy=True)
    refused(lambda: lazy_snippet.notes.list(), errors.GitlabListError, 404, "a private snippet's notes")

    fetched.delete()
    refused(lambda: project.snippets.get(snippet.id), errors.GitlabGetError, 404, "a deleted snippet")
    refused(lambda: fetched.notes.list(), errors.GitlabListError, 404, "a deleted snippet's notes")


# Epics --------------------------------------------------------------------------------------------
if "epics" in parts:
    group = gl.groups.create({"name": f"Py Epics {prefix}", "path": f"{prefix}-epics"})
    epic = group.epics.create({"title": "First epic", "description": "from python"})
    check(epic.iid == 1, f"first epic iid 1, got {epic.iid}")
    check(epic.group_id == group.id, f"epic group_id, got {epic.group_id}")
    check(epic.title == "First epic" and epic.author["id"] == root.id, f"epic title and author, got {epic.title}")
    second = group.epics.create({"title": "Second epic"})
    check(second.iid == 2, f"second epic iid 2, got {second.iid}")
    check(sorted(e.iid for e in group.epics.list()) == [1, 2], "group.epics.list()")
    fetched = group.epics.get(1)
    check(fetched.id == epic.id and fetched.title == "First epic", f"epics.get(iid), got {fetched.id}")
    refused(lambda: group.epics.get(99), errors.GitlabGetError, 404, "an unknown epic")

    notes_round_trip(fetched, "Epic", epic.id, None, {"title": "First epic"})

    fetched.title = "Renamed epic"
    fetched.save()
    check(group.epics.get(1).title == "Renamed epic", "epic.save() renames")

    theirs = as_stranger.groups.get(group.id, lazy=True)
    refused(lambda: theirs.epics.get(1), errors.GitlabGetError, 404, "a private group's epic")
    # The notes of an epic are addressed by its id (python-gitlab's GroupEpicNoteManager).
    lazy_epic = GroupEpic(theirs.epics, {"iid": 1, "id": epic.id, "group_id": group.id}, lazy=True)
    refused(lambda: lazy_epic.notes.list(), errors.GitlabListError, 404, "a private epic's notes")

    second.delete()
    refused(lambda: group.epics.get(2), errors.GitlabGetError, 404, "a deleted epic")

print("ok")
