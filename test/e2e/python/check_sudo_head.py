"""python-gitlab, unchanged, against the API: sudo, HEAD and a token revoking itself.

Sudo: python-gitlab 3.12 sends a `sudo=` keyword argument as the `sudo` query parameter;
`gl.projects.create({...}, sudo=uid)` creates the project as that user, `gl.users.create({...},
sudo=...)` works as an admin and is refused as a non-admin, and a client whose session carries a
`Sudo` header acts as that user throughout. HEAD: 3.12 has no `head()` on these managers, so the
call goes through `gl.http_head`, which returns the headers, X-Total included. Self-revocation:
3.12 has no method for it, so `gl.http_delete("/personal_access_tokens/self")` as the client would.

Usage: python3 check_sudo_head.py <base url> <admin token> [part ...], parts among sudo, head,
revoke (all when none is named). Exits non-zero with a message on the first mismatch; prints "ok"
when every check holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, create_token, create_user, refused


url, token = sys.argv[1:3]
parts = set(sys.argv[3:]) or {"sudo", "head", "revoke"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pys-{secrets.token_hex(4)}"


def new_user(name, admin=False, scopes=("api",)):
    user = create_user(gl, f"{prefix}-{name}", f"{prefix} {name}", admin=admin)
    return user, create_token(user, "e2e", scopes)


if "sudo" in parts:
    alice, alice_token = new_user("alice")
    helper, _ = new_user("helper", admin=True)

    # projects.create(..., sudo=uid): the project is the impersonated user's.
    project = gl.projects.create({"name": f"{prefix}-made-by-sudo"}, sudo=alice.id)
    check(project.owner["id"] == alice.id, f"owner {project.owner!r}, expected alice {alice.id}")
    check(project.creator_id == alice.id, f"creator_id {project.creator_id}, expected {alice.id}")
    check(
        project.path_with_namespace == f"{alice.username}/{prefix}-made-by-sudo",
        f"path_with_namespace {project.path_with_namespace!r}",
    )
    as_alice = gitlab.Gitlab(url, private_token=alice_token)
    owned = as_alice.projects.list(owned=True)
    check([p.id for p in owned] == [project.id], f"alice owns {[p.id for p in owned]}, expected {project.id}")

    # users.create(..., sudo=...): as another admin it works; as a non-admin it is refused (403).
    made = gl.users.create(
        {
            "username": f"{prefix}-bysudo",
            "email": f"{prefix}-bysudo@example.com",
            "name": "made under sudo",
            "password": "password123",
        },
        sudo=helper.username,
    )
    check(made.username == f"{prefix}-bysudo", f"user created under sudo: {made.username!r}")
    refused(
        lambda: gl.users.create(
            {"username": f"{prefix}-nope", "email": f"{prefix}-nope@example.com", "name": "n", "password": "password123"},
            sudo=alice.id,
        ),
        errors.GitlabCreateError,
        403,
        "users.create as a non-admin under sudo",
    )

    # A session with a Sudo header acts as that user on every call.
    header_client = gitlab.Gitlab(url, private_token=token)
    header_client.headers["Sudo"] = alice.username
    header_client.auth()
    check(header_client.user.id == alice.id, f"Sudo header: current user {header_client.user.id}")

    # GitLab's refusals: a non-admin token, and an unknown user.
    error = refused(lambda: gl.users.get(alice.id, sudo="no-such-user-here"), errors.GitlabGetError, 404, "unknown sudo user")
    check(
        "User with ID or username 'no-such-user-here' Not Found" in str(error.error_message),
        f"unknown sudo user message: {error.error_message!r}",
    )
    error = refused(lambda: as_alice.projects.list(sudo=1), errors.GitlabListError, 403, "sudo by a non-admin")
    check("Must be admin to use sudo" in str(error.error_message), f"non-admin message: {error.error_message!r}")

if "head" in parts:
    owner, owner_token = new_user("lister")
    as_owner = gitlab.Gitlab(url, private_token=owner_token)
    for name in ("one", "two", "three"):
        as_owner.projects.create({"name": f"{prefix}-{name}"})
    headers = gl.http_head(f"/users/{owner.id}/projects", query_data={"per_page": 2})
    check(headers.get("X-Total") == "3", f"HEAD X-Total {headers.get('X-Total')!r}, expected '3'")
    check(headers.get("X-Total-Pages") == "2", f"HEAD X-Total-Pages {headers.get('X-Total-Pages')!r}")
    check(headers.get("X-Per-Page") == "2", f"HEAD X-Per-Page {headers.get('X-Per-Page')!r}")
    check('rel="next"' in headers.get("Link", ""), f"HEAD Link {headers.get('Link')!r}")
    listed = as_owner.projects.list(owned=True, iterator=True, per_page=2)
    check(listed.total == 3, f"GET total {listed.total}, expected 3")
    one = gl.http_head(f"/projects/{as_owner.projects.list(owned=True)[0].id}")
    check(one.get("Content-Type") == "application/json", f"HEAD single item content type {one.get('Content-Type')!r}")
    refused(lambda: gl.http_head("/projects/999999999"), errors.GitlabHttpError, 404, "HEAD on a missing project")

if "revoke" in parts:
    user, first = new_user("revoker", scopes=("read_user",))
    as_user = gitlab.Gitlab(url, private_token=first)
    as_user.auth()
    response = as_user.http_delete("/personal_access_tokens/self")
    check(response.status_code == 204, f"self-revoke status {response.status_code}")
    refused(lambda: as_user.auth(), errors.GitlabAuthenticationError, 401, "the revoked token")

print("ok")
