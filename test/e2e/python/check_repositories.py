"""python-gitlab, unchanged, against the API: repositories and the project jobs.

Import (projects.create with import_url, import_status "finished" once the runtime is idle,
commit_count and default_branch as the remote has them), forks (project.forks.create, forks.list,
the fork "finished"), the fork relation (create_fork_relation, delete_fork_relation, with 409 and 304),
housekeeping (201, then 409 within the lease), pull mirroring (mirror_pull, mirror_pull_details,
400 for a project that is no mirror), project.delete() (202, then 404), and reading the imported
repository (branches, tags, repository_tree, files.get/raw, commits.list/get, commit.diff), and
comparing and archiving it (repository_compare, repository_contributors, commit.refs,
repository_archive).

Usage: python3 check_repositories.py <base url> <admin token> <remote url> <commit count>
[part ...], parts among import, forks, relation, housekeeping, mirror, delete, reads, compare (all when
none is named). Exits non-zero with a message on the first mismatch; prints "ok" when every check
holds.
"""
import secrets
import sys

import gitlab
from gitlab import exceptions as errors

from e2e_checks import check, idle, refused


url, token, remote, remote_count = sys.argv[1:5]
remote_count = int(remote_count)
parts = set(sys.argv[5:]) or {"import", "forks", "relation", "housekeeping", "mirror", "delete", "reads", "compare"}
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
prefix = f"pyr-{secrets.token_hex(4)}"


def settled(project_id):
    """The project once the runtime is idle (its job has run): import_status finished or failed."""
    idle(url)
    project = gl.projects.get(project_id, statistics=True)
    check(project.import_status in ("finished", "failed"), f"import_status still {project.import_status!r}")
    return project


def imported(name, **extra):
    project = gl.projects.create({"name": f"{prefix} {name}", "import_url": remote, **extra})
    check(project.import_status == "scheduled", f"a new import is scheduled, got {project.import_status!r}")
    return settled(project.id)


if "import" in parts:
    project = imported("import")
    check(project.import_status == "finished", f"import finished, got {project.import_status} {project.import_error}")
    check(project.import_error is None, f"no import_error, got {project.import_error!r}")
    check(project.default_branch == "trunk", f"default_branch follows the remote's HEAD, got {project.default_branch!r}")
    check(
        project.statistics["commit_count"] == remote_count,
        f"commit_count {project.statistics['commit_count']} != {remote_count}",
    )
    check(project.statistics["repository_size"] > 0, "repository_size counts the stored packs")
    check(
        project.statistics["storage_size"] >= project.statistics["repository_size"],
        "storage_size includes the repository",
    )
    check(project.import_url == remote, f"import_url shown to the owner, got {project.import_url!r}")

if "forks" in parts:
    source = imported("fork-source")
    group = gl.groups.create({"name": f"{prefix} forks", "path": f"{prefix}-forks"})
    fork = source.forks.create({"namespace": group.full_path})
    check(fork.import_status == "scheduled", f"a new fork is scheduled, got {fork.import_status!r}")
    check(fork.forked_from_project["id"] == source.id, f"forked_from_project, got {fork.forked_from_project!r}")
    check(fork.namespace["id"] == group.id, "the fork lives in the namespace asked for")
    done = settled(fork.id)
    check(done.import_status == "finished", f"fork finished, got {done.import_status} {done.import_error}")
    check(done.statistics["commit_count"] == remote_count, "the fork has the source's commits")
    check(done.default_branch == source.default_branch, "the fork's default branch is the source's")
    listed = source.forks.list()
    check([f.id for f in listed] == [fork.id], f"forks.list(), got {[f.id for f in listed]}")
    check(gl.projects.get(source.id).forks_count == 1, "forks_count of the source")
    error = refused(
        lambda: source.forks.create({"namespace": group.full_path}), errors.GitlabCreateError, 409, "a second fork"
    )
    check("has already been taken" in str(error.error_message), f"409 names the clash, got {error.error_message!r}")
    refused(
        lambda: source.forks.create({"namespace": "no-such-namespace-" + prefix}),
        errors.GitlabCreateError,
        404,
        "an unknown namespace",
    )

