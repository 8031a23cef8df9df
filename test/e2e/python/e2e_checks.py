"""What the python-gitlab end-to-end scripts (check_*.py) share: the failure convention and users.

A script fails on its first mismatch: "FAILED: <message>" on stderr and exit status 1. The driver
(test/e2e/python-gitlab*.test.ts) expects stdout "ok" and an empty stderr.
"""
import sys

import gitlab
import requests
from gitlab import exceptions as errors

PASSWORD = "password123"


def idle(base_url):
    """Waits until the test runtime's background work is done (its POST /-/test/idle): the scripts
    wait for the work, never for the clock. The runtime's own safety timeout ends a stuck wait."""
    response = requests.post(f"{base_url}/-/test/idle", timeout=120)
    check(response.status_code == 204, f"runtime not idle: {response.status_code} {response.text}")


def check(condition, message):
    """Ends the script with message unless condition holds."""
    if not condition:
        print(f"FAILED: {message}", file=sys.stderr)
        sys.exit(1)


def refused(call, error_class, code, message):
    """Runs call, which must raise error_class with response_code code; returns the error."""
    try:
        result = call()
    except error_class as error:
        check(error.response_code == code, f"{message}: expected {code}, got {error.response_code}")
        return error
    except errors.GitlabError as error:
        check(False, f"{message}: expected {error_class.__name__} {code}, got {type(error).__name__} {error}")
    check(False, f"{message}: expected {error_class.__name__} {code}, got success {result!r}")
    return None


def create_user(client, username, name, /, email=None, **extra):
    """client.users.create with the shared password; the email is <username>@example.com unless given.

    The first three are positional only, so that extra may carry any attribute (admin=True too).
    """
    return client.users.create(
        {"email": email or f"{username}@example.com", "username": username, "name": name, "password": PASSWORD, **extra}
    )


def create_token(user, name="py", scopes=("api",)):
    """A new personal access token of user; returns its secret."""
    return user.personal_access_tokens.create({"name": name, "scopes": list(scopes)}).token


def user_with_client(client, url, username, name, token_name="py"):
    """A new user (made through client) and a client authenticated by a new api token of theirs."""
    user = create_user(client, username, name)
    return user, gitlab.Gitlab(url, private_token=create_token(user, token_name))
