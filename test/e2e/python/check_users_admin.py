"""python-gitlab, unchanged, against the API: what admins do to users.

States (user.block() twice: True then None; unblock, ban, unban, deactivate, activate, with the
client's errors for refused moves and a token refused while banned or deactivated), identities
(users.create with provider and extern_uid, users.list by identity, identityproviders.delete),
custom attributes (customattributes.set/get/list/delete), memberships (memberships.list with and
without type, 400 for another type) and the avatar (users.create and user.save() with an avatar
file; the bytes read back from avatar_url are the bytes sent).

Usage: python3 check_users_admin.py <base url> <admin token> [part ...], parts among states,
identities, attributes, memberships, avatar (all when none is named). Exits non-zero with a message
on the first mismatch; prints "ok" when every check holds.
"""
import base64
import secrets
import sys

import gitlab
import requests
from gitlab import exceptions as errors

from e2e_checks import check, create_token, create_user, refused


url, token = sys.argv[1], sys.argv[2]
parts = set(sys.argv[3:]) or {"states", "identities", "attributes", "memberships", "avatar"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pya-{secrets.token_hex(4)}"
counter = iter(range(1000))


def new_user(**extra):
    name = f"{prefix}-{next(counter)}"
    return create_user(gl, name, name, **extra)


def token_refused(secret, expected_message):
    response = requests.get(f"{url}/api/v4/user", headers={"PRIVATE-TOKEN": secret}, timeout=30)
    check(response.status_code == 403, f"token refused with 403, got {response.status_code}")
    check(response.json() == {"message": expected_message}, f"refusal message, got {response.text}")


if "states" in parts:
    user = new_user()
    secret = create_token(user)
    check(user.block() is True, "first block() returns True")
    check(user.state == "blocked", f"block() sets state, got {user.state}")
    check(user.block() is None, "second block() returns None (201 with no value)")
    check(gl.users.get(user.id).state == "blocked", "stored state blocked")
    check(user.unblock() is True, "unblock() returns True")
    check(user.unblock() is False, "unblock() of an active user returns False")

    check(user.ban() is True, "ban() returns True")
    check(user.state == "banned", f"ban() sets state, got {user.state}")
    check(gl.users.get(user.id).state == "banned", "stored state banned")
    token_refused(secret, "403 Forbidden  - User is blocked")
    error = refused(user.ban, errors.GitlabBanError, 403, "ban() of a banned user")
    check(error.error_message == "You cannot ban banned users.", f"ban message, got {error.error_message}")
    refused(user.activate, errors.GitlabActivateError, 403, "activate() of a banned user")
    check(user.unban() is True, "unban() returns True")
    error = refused(user.unban, errors.GitlabUnbanError, 403, "unban() of an active user")
    check(error.error_message == "You cannot unban active users.", f"unban message, got {error.error_message}")

    check(user.deactivate() is True, "deactivate() returns True")
    check(user.state == "deactivated", f"deactivate() sets state, got {user.state}")
    token_refused(
        secret,
        "403 Forbidden  - Your account has been deactivated by your administrator. "
        "Please log back in to reactivate your account.",
    )
    check(user.deactivate() is None, "deactivate() of a deactivated user returns None")
    refused(user.unblock, errors.GitlabUnblockError, 403, "unblock() of a deactivated user")
    check(user.activate() is True, "activate() returns True")
    check(gl.users.get(user.id).state == "active", "stored state active")
    check(gitlab.Gitlab(url, private_token=secret).http_get("/user")["id"] == user.id, "token works again")

    as_user = gitlab.Gitlab(url, private_token=create_token(new_user()))
    refused(lambda: as_user.users.get(user.id, lazy=True).ban(), errors.GitlabBanError, 403, "ban() by a non-admin")

if "identities" in parts:
    uid = f"uid-{secrets.token_hex(4)}"
    user = new_user(provider="github", extern_uid=uid)
    shown = [{"provider": "github", "extern_uid": uid, "saml_provider_id": None}]
    check(user.identities == shown, f"identities on create, got {user.identities}")
    check(gl.users.get(user.id).identities == shown, "identities on get")
    found = gl.users.list(provider="github", extern_uid=uid)
    check([u.id for u in found] == [user.id], f"users.list by identity, got {[u.id for u in found]}")
    refused(
        lambda: new_user(provider="github", extern_uid=uid.upper()), errors.GitlabCreateError, 400, "identity taken"
    )
    user.identityproviders.delete("github")
    check(gl.users.get(user.id).identities == [], "identity deleted")
    refused(lambda: user.identityproviders.delete("github"), errors.GitlabDeleteError, 404, "second delete")
    check(new_user(provider="github", extern_uid=uid).identities == shown, "the uid is free again")

if "attributes" in parts:
    user = new_user()
    attribute = user.customattributes.set("color", "red")
    check((attribute.key, attribute.value) == ("color", "red"), "set returns the attribute")
    user.customattributes.set("size", "L")
    user.customattributes.set("color", "blue")
    check(user.customattributes.get("color").value == "blue", "get reads the new value")
    listed = sorted((a.key, a.value) for a in user.customattributes.list())
    check(listed == [("color", "blue"), ("size", "L")], f"list, got {listed}")
    user.customattributes.delete("size")
    refused(lambda: user.customattributes.get("size"), errors.GitlabGetError, 404, "deleted attribute")

if "memberships" in parts:
    user = new_user()
    group = gl.groups.create({"name": f"{prefix}-g", "path": f"{prefix}-g"})
    group.members.create({"user_id": user.id, "access_level": 30})
    project = gl.projects.create({"name": f"{prefix}-p"})
    project.members.create({"user_id": user.id, "access_level": 40})
    every = [(m.source_type, m.source_id, m.source_name, m.access_level) for m in user.memberships.list(get_all=True)]
    check(
        every == [("Namespace", group.id, group.name, 30), ("Project", project.id, project.name, 40)],
        f"memberships, got {every}",
    )
    namespaces = user.memberships.list(type="Namespace", get_all=True)
    check([m.source_id for m in namespaces] == [group.id], "type=Namespace")
    projects = user.memberships.list(type="Project", get_all=True)
    check([m.source_id for m in projects] == [project.id], "type=Project")
    error = refused(lambda: user.memberships.list(type="Group"), errors.GitlabListError, 400, "type=Group")
    check(error.error_message == "type does not have a valid value", f"400 message, got {error.error_message}")

if "avatar" in parts:
    # A 1x1 PNG, then a different one for the update.
    first = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    second = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    )
    user = new_user(avatar=first)
    check(user.avatar_url and user.avatar_url.endswith("/avatar.png"), f"avatar_url, got {user.avatar_url}")
    served = requests.get(user.avatar_url, timeout=30)
    check(served.status_code == 200 and served.content == first, "the stored avatar is the bytes sent")
    user.avatar = second
    user.save()
    fresh = gl.users.get(user.id)
    served = requests.get(fresh.avatar_url, timeout=30)
    check(served.status_code == 200 and served.content == second, "the updated avatar is the new bytes")
    refused(
        lambda: new_user(avatar=b"not an image"), errors.GitlabCreateError, 400, "a file that is no image"
    )

print("ok")
