"""python-gitlab, unchanged, against the API: avatars of groups, projects and users.

Each round trip sends an image the way python-gitlab does (an `avatar` file attribute on create,
or set on the object and saved), then reads avatar_url back with requests and compares the bytes.
A file that is no image is refused with GitLab's 400. Removal uses a blank `avatar`, which
python-gitlab 3.12 can only send through gl.http_put (its ImageAttribute turns "" into an empty
file).

Usage: python3 check_avatars.py <base url> <admin token> [part ...], parts among groups, projects,
users (all when none is named). Exits non-zero with a message on the first mismatch; prints "ok"
when every check holds.
"""
import io
import secrets
import sys

import gitlab
import requests
from gitlab import exceptions as errors

from e2e_checks import check


url, token = sys.argv[1:3]
parts = set(sys.argv[3:]) or {"groups", "projects", "users"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pya-{secrets.token_hex(4)}"
PNG = bytes.fromhex("89504e470d0a1a0a") + secrets.token_bytes(200)
GIF = b"GIF89a" + secrets.token_bytes(120)
FORMAT_ERROR = (
    "file format is not supported. Please try one of the following supported formats: "
    "png, jpg, jpeg, gif, bmp, tiff, ico, webp"
)


def served(avatar_url, image, content_type, what):
    """avatar_url answers the same bytes, with the type the bytes show."""
    check(avatar_url is not None, f"{what}: avatar_url is null")
    response = requests.get(avatar_url, headers={"PRIVATE-TOKEN": token}, timeout=30)
    check(response.status_code == 200, f"{what}: GET avatar_url → {response.status_code}")
    check(response.content == image, f"{what}: the bytes read back differ")
    check(
        response.headers.get("content-type") == content_type,
        f"{what}: content-type {response.headers.get('content-type')!r}",
    )


def refused_as_no_image(call, what):
    try:
        call()
    except errors.GitlabError as error:
        check(error.response_code == 400, f"{what}: expected 400, got {error.response_code}")
        check(
            error.error_message == {"avatar": [FORMAT_ERROR]},
            f"{what}: message {error.error_message!r}",
        )
        return
    check(False, f"{what}: a text file was accepted as an avatar")


def groups():
    group = gl.groups.create(
        {"name": f"{prefix}-g", "path": f"{prefix}-g", "avatar": io.BytesIO(PNG)}
    )
    check(
        group.avatar_url == f"{url}/uploads/-/system/group/avatar/{group.id}/avatar.png",
        f"group avatar_url {group.avatar_url!r}",
    )
    served(group.avatar_url, PNG, "image/png", "group create")
    download = gl.http_get(f"/groups/{group.id}/avatar", raw=True)
    check(download.content == PNG, "GET /groups/:id/avatar bytes differ")

    group = gl.groups.get(group.id)
    group.avatar = io.BytesIO(GIF)
    group.save()
    group = gl.groups.get(group.id)
    served(group.avatar_url, GIF, "image/gif", "group save")

    def bad():
        group.avatar = io.BytesIO(b"<html>not an image</html>")
        group.save()

    refused_as_no_image(bad, "group save with a text file")
    check(gl.groups.get(group.id).avatar_url == group.avatar_url, "a refused avatar changed the group")

    gl.http_put(f"/groups/{group.id}", post_data={"avatar": ""})
    check(gl.groups.get(group.id).avatar_url is None, "group avatar not removed")


def projects():
    project = gl.projects.create({"name": f"{prefix}-p", "avatar": io.BytesIO(PNG)})
    check(
        project.avatar_url == f"{url}/uploads/-/system/project/avatar/{project.id}/avatar.png",
        f"project avatar_url {project.avatar_url!r}",
    )
    served(project.avatar_url, PNG, "image/png", "project create")
    download = gl.http_get(f"/projects/{project.id}/avatar", raw=True)
    check(download.content == PNG, "GET /projects/:id/avatar bytes differ")

    project.avatar = io.BytesIO(GIF)
    project.save()
    served(gl.projects.get(project.id).avatar_url, GIF, "image/gif", "project save")

    refused_as_no_image(
        lambda: gl.projects.create({"name": f"{prefix}-bad", "avatar": io.BytesIO(b"plain text")}),
        "project create with a text file",
    )

    gl.http_put(f"/projects/{project.id}", post_data={"avatar": ""})
    check(gl.projects.get(project.id).avatar_url is None, "project avatar not removed")


def users():
    user = gl.users.create(
        {
            "username": f"{prefix}-u",
            "email": f"{prefix}-u@example.com",
            "name": f"{prefix} u",
            "password": secrets.token_hex(12),
            "avatar": io.BytesIO(PNG),
        }
    )
    check(
        user.avatar_url == f"{url}/uploads/-/system/user/avatar/{user.id}/avatar.png",
        f"user avatar_url {user.avatar_url!r}",
    )
    served(user.avatar_url, PNG, "image/png", "user create")
    user = gl.users.get(user.id)
    user.avatar = io.BytesIO(GIF)
    user.save()
    served(gl.users.get(user.id).avatar_url, GIF, "image/gif", "user save")
    # Anyone may fetch a user's avatar.
    anonymous = requests.get(gl.users.get(user.id).avatar_url, timeout=30)
    check(anonymous.status_code == 200 and anonymous.content == GIF, "user avatar not public")


for name, part in (("groups", groups), ("projects", projects), ("users", users)):
    if name in parts:
        part()
print("ok")
