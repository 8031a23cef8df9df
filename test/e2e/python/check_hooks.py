"""python-gitlab, unchanged, against the API: project hooks and push rules.

Hooks: project.hooks.create/list/get, hook.save() (the url always sent again, the wiki switch as
wiki_events), hook.delete(), the token never shown, 422 for a bad url, 404/403/401 for who may not.
Push rules: project.pushrules.create/get, rule.save(), rule.delete(), 422 for a second rule, 400
for an invalid regex, and GitLab's null when there is none.

Usage: python3 check_hooks.py <base url> <admin token> [part ...], parts among hooks, push_rules
(both when none is named). Exits non-zero with a message on the first mismatch; prints "ok" when
every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client

HOOK_URL = "http://127.0.0.1:9/hook"


url, token = sys.argv[1], sys.argv[2]
parts = set(sys.argv[3:]) or {"hooks", "push_rules"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

prefix = f"pyh-{secrets.token_hex(4)}"


def new_user(name):
    return user_with_client(gl, url, f"{prefix}-{name}", f"Py {name}")


stranger, as_stranger = new_user("stranger")
developer, as_developer = new_user("developer")
anonymous = gitlab.Gitlab(url)


def project_named(name):
    project = gl.projects.create({"name": f"Py {name} {prefix}", "visibility": "private"})
    project.members.create({"user_id": developer.id, "access_level": 30})
    return project


# Hooks --------------------------------------------------------------------------------------------
if "hooks" in parts:
    project = project_named("hooks")
    hook = project.hooks.create({"url": HOOK_URL, "note_events": True, "token": "py-secret-token"})
    check(hook.url == HOOK_URL, f"hook url, got {hook.url!r}")
    check(hook.project_id == project.id, f"hook project_id, got {hook.project_id!r}")
    check(hook.note_events is True, f"note_events, got {hook.note_events!r}")
    check(hook.push_events is True, f"push_events defaults to true, got {hook.push_events!r}")
    check(hook.issues_events is False, f"issues_events defaults to false, got {hook.issues_events!r}")
    check(hook.enable_ssl_verification is True, "enable_ssl_verification defaults to true")
    check(hook.confidential_note_events is None, f"confidential_note_events, got {hook.confidential_note_events!r}")
    check("token" not in hook.attributes, f"the token is never shown, got {hook.attributes}")
    check("py-secret-token" not in repr(hook.attributes), "the token's value is never shown")
    check(hook.token_present is True, "token_present")
    check(hook.alert_status == "executable", f"alert_status, got {hook.alert_status!r}")
    check(isinstance(hook.created_at, str) and hook.created_at.endswith("Z"), f"created_at {hook.created_at!r}")

    second = project.hooks.create({"url": "http://127.0.0.1:9/other", "push_events": False})
    listed = project.hooks.list()
    check([h.id for h in listed] == [hook.id, second.id], f"hooks.list() by id, got {[h.id for h in listed]}")
    check(listed[0].note_events is True, "the list shows the switches")

    fetched = project.hooks.get(hook.id)
    check(fetched.id == hook.id and fetched.url == HOOK_URL, f"hooks.get, got {fetched.attributes}")
    fetched.issues_events = True
    fetched.save()
    check(fetched.issues_events is True, f"save() refreshes issues_events, got {fetched.issues_events!r}")
    check(fetched.note_events is True, "save() leaves the switches not sent as they were")
    check(fetched.token_present is True, "save() with the same url keeps the token")
    # python-gitlab names the wiki switch wiki_events when updating, as the spec does.
    fetched.wiki_events = True
    fetched.save()
    again = project.hooks.get(hook.id)
    check(again.wiki_page_events is True, f"wiki_events sets wiki_page_events, got {again.wiki_page_events!r}")
    check(again.issues_events is True and again.note_events is True, "the earlier changes are stored")
    project.hooks.update(hook.id, {"url": HOOK_URL, "job_events": True})
    check(project.hooks.get(hook.id).job_events is True, "hooks.update()")

    refused(lambda: project.hooks.get(2**31 - 1), errors.GitlabGetError, 404, "an unknown hook")
    refused(lambda: project.hooks.create({"url": "ftp://x"}), errors.GitlabCreateError, 422, "an ftp url")
    refused(lambda: project.hooks.create({"url": "not a url"}), errors.GitlabCreateError, 422, "not a url")
    refused(
        lambda: project.hooks.create({"url": "http://127.0.0.1:9/" + "a" * 2000}),
        errors.GitlabCreateError,
        422,
        "a url over 2000 characters",
    )
    bad = project.hooks.get(second.id)
    bad.url = "ftp://x"
    refused(bad.save, errors.GitlabUpdateError, 422, "save() with an ftp url")

    theirs = as_stranger.projects.get(project.id, lazy=True)
    refused(lambda: theirs.hooks.list(), errors.GitlabListError, 404, "a private project's hooks, to a stranger")
    mine = as_developer.projects.get(project.id, lazy=True)
    refused(lambda: mine.hooks.list(), errors.GitlabListError, 403, "hooks, to a developer")
    refused(
        lambda: mine.hooks.create({"url": HOOK_URL}), errors.GitlabCreateError, 403, "a hook created by a developer"
    )
    nobody = anonymous.projects.get(project.id, lazy=True)
    refused(lambda: nobody.hooks.list(), errors.GitlabAuthenticationError, 401, "hooks, anonymously")

    fetched.delete()
    check([h.id for h in project.hooks.list()] == [second.id], "delete() removes the hook")
    refused(lambda: project.hooks.get(hook.id), errors.GitlabGetError, 404, "a deleted hook")
    project.hooks.delete(hook.id)  # idempotent: 204, no error
    project.hooks.delete(second.id)
    check(project.hooks.list() == [], "no hooks left")


# Push rules ---------------------------------------------------------------------------------------
if "push_rules" in parts:
    project = project_named("rules")
    rule = project.pushrules.create(
        {"deny_delete_tag": True, "branch_name_regex": "^(main|feature/.+)$", "max_file_size": 5}
    )
    check(rule.deny_delete_tag is True, f"deny_delete_tag, got {rule.deny_delete_tag!r}")
    check(rule.branch_name_regex == "^(main|feature/.+)$", f"branch_name_regex, got {rule.branch_name_regex!r}")
    check(rule.max_file_size == 5, f"max_file_size, got {rule.max_file_size!r}")
    check(rule.member_check is False and rule.commit_message_regex is None, "defaults of what was not sent")
    check(rule.project_id == project.id, f"project_id, got {rule.project_id!r}")

    fetched = project.pushrules.get()
    check(fetched.id == rule.id and fetched.max_file_size == 5, f"pushrules.get(), got {fetched.attributes}")
    fetched.member_check = True
    fetched.commit_message_negative_regex = "WIP"
    fetched.save()
    check(fetched.member_check is True, f"save() refreshes member_check, got {fetched.member_check!r}")
    stored = project.pushrules.get()
    check(stored.member_check is True and stored.commit_message_negative_regex == "WIP", "save() is stored")
    check(stored.deny_delete_tag is True and stored.max_file_size == 5, "save() leaves the rest as it was")

    refused(
        lambda: project.pushrules.create({"prevent_secrets": True}), errors.GitlabCreateError, 422, "a second rule"
    )
    stored.file_name_regex = "(exe"
    refused(stored.save, errors.GitlabUpdateError, 400, "an invalid regex")
    check(project.pushrules.get().file_name_regex is None, "the invalid regex is not stored")

    mine = as_developer.projects.get(project.id, lazy=True)
    refused(lambda: mine.pushrules.get(), errors.GitlabGetError, 403, "the push rule, to a developer")
    theirs = as_stranger.projects.get(project.id, lazy=True)
    refused(lambda: theirs.pushrules.get(), errors.GitlabGetError, 404, "the push rule, to a stranger")

    fetched.delete()
    # GitLab answers null when there is no rule; python-gitlab cannot make an object of it.
    try:
        project.pushrules.get()
        check(False, "pushrules.get() without a rule should not make an object")
    except errors.GitlabParsingError:
        pass
    project.pushrules.delete()  # idempotent: 204, no error
    refused(
        lambda: project.pushrules.update(new_data={"member_check": True}), errors.GitlabUpdateError, 404, "no rule"
    )
    again = project.pushrules.create({"prevent_secrets": True})
    check(again.prevent_secrets is True and again.id != rule.id, "a rule again after delete()")

print("ok")