if "relation" in parts:
    first = gl.projects.create({"name": f"{prefix} rel-a"})
    second = gl.projects.create({"name": f"{prefix} rel-b"})
    second.create_fork_relation(first.id)
    linked = gl.projects.get(second.id)
    check(linked.forked_from_project["id"] == first.id, f"create_fork_relation, got {linked.attributes}")
    check(gl.projects.get(first.id).forks_count == 1, "forks_count after create_fork_relation")
    refused(lambda: second.create_fork_relation(first.id), errors.GitlabCreateError, 409, "already forked")
    second.delete_fork_relation()
    check("forked_from_project" not in gl.projects.get(second.id).attributes, "delete_fork_relation")
    check(gl.projects.get(first.id).forks_count == 0, "forks_count after delete_fork_relation")
    # A project that is no fork: 304, which python-gitlab reports as an error.
    refused(second.delete_fork_relation, errors.GitlabDeleteError, 304, "no relation to delete")

if "housekeeping" in parts:
    project = imported("housekeeping")
    project.housekeeping()
    error = refused(project.housekeeping, errors.GitlabHousekeepingError, 409, "housekeeping within the lease")
    check(
        str(error.error_message).startswith("Somebody already triggered housekeeping for this project"),
        f"the lease's message, got {error.error_message!r}",
    )

if "mirror" in parts:
    plain = gl.projects.create({"name": f"{prefix} plain"})
    error = refused(plain.mirror_pull, errors.GitlabCreateError, 400, "mirror_pull of a project that is no mirror")
    check(error.error_message == "The project is not mirrored", f"400 message, got {error.error_message!r}")
    mirror = imported("mirror", mirror=True)
    check(mirror.mirror is True, f"mirror, got {mirror.attributes.get('mirror')!r}")
    check(mirror.mirror_user_id == gl.user.id, f"mirror_user_id, got {mirror.attributes.get('mirror_user_id')!r}")
    mirror.mirror_pull()
    done = settled(mirror.id)
    check(done.import_status == "finished", f"mirror update finished, got {done.import_status}")
    details = mirror.mirror_pull_details()
    check(details["update_status"] == "finished", f"mirror_pull_details, got {details!r}")
    check(details["last_successful_update_at"] is not None, "last_successful_update_at")
    check(details["url"] == remote, f"the mirror's url, got {details['url']!r}")

if "delete" in parts:
    project = imported("delete")
    project.delete()
    refused(lambda: gl.projects.get(project.id), errors.GitlabGetError, 404, "a deleted project")
    refused(lambda: gl.projects.delete(project.id), errors.GitlabDeleteError, 404, "a second delete")
    again = gl.projects.create({"name": f"{prefix} delete"})
    check(again.path == project.path, "the path is free at once")

if "reads" in parts:
    # The remote (test/support/git-server.ts makeRepository): commit i (1-based) sets
    # file-<(i-1) mod 10>.txt to "line i" repeated 1 + (i-1) mod 7 times; an annotated tag v1.0 on the last.
    project = imported("reads")
    content = lambda i: f"line {i}\n".encode() * (1 + (i - 1) % 7)
    branches = project.branches.list(get_all=True)
    check([b.name for b in branches] == ["trunk"], f"branches.list(), got {[b.name for b in branches]}")
    trunk = project.branches.get("trunk")
    check(trunk.default is True and trunk.merged is False, f"the default branch, got {trunk.attributes}")
    check(trunk.commit["title"] == f"Commit {remote_count}", f"the branch's commit, got {trunk.commit}")
    tags = project.tags.list(get_all=True)
    check([t.name for t in tags] == ["v1.0"], f"tags.list(), got {[t.name for t in tags]}")
    check(tags[0].commit["id"] == trunk.commit["id"], "the tag is on the last commit")
    check(tags[0].message.startswith("Release v1.0"), f"the tag's message, got {tags[0].message!r}")
    tree = project.repository_tree(ref="trunk", get_all=True)
    names = sorted(entry["name"] for entry in tree)
    check(names == [f"file-{i}.txt" for i in range(10)], f"repository_tree(), got {names}")
    check(all(entry["type"] == "blob" and entry["mode"] == "100644" for entry in tree), f"blobs, got {tree}")
    last_of_file0 = max(i for i in range(1, remote_count + 1) if (i - 1) % 10 == 0)
    got = project.files.get(file_path="file-0.txt", ref="trunk")
    check(got.decode() == content(last_of_file0), f"files.get().decode(), got {got.decode()!r}")
    check(got.file_name == "file-0.txt" and got.encoding == "base64", f"file facts, got {got.attributes}")
    raw = project.files.raw(file_path="file-0.txt", ref="trunk")
    check(raw == content(last_of_file0), f"files.raw(), got {raw!r}")
    refused(
        lambda: project.files.get(file_path="missing.txt", ref="trunk"), errors.GitlabGetError, 404, "a missing file"
    )
    commits = project.commits.list(ref_name="trunk", per_page=5, get_all=False)
    titles = [c.title for c in commits]
    check(titles == [f"Commit {remote_count - i}" for i in range(5)], f"commits.list(), got {titles}")
    head = project.commits.get(trunk.commit["id"])
    before = remote_count - 10
    expected = {
        "additions": len(content(remote_count).splitlines()),
        "deletions": len(content(before).splitlines()),
    }
    expected["total"] = expected["additions"] + expected["deletions"]
    check(head.stats == expected, f"commits.get() stats, got {head.stats} want {expected}")
    diffs = head.diff(get_all=True)
    check([d["new_path"] for d in diffs] == [f"file-{(remote_count - 1) % 10}.txt"], f"commit.diff(), got {diffs}")
    check(diffs[0]["diff"].startswith("@@ -1,2 +1,5 @@\n"), f"the hunk, got {diffs[0]['diff']!r}")
    refused(lambda: project.commits.get("f" * 40), errors.GitlabGetError, 404, "an unknown commit")

