"""python-gitlab, unchanged, against the API: personal snippets (/snippets).

gl.snippets.create/list/get/public(), snippet.content() (the raw content), snippet.save(),
snippet.delete() and, as an admin, snippet.user_agent_detail() (python-gitlab's own User-Agent);
404 for another's private snippet and for a change of another's, 403 for a non-admin's
user_agent_detail, 401 for anonymous lists.

Usage: python3 check_personal_snippets.py <base url> <admin token>. Exits non-zero with a message
on the first mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, refused, user_with_client

url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()

prefix = f"pys-{secrets.token_hex(4)}"
owner, as_owner = user_with_client(gl, url, f"{prefix}-owner", "Py owner")
stranger, as_stranger = user_with_client(gl, url, f"{prefix}-stranger", "Py stranger")
anonymous = gitlab.Gitlab(url)

# Create, with GitLab's entity -----------------------------------------------------------------------
snippet = as_owner.snippets.create(
    {"title": f"{prefix} first", "file_name": "hello.py", "content": "print('hello')\n", "visibility": "private"}
)
check(snippet.title == f"{prefix} first", f"title, got {snippet.title!r}")
check(snippet.file_name == "hello.py", f"file_name, got {snippet.file_name!r}")
check(snippet.visibility == "private", f"visibility, got {snippet.visibility!r}")
check(snippet.project_id is None, f"project_id, got {snippet.project_id!r}")
check(snippet.author["id"] == owner.id, f"author, got {snippet.author!r}")
check(snippet.web_url == f"{url}/-/snippets/{snippet.id}", f"web_url, got {snippet.web_url!r}")
check(snippet.raw_url == f"{url}/-/snippets/{snippet.id}/raw", f"raw_url, got {snippet.raw_url!r}")
check(snippet.files == [{"path": "hello.py", "raw_url": f"{url}/-/snippets/{snippet.id}/raw/main/hello.py"}],
      f"files, got {snippet.files!r}")

public_one = as_owner.snippets.create(
    {"title": f"{prefix} public", "file_name": "pub.txt", "content": "for all", "visibility": "public"}
)

# Read: get, content, lists ----------------------------------------------------------------------------
read = as_owner.snippets.get(snippet.id)
check(read.title == snippet.title and read.created_at == snippet.created_at, f"get, got {read.attributes!r}")
check(read.content() == b"print('hello')\n", f"content, got {read.content()!r}")

own = as_owner.snippets.list(get_all=True)
check([s.id for s in own] == [public_one.id, snippet.id], f"own list, newest first, got {[s.id for s in own]}")
check(as_stranger.snippets.list(get_all=True) == [], "a user without snippets lists none")

public = as_stranger.snippets.public(per_page=100, page=1)
public_ids = [s.id for s in public]
check(public_ids[:1] == [public_one.id], f"public list starts with the newest public one, got {public_ids[:3]}")
check(snippet.id not in public_ids, "a private snippet is not public")
check(as_stranger.snippets.get(public_one.id).content() == b"for all", "anyone reads a public snippet")
check(anonymous.snippets.get(public_one.id).title == public_one.title, "anonymous callers read a public one")

refused(lambda: as_stranger.snippets.get(snippet.id), errors.GitlabGetError, 404, "another's private snippet")
refused(lambda: anonymous.snippets.list(), errors.GitlabAuthenticationError, 401, "anonymous list")
refused(lambda: anonymous.snippets.public(), errors.GitlabAuthenticationError, 401, "anonymous public list")

# Save ---------------------------------------------------------------------------------------------------
read.title = f"{prefix} renamed"
read.content = "print('bye')\n"
read.visibility = "internal"
read.save()
check(read.title == f"{prefix} renamed", f"saved title, got {read.title!r}")
check(read.visibility == "internal", f"saved visibility, got {read.visibility!r}")
again = as_owner.snippets.get(snippet.id)
check(again.content() == b"print('bye')\n", f"saved content, got {again.content()!r}")
check(as_stranger.snippets.get(snippet.id).title == f"{prefix} renamed", "an internal snippet is read by users")

theirs = as_stranger.snippets.get(public_one.id)
theirs.title = "taken"
refused(theirs.save, errors.GitlabUpdateError, 404, "a change of another's snippet")

# user_agent_detail (admins only) ----------------------------------------------------------------------
detail = gl.snippets.get(snippet.id).user_agent_detail()
check(detail["user_agent"].startswith("python-gitlab/"), f"user_agent, got {detail!r}")
check(isinstance(detail["ip_address"], str) and detail["ip_address"] != "", f"ip_address, got {detail!r}")
check(detail["akismet_submitted"] is False, f"akismet_submitted, got {detail!r}")
refused(lambda: again.user_agent_detail(), errors.GitlabGetError, 403, "user_agent_detail for a non-admin")

# Delete -------------------------------------------------------------------------------------------------
refused(lambda: as_stranger.snippets.delete(public_one.id), errors.GitlabDeleteError, 404, "a removal of another's")
again.delete()
refused(lambda: as_owner.snippets.get(snippet.id), errors.GitlabGetError, 404, "a deleted snippet")
as_owner.snippets.delete(public_one.id)
check(as_owner.snippets.list(get_all=True) == [], "nothing left in the owner's list")

print("ok")
