"""python-gitlab, unchanged, against the API: auth, users, pagination headers, tokens.

Usage: python3 check_users.py <base url> <admin token>. Exits non-zero with a message on the first
mismatch; prints "ok" when every check holds.
"""
import secrets
import sys

import gitlab

from e2e_checks import check


url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
check(gl.user.username == "root", f"gl.user is root, got {gl.user.username}")

prefix = f"py-{secrets.token_hex(4)}"
created = []
for i in range(3):
    user = gl.users.create(
        {
            "email": f"{prefix}-{i}@example.com",
            "username": f"{prefix}-{i}",
            "name": f"Py {i}",
            "password": "password123",
        }
    )
    created.append(user)
check(created[0].username == f"{prefix}-0", "users.create returns the user")

page = gl.users.list(search=prefix, page=2, per_page=1)
check([u.username for u in page] == [f"{prefix}-1"], f"page 2 of 1 is {prefix}-1, got {[u.username for u in page]}")

listing = gl.users.list(search=prefix, page=2, per_page=1, iterator=True)
check(listing.total == 3, f"X-Total 3, got {listing.total}")
check(listing.total_pages == 3, f"X-Total-Pages 3, got {listing.total_pages}")
check(listing.current_page == 2, f"X-Page 2, got {listing.current_page}")
check(listing.next_page == 3, f"X-Next-Page 3, got {listing.next_page}")
check(listing.prev_page == 1, f"X-Prev-Page 1, got {listing.prev_page}")
check(listing.per_page == 1, f"X-Per-Page 1, got {listing.per_page}")

everyone = gl.users.list(search=prefix, per_page=1, get_all=True)
check(len(everyone) == 3, f"get_all walks the Link headers to 3 users, got {len(everyone)}")

shown = gl.users.get(created[1].id)
shown.name = "Renamed"
shown.save()
check(gl.users.get(created[1].id).name == "Renamed", "user.save() updates the name")

pat = created[0].personal_access_tokens.create({"name": "py", "scopes": ["api"]})
check(pat.token.startswith("glpat-"), "token is shown once on creation")
as_user = gitlab.Gitlab(url, private_token=pat.token)
as_user.auth()
check(as_user.user.id == created[0].id, "the new token authenticates as its user")

try:
    gl.users.create({"email": f"{prefix}-x@example.com", "username": f"{prefix}-0", "name": "x", "password": "password123"})
    check(False, "duplicate username must fail")
except gitlab.exceptions.GitlabCreateError as error:
    check(error.response_code == 409, f"duplicate username is 409, got {error.response_code}")
    check(error.error_message == "Username has already been taken", f"message, got {error.error_message}")

gl.users.delete(created[2].id)
try:
    gl.users.get(created[2].id)
    check(False, "deleted user must be gone")
except gitlab.exceptions.GitlabGetError as error:
    check(error.response_code == 404, f"deleted user is 404, got {error.response_code}")

print("ok")