if "compare" in parts:
    # The remote as above: 40 commits on trunk by one author, each changing one file; v1.0 on the last.
    import io
    import tarfile

    project = imported("compare")
    recent = project.commits.list(ref_name="trunk", per_page=4, get_all=False)
    compared = project.repository_compare(recent[3].id, "trunk")
    ids = [c["id"] for c in compared["commits"]]
    check(ids == [c.id for c in reversed(recent[:3])], f"repository_compare() commits oldest first, got {ids}")
    check(compared["commit"]["id"] == recent[0].id, f"the newest as commit, got {compared['commit']}")
    paths = sorted(d["new_path"] for d in compared["diffs"])
    want = sorted(f"file-{(remote_count - 1 - i) % 10}.txt" for i in range(3))
    check(paths == want, f"repository_compare() diffs, got {paths} want {want}")
    check(compared["compare_same_ref"] is False and compared["compare_timeout"] is False, f"flags, got {compared}")
    same = project.repository_compare("trunk", "v1.0")
    check(same["compare_same_ref"] is True and same["commits"] == [], f"the same ref, got {same}")
    refused(lambda: project.repository_compare("trunk", "nope"), errors.GitlabGetError, 404, "an unknown ref")
    contributors = project.repository_contributors(get_all=True)
    check(
        contributors
        == [{"name": "Fixture Author", "email": "author@example.com", "commits": remote_count, "additions": 0, "deletions": 0}],
        f"repository_contributors(), got {contributors}",
    )
    refs = project.commits.get(recent[3].id).refs()
    check(
        refs == [{"type": "branch", "name": "trunk"}, {"type": "tag", "name": "v1.0"}],
        f"commit.refs() (all: v1.0 is on the last commit), got {refs}",
    )
    branches = project.commits.get(recent[0].id).refs(type="branch")
    check(branches == [{"type": "branch", "name": "trunk"}], f"commit.refs(type='branch'), got {branches}")
    archive = project.repository_archive()
    check(isinstance(archive, bytes), f"repository_archive() gives bytes, got {type(archive)}")
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        names = sorted(tar.getnames())
        top = f"{project.path}-trunk-{recent[0].id}"
        check(names == [top] + [f"{top}/file-{i}.txt" for i in range(10)], f"the archive's names, got {names}")
        member = tar.extractfile(f"{top}/file-0.txt")
        last_of_file0 = max(i for i in range(1, remote_count + 1) if (i - 1) % 10 == 0)
        body = member.read() if member else b""
        check(body == f"line {last_of_file0}\n".encode() * (1 + (last_of_file0 - 1) % 7), f"file-0.txt, got {body!r}")
    # The format travels only as a query parameter here (no `archive.<format>` routes), so
    # python-gitlab's format= (a path suffix) is not used.
    older = project.repository_archive(sha=recent[3].id)
    with tarfile.open(fileobj=io.BytesIO(older), mode="r:gz") as tar:
        top = f"{project.path}-{recent[3].id}-{recent[3].id}"
        check(tar.getnames()[0] == top, f"repository_archive(sha=) is named by the sha twice, got {tar.getnames()[0]}")

print("ok")
