/**
 * Merge requests from a fork into its upstream against the shared runtime: a public upstream
 * imported from `git http-backend`, forked through the API, committed to in the fork through the
 * files API; the merge request is opened from the fork into the upstream (created there, with the
 * upstream's iid), its code read across both repositories, merged into the upstream (whose
 * repository then clones fsck-clean over dumb HTTP, holding the fork's commits), and the issues
 * its description names in other projects closed where the merger may close them. GitLab's
 * refusals of targets outside the network, hidden or missing, and of missing branches.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';

interface ProjectBody {
  id: number;
  path: string;
  path_with_namespace: string;
  http_url_to_repo: string;
}

type Mr = Record<string, unknown> & { iid: number; project_id: number };

let root: string;
let server: GitServer;
let owner: TestUser;
let forker: TestUser;
let stranger: TestUser;
let upstream: ProjectBody;
let fork: ProjectBody;
let upstreamMain: string;

const imported = (token: string, name: string, extra = {}) =>
  must(
    api<ProjectBody>('POST', '/projects', {
      token,
      json: { name: unique(name), visibility: 'public', import_url: server.url('source.git'), ...extra },
    }),
    201,
    name,
  );

const created = (token: string, path: string, json: Record<string, unknown>) =>
  must(api<ProjectBody & { iid: number }>('POST', path, { token, json }), 201, path);

/** A commit on `branch` of the fork (started from main), through the files API; its sha. */
async function commitInFork(branch: string, file: string, message: string): Promise<string> {
  const commit = await created(forker.token, `/projects/${fork.id}/repository/commits`, {
    branch,
    start_branch: 'main',
    commit_message: message,
    actions: [{ action: 'create', file_path: file, content: `${file}\n` }],
  });
  return (commit as unknown as { id: string }).id;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fork-mrs-'));
  ({ head: upstreamMain } = await makeRepository(join(root, 'source.git'), { commits: 3 }));
  server = await startGitServer(root);
  [owner, forker, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  upstream = await imported(owner.token, 'upstream');
  await idle();
  fork = await created(forker.token, `/projects/${upstream.id}/fork`, {});
  await idle();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

describe('a merge request from a fork', () => {
  let mr: Mr;
  let tip: string;
  const closable: { sibling: ProjectBody; grouped: ProjectBody; foreign: ProjectBody } = {} as never;

  it('is created in the upstream with its iid; listed and read there, not in the fork', async () => {
    // The upstream's counter is at 1 already: the fork's merge request takes 2 there.
    await must(
      api('POST', `/projects/${upstream.id}/repository/branches`, {
        token: owner.token,
        json: { branch: 'side', ref: 'main' },
      }),
      201,
      'branch',
    );
    const first = await created(owner.token, `/projects/${upstream.id}/merge_requests`, {
      source_branch: 'side',
      target_branch: 'main',
      title: 'Side',
    });
    expect(first.iid).toBe(1);

    // Issues the merge will close: the upstream's own, a sibling's (short reference), a group
    // project's (full path), and a stranger's public project's (the merger may not close it).
    await created(owner.token, `/projects/${upstream.id}/issues`, { title: 'Upstream issue' });
    closable.sibling = await created(owner.token, '/projects', {
      name: unique('sibling'),
      visibility: 'public',
    });
    const groupPath = unique('grp');
    const group = await created(owner.token, '/groups', {
      name: groupPath,
      path: groupPath,
      visibility: 'public',
    });
    closable.grouped = await created(owner.token, '/projects', {
      name: unique('grouped'),
      namespace_id: group.id,
      visibility: 'public',
    });
    closable.foreign = await created(stranger.token, '/projects', {
      name: unique('foreign'),
      visibility: 'public',
    });
    for (const [project, token] of [
      [closable.sibling, owner.token],
      [closable.grouped, owner.token],
      [closable.foreign, stranger.token],
    ] as const)
      await created(token, `/projects/${project.id}/issues`, { title: 'Elsewhere' });

    tip = await commitInFork('feature', 'from-fork.txt', 'Add from-fork.txt\n\nCloses #1');
    const answer = await api<Mr>('POST', `/projects/${fork.id}/merge_requests`, {
      token: forker.token,
      json: {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'From the fork',
        target_project_id: upstream.id,
        description: `Closes ${closable.sibling.path}#1, closes ${closable.grouped.path_with_namespace}#1 and closes ${closable.foreign.path_with_namespace}#1`,
        labels: 'dropped',
      },
    });
    expect(answer.status, answer.text).toBe(201);
    mr = answer.body;
    const code = {
      iid: 2,
      project_id: upstream.id,
      source_project_id: fork.id,
      target_project_id: upstream.id,
      source_branch: 'feature',
      target_branch: 'main',
      sha: tip,
      diff_refs: { base_sha: upstreamMain, head_sha: tip, start_sha: upstreamMain },
      changes_count: '1',
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      has_conflicts: false,
      // Not a developer of the upstream: the labels sent are not the contributor's to set.
      labels: [],
      web_url: expect.stringContaining(`/${upstream.path_with_namespace}/merge_requests/2`),
    };
    expect(mr).toMatchObject(code);

    const listed = await api<Mr[]>('GET', `/projects/${upstream.id}/merge_requests`, { token: forker.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((one) => [one.iid, one.source_project_id])).toEqual([
      [2, fork.id],
      [1, upstream.id],
    ]);
    const inFork = await api<Mr[]>('GET', `/projects/${fork.id}/merge_requests`, { token: forker.token });
    expect(inFork.status).toBe(200);
    expect(inFork.body).toEqual([]);
    const read = await api<Mr>('GET', mrPath(upstream.id, 2), { token: forker.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(code);
  });

  it('reads its changes, diffs and commits across both repositories', async () => {
    const changes = await api<Mr & { changes: { new_path: string; diff: string; new_file: boolean }[] }>(
      'GET',
      `${mrPath(upstream.id, mr.iid)}/changes`,
      { token: forker.token },
    );
    expect(changes.status).toBe(200);
    expect(changes.body).toMatchObject({ sha: tip, changes_count: '1', overflow: false });
    expect(changes.body.changes.map((change) => [change.new_path, change.new_file, change.diff])).toEqual([
      ['from-fork.txt', true, '@@ -0,0 +1 @@\n+from-fork.txt\n'],
    ]);
    const diffs = await api<{ new_path: string }[]>('GET', `${mrPath(upstream.id, mr.iid)}/diffs`, {
      token: forker.token,
    });
    expect(diffs.status).toBe(200);
    expect(diffs.body.map((diff) => diff.new_path)).toEqual(['from-fork.txt']);
    const commits = await api<{ id: string; title: string }[]>(
      'GET',
      `${mrPath(upstream.id, mr.iid)}/commits`,
      {
        token: forker.token,
      },
    );
    expect(commits.status).toBe(200);
    expect(commits.body.map((commit) => [commit.id, commit.title])).toEqual([[tip, 'Add from-fork.txt']]);
  });

  it('refuses a second open one of the same branches (409), and a rebase by one who may not push to the fork (403)', async () => {
    const again = await api('POST', `/projects/${fork.id}/merge_requests`, {
      token: forker.token,
      json: {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'Again',
        target_project_id: upstream.id,
      },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: ['Another open merge request already exists for this source branch: !2'],
    });
    const rebase = await api('PUT', `${mrPath(upstream.id, mr.iid)}/rebase`, { token: owner.token });
    expect(rebase.status).toBe(403);
    expect(rebase.body).toEqual({ message: '403 Forbidden  - Cannot push to source branch' });
  });

  it("merges into the upstream, which then holds the fork's commit; issues named close where the merger may", async () => {
    const merged = await api<Mr>('PUT', `${mrPath(upstream.id, mr.iid)}/merge`, {
      token: owner.token,
      json: { sha: tip, should_remove_source_branch: true },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({
      state: 'merged',
      merged_by: expect.objectContaining({ id: owner.id }),
      merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      sha: tip,
      diff_refs: { base_sha: upstreamMain, head_sha: tip, start_sha: upstreamMain },
    });
    const head = await api<{ id: string; parent_ids: string[] }>(
      'GET',
      `/projects/${upstream.id}/repository/commits/main`,
      { token: owner.token },
    );
    expect(head.status).toBe(200);
    expect(head.body.id).toBe(merged.body.merge_commit_sha);
    expect(head.body.parent_ids).toEqual([upstreamMain, tip]);
    const file = await api<{ content: string }>(
      'GET',
      `/projects/${upstream.id}/repository/files/from-fork.txt?ref=main`,
      { token: owner.token },
    );
    expect(file.status).toBe(200);
    expect(Buffer.from(file.body.content, 'base64').toString()).toBe('from-fork.txt\n');
    // The merger may not push to the fork: its branch stays.
    const kept = await api<{ commit: { id: string } }>(
      'GET',
      `/projects/${fork.id}/repository/branches/feature`,
      {
        token: forker.token,
      },
    );
    expect(kept.status).toBe(200);
    expect(kept.body.commit.id).toBe(tip);

    await idle();
    const stateOf = async (projectId: number) =>
      (await api<{ state: string }>('GET', `/projects/${projectId}/issues/1`, { token: owner.token })).body
        .state;
    expect(await stateOf(upstream.id)).toBe('closed');
    expect(await stateOf(closable.sibling.id)).toBe('closed');
    expect(await stateOf(closable.grouped.id)).toBe('closed');
    expect(await stateOf(closable.foreign.id)).toBe('opened');
  });

  it("a merger who is the fork's developer removes its source branch; the upstream clones fsck-clean", async () => {
    // A maintainer of the upstream: its main, protected by its import, takes merges from them.
    await must(
      api('POST', `/projects/${upstream.id}/members`, {
        token: owner.token,
        json: { user_id: forker.id, access_level: 40 },
      }),
      201,
      'member',
    );
    const second = await commitInFork('feature-2', 'second.txt', 'Add second.txt');
    const opened = await created(forker.token, `/projects/${fork.id}/merge_requests`, {
      source_branch: 'feature-2',
      target_branch: 'main',
      title: 'Second from the fork',
      target_project_id: upstream.id,
      squash: true,
    });
    expect(opened.iid).toBe(3);
    // The fork's main is behind the upstream's now: the rebase replays the branch in the fork on
    // the upstream's merge commit, whose objects the fork's repository then holds.
    const upstreamHead = (
      await api<{ id: string }>('GET', `/projects/${upstream.id}/repository/commits/main`, {
        token: owner.token,
      })
    ).body.id;
    const rebased = await api('PUT', `${mrPath(upstream.id, opened.iid)}/rebase`, { token: forker.token });
    expect(rebased.status, rebased.text).toBe(202);
    expect(rebased.body).toEqual({ rebase_in_progress: false });
    const moved = await api<{ commit: { id: string; parent_ids: string[]; title: string } }>(
      'GET',
      `/projects/${fork.id}/repository/branches/feature-2`,
      { token: forker.token },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.commit.parent_ids).toEqual([upstreamHead]);
    expect(moved.body.commit.title).toBe('Add second.txt');
    const read = await api<Mr>('GET', mrPath(upstream.id, opened.iid), { token: forker.token });
    expect(read.body).toMatchObject({
      sha: moved.body.commit.id,
      diff_refs: { base_sha: upstreamHead, head_sha: moved.body.commit.id, start_sha: upstreamHead },
    });
    await idle();
    const forkClone = join(root, unique('fork-clone'));
    await git(['-c', 'http.followRedirects=true', 'clone', '--quiet', fork.http_url_to_repo, forkClone]);
    await git(['fsck', '--strict', '--no-dangling'], forkClone);
    expect(await git(['rev-parse', 'origin/feature-2^'], forkClone)).toBe(upstreamHead);

    const merged = await api<Mr>('PUT', `${mrPath(upstream.id, opened.iid)}/merge`, {
      token: forker.token,
      json: { should_remove_source_branch: true },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({
      state: 'merged',
      squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    const gone = await api('GET', `/projects/${fork.id}/repository/branches/feature-2`, {
      token: forker.token,
    });
    expect(gone.status).toBe(404);
    await idle();

    const into = join(root, unique('clone'));
    await git(['-c', 'http.followRedirects=true', 'clone', '--quiet', upstream.http_url_to_repo, into]);
    await git(['fsck', '--strict', '--no-dangling'], into);
    const history = (await git(['log', '--format=%H', 'main'], into)).split('\n');
    expect(history).toContain(tip);
    expect(history).toContain(merged.body.merge_commit_sha);
    expect(history).toContain(merged.body.squash_commit_sha);
    expect(history).not.toContain(second);
    expect((await git(['show', 'main:second.txt'], into)).trim()).toBe('second.txt');
  });
});

describe('refusals', () => {
  it('a target outside the fork network → 422; hidden or missing → 404; a non-developer of the source → 403', async () => {
    const unrelated = await created(forker.token, '/projects', {
      name: unique('unrelated'),
      visibility: 'public',
    });
    const hidden = await created(owner.token, '/projects', { name: unique('hidden'), visibility: 'private' });
    const open = (projectId: number, token: string, json: Record<string, unknown>) =>
      api('POST', `/projects/${projectId}/merge_requests`, {
        token,
        json: { source_branch: 'feature', target_branch: 'main', title: 'x', ...json },
      });
    const outside = await open(fork.id, forker.token, { target_project_id: unrelated.id });
    expect(outside.status).toBe(422);
    expect(outside.body).toEqual({ error: ['Source project is not a fork of the target project'] });
    for (const target of [hidden.id, 999_999_999]) {
      const missing = await open(fork.id, forker.token, { target_project_id: target });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    }
    const notDeveloper = await open(fork.id, stranger.token, { target_project_id: upstream.id });
    expect(notDeveloper.status).toBe(403);
    expect(notDeveloper.body).toEqual({ message: '403 Forbidden' });
  });

  it('branches each repository lacks → 400 naming each', async () => {
    const answer = await api('POST', `/projects/${fork.id}/merge_requests`, {
      token: forker.token,
      json: { source_branch: 'side', target_branch: 'gone', title: 'x', target_project_id: upstream.id },
    });
    // `side` is the upstream's branch, not the fork's.
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: { source_branch: ['does not exist'], target_branch: ['does not exist'] },
    });
  });
});
