"""python-gitlab, unchanged, against the API: discussions.

On an issue: discussions.create/list/get, a note of the notes API listed as a discussion of its
own, discussion.notes.create/get, note.save() and note.delete() (the thread going with its last
note, GitlabGetError 404 after); on a merge request: discussions.create, a thread resolved with
resolved=True and save(), a reporter refused (GitlabUpdateError 403); on a project snippet:
discussions.create/list and a reply.

Usage: python3 check_discussions.py <base url> <admin token>. Exits non-zero with a message on
the first mismatch; prints "ok" when every check holds.
"""
import re
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
root = gl.user

prefix = f"pyd-{secrets.token_hex(4)}"
reporter, as_reporter = user_with_client(gl, url, f"{prefix}-reporter", "Py reporter")
project = gl.projects.create({"name": f"{prefix}-project", "visibility": "private"})
project.members.create({"user_id": reporter.id, "access_level": 20})
HEX40 = re.compile(r"^[0-9a-f]{40}$")


def check_thread_note(note, body):
    """A note of a thread (GitLab's Note entity, type DiscussionNote)."""
    check(note["body"] == body, f"thread note body {body!r}, got {note['body']!r}")
    check(note["type"] == "DiscussionNote", f"thread note type, got {note['type']!r}")
    check(note["author"]["id"] == root.id, f"thread note author, got {note['author']}")
    check(note["system"] is False, f"thread note system, got {note['system']!r}")


# Issues -------------------------------------------------------------------------------------------
issue = project.issues.create({"title": "Discussed"})
plain = issue.notes.create({"body": "a plain note"})
thread = issue.discussions.create({"body": "a thread"})
check(HEX40.match(thread.id) is not None, f"discussion id 40 hex digits, got {thread.id!r}")
check(thread.individual_note is False, f"a new thread is no individual note, got {thread.individual_note!r}")
check(len(thread.attributes["notes"]) == 1, f"a new thread has its note, got {thread.attributes['notes']}")
check_thread_note(thread.attributes["notes"][0], "a thread")

listed = issue.discussions.list()
check(
    [(d.individual_note, [n["body"] for n in d.attributes["notes"]]) for d in listed]
    == [(True, ["a plain note"]), (False, ["a thread"])],
    f"discussions listed oldest first, got {[d.attributes for d in listed]}",
)
check(listed[0].attributes["notes"][0]["id"] == plain.id, "the plain note is its own discussion")
check(listed[0].attributes["notes"][0]["type"] is None, "a plain note has no type")

reply = thread.notes.create({"body": "a reply"})
check(reply.body == "a reply" and reply.type == "DiscussionNote", f"reply, got {reply.attributes}")
got = issue.discussions.get(thread.id)
check([n["id"] for n in got.attributes["notes"]] == [thread.attributes["notes"][0]["id"], reply.id], "thread read whole")

note = got.notes.get(reply.id)
check(note.body == "a reply", f"discussion note read, got {note.body!r}")
note.body = "a reply, edited"
note.save()
check(got.notes.get(reply.id).body == "a reply, edited", "discussion note edited")
note.delete()
got.notes.get(thread.attributes["notes"][0]["id"]).delete()
refused(lambda: issue.discussions.get(thread.id), errors.GitlabGetError, 404, "a thread without notes")
check([d.id for d in issue.discussions.list()] == [listed[0].id], "only the plain note's discussion is left")

# Merge requests -----------------------------------------------------------------------------------
mr = project.mergerequests.create({"source_branch": f"{prefix}-feature", "target_branch": "master", "title": "Review"})
review = mr.discussions.create({"body": "please fix"})
first = review.attributes["notes"][0]
check(first["resolvable"] is True and first["resolved"] is False, f"an open merge request thread, got {first}")
review.notes.create({"body": "fixed"})

as_reporter_review = as_reporter.projects.get(project.id, lazy=True).mergerequests.get(mr.iid, lazy=True)
reporter_view = as_reporter_review.discussions.get(review.id)
reporter_view.resolved = True
refused(reporter_view.save, errors.GitlabUpdateError, 403, "a reporter resolving")

review.resolved = True
review.save()
resolved = mr.discussions.get(review.id)
check(
    [(n["resolved"], n["resolved_by"]["id"]) for n in resolved.attributes["notes"]] == [(True, root.id), (True, root.id)],
    f"thread resolved, got {resolved.attributes['notes']}",
)

# Project snippets ---------------------------------------------------------------------------------
snippet = project.snippets.create({"title": "Snip", "file_name": "s.py", "content": "x = 1\n", "visibility": "private"})
snippet_thread = snippet.discussions.create({"body": "on a snippet"})
snippet_thread.notes.create({"body": "snippet reply"})
check(
    [[n["body"] for n in d.attributes["notes"]] for d in snippet.discussions.list()] == [["on a snippet", "snippet reply"]],
    "snippet discussions listed",
)
check(
    snippet.discussions.get(snippet_thread.id).attributes["notes"][0]["resolvable"] is False,
    "snippet threads do not resolve",
)

print("ok")
