"""python-gitlab, unchanged, against the API: anonymous reads and the small reads around an issue.

anonymous: gitlab.Gitlab(url) with no token reads a public project's issues and merge requests
(list and get), never its confidential issue (GitlabGetError 404), and a private project is
GitlabGetError 404; notes still need a token (401).
issue_reads: issue.participants(), issue.closed_by(), issue.related_merge_requests(),
issue.user_agent_detail() and project.snippets.get(id).user_agent_detail() as admin; the latter
two refused to a non-admin (403).

Usage: python3 check_issue_reads.py <base url> <admin token> [part ...], parts among anonymous,
issue_reads (all when none is named). Exits non-zero with a message on the first mismatch; prints
"ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client

url, token = sys.argv[1], sys.argv[2]
parts = set(sys.argv[3:]) or {"anonymous", "issue_reads"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
root = gl.user

prefix = f"pyr-{secrets.token_hex(4)}"
anonymous = gitlab.Gitlab(url)
member, as_member = user_with_client(gl, url, f"{prefix}-member", "Py member")


def new_project(visibility):
    return gl.projects.create({"name": f"{prefix}-{visibility}-{secrets.token_hex(3)}", "visibility": visibility})


def check_anonymous():
    project = new_project("public")
    issue = project.issues.create({"title": "readable by anyone"})
    secret = project.issues.create({"title": "confidential", "confidential": True})
    mr = project.mergerequests.create(
        {"title": "a change", "source_branch": f"{prefix}-feature", "target_branch": "master"}
    )
    nobody = anonymous.projects.get(project.id, lazy=True)

    listed = nobody.issues.list(get_all=True)
    check([i.iid for i in listed] == [issue.iid], f"anonymous issue list: {[i.iid for i in listed]}")
    got = nobody.issues.get(issue.iid)
    check(got.title == "readable by anyone", f"anonymous issue get: {got.title!r}")
    check(got.author["id"] == root.id, f"anonymous issue author: {got.author}")
    refused(lambda: nobody.issues.get(secret.iid), errors.GitlabGetError, 404, "confidential issue, anonymously")

    mrs = nobody.mergerequests.list(get_all=True)
    check([m.iid for m in mrs] == [mr.iid], f"anonymous merge request list: {[m.iid for m in mrs]}")
    got_mr = nobody.mergerequests.get(mr.iid)
    check(got_mr.title == "a change", f"anonymous merge request get: {got_mr.title!r}")
    check(got_mr.subscribed is False, f"anonymous merge request subscribed: {got_mr.subscribed!r}")

    refused(
        lambda: nobody.issues.get(issue.iid, lazy=True).notes.list(),
        errors.GitlabAuthenticationError,
        401,
        "notes without a token",
    )
    refused(
        lambda: nobody.issues.create({"title": "x"}), errors.GitlabAuthenticationError, 401, "create without a token"
    )

    hidden = new_project("private")
    hidden.issues.create({"title": "inside"})
    refused(
        lambda: anonymous.projects.get(hidden.id, lazy=True).issues.get(1),
        errors.GitlabGetError,
        404,
        "private project's issue, anonymously",
    )
    refused(
        lambda: anonymous.projects.get(hidden.id, lazy=True).issues.list(),
        errors.GitlabListError,
        404,
        "private project's issues, anonymously",
    )


def check_issue_reads():
    project = new_project("public")
    project.members.create({"user_id": member.id, "access_level": 20})
    issue = project.issues.create({"title": "who took part", "assignee_ids": [member.id]})
    as_member.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True).notes.create(
        {"body": "a thought"}
    )
    issue.notes.create({"body": "an answer"})

    participants = issue.participants()
    check(
        [p["id"] for p in participants] == [root.id, member.id],
        f"participants: {[p['id'] for p in participants]}",
    )
    check(
        set(participants[0]) == {"id", "name", "username", "state", "avatar_url", "web_url"},
        f"participant fields: {sorted(participants[0])}",
    )
    public_issue = anonymous.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True)
    check(len(public_issue.participants()) == 2, "participants, anonymously")

    check(issue.closed_by() == [], f"closed_by: {issue.closed_by()!r}")
    check(issue.related_merge_requests() == [], f"related_merge_requests: {issue.related_merge_requests()!r}")

    detail = issue.user_agent_detail()
    check(
        set(detail) == {"user_agent", "ip_address", "akismet_submitted"}, f"user_agent_detail fields: {detail}"
    )
    check(detail["user_agent"].startswith("python-gitlab/"), f"user_agent: {detail['user_agent']!r}")
    check(detail["akismet_submitted"] is False, f"akismet_submitted: {detail['akismet_submitted']!r}")
    check(isinstance(detail["ip_address"], str) and detail["ip_address"], f"ip_address: {detail['ip_address']!r}")
    members_issue = as_member.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True)
    refused(members_issue.user_agent_detail, errors.GitlabGetError, 403, "user_agent_detail as a non-admin")

    snippet = project.snippets.create(
        {"title": "snip", "file_name": "a.py", "content": "print(1)", "visibility": "private"}
    )
    snippet_detail = project.snippets.get(snippet.id).user_agent_detail()
    check(snippet_detail["user_agent"].startswith("python-gitlab/"), f"snippet user_agent: {snippet_detail}")
    check(snippet_detail["akismet_submitted"] is False, f"snippet akismet_submitted: {snippet_detail}")
    members_snippet = as_member.projects.get(project.id, lazy=True).snippets.get(snippet.id)
    refused(members_snippet.user_agent_detail, errors.GitlabGetError, 403, "snippet user_agent_detail, non-admin")


if "anonymous" in parts:
    check_anonymous()
if "issue_reads" in parts:
    check_issue_reads()
print("ok")
