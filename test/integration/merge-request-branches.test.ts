/**
 * Merge requests between real branches against the shared runtime: a fixture built with the git
 * CLI (main with a commit after the fork point; `feature` diverged from it without conflicts and
 * naming an issue to close; `clash` changing the line main changed; `ahead` on main's tip) is
 * imported from `git http-backend` into a fresh project per test, then sha, diff_refs, changes,
 * diffs, commits, merge (merge commit, squash, fast-forward refusal), rebase and the refusals are
 * compared with what git says of the fixture.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { type GitServer, git, startGitServer } from '../support/git-server.ts';

let root: string;
let work: string;
let server: GitServer;
let owner: TestUser;
let fx: { base: string; main: string; feature: string; feature1: string; clash: string; ahead: string };

const IDENTITY = ['-c', 'user.name=Ada Author', '-c', 'user.email=ada@example.com'];

async function commit(message: string, files: Record<string, string>, when: string) {
  for (const [path, content] of Object.entries(files)) await writeFile(join(work, path), content);
  await git(['add', '-A'], work);
  await git([...IDENTITY, 'commit', '-q', '-m', message, '--date', when], work);
  return git(['rev-parse', 'HEAD'], work);
}

const LINES = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mr-branches-'));
  work = join(root, 'work');
  await git(['init', '-q', '-b', 'main', work]);
  const base = await commit('First commit', { 'f.txt': LINES, 'README.md': '# R\n' }, '2026-01-01T10:00:00Z');
  await git(['checkout', '-q', '-b', 'feature'], work);
  const feature1 = await commit(
    'Capital A',
    { 'f.txt': LINES.replace('a\n', 'A\n') },
    '2026-01-02T10:00:00Z',
  );
  const feature = await commit('Add n\n\nFixes #1', { 'n.txt': 'new\n' }, '2026-01-03T10:00:00Z');
  await git(['checkout', '-q', '-b', 'clash', base], work);
  const clash = await commit('Other j', { 'f.txt': LINES.replace('j\n', 'Z\n') }, '2026-01-02T11:00:00Z');
  await git(['checkout', '-q', 'main'], work);
  const main = await commit('Capital J', { 'f.txt': LINES.replace('j\n', 'J\n') }, '2026-01-04T10:00:00Z');
  await git(['checkout', '-q', '-b', 'ahead'], work);
  const ahead = await commit('Ahead', { 'x.txt': 'x\n' }, '2026-01-05T10:00:00Z');
  await git(['checkout', '-q', 'main'], work);
  fx = { base, main, feature, feature1, clash, ahead };
  await git(['clone', '-q', '--bare', work, join(root, 'source.git')]);
  server = await startGitServer(root);
  owner = await createUser();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A new project importing the fixture, with issue #1 open. */
async function importedProject(): Promise<{ id: number; path_with_namespace: string }> {
  const created = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', {
    token: owner.token,
    json: { name: unique('mrs'), visibility: 'private', import_url: server.url('source.git') },
  });
  expect(created.status, created.text).toBe(201);
  await idle();
  const issue = await api('POST', `/projects/${created.body.id}/issues`, {
    token: owner.token,
    json: { title: 'Fix me' },
  });
  expect(issue.status).toBe(201);
  await idle();
  return created.body;
}

type Mr = Record<string, unknown> & { iid: number };

async function openMr(projectId: number, source: string, title = `Merge ${source}`, extra = {}) {
  const created = await api<Mr>('POST', `/projects/${projectId}/merge_requests`, {
    token: owner.token,
    json: { source_branch: source, target_branch: 'main', title, ...extra },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

describe('creating', () => {
  it('branches the repository lacks → 400 naming each; the same branch → 409', async () => {
    const project = await importedProject();
    const missing = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
      json: { source_branch: 'nope', target_branch: 'gone', title: 'x' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: { source_branch: ['does not exist'], target_branch: ['does not exist'] },
    });
    const same = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
      json: { source_branch: 'main', target_branch: 'main', title: 'x' },
    });
    expect(same.status).toBe(409);
    const retarget = await openMr(project.id, 'feature');
    const moved = await api('PUT', mrPath(project.id, retarget.iid), {
      token: owner.token,
      json: { target_branch: 'gone' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ message: { target_branch: ['does not exist'] } });
  });
});

describe('reading', () => {
  it('sha, diff_refs, changes_count and statuses from the branches; changes, diffs and commits', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature');
    const expected = {
      sha: fx.feature,
      diff_refs: { base_sha: fx.base, head_sha: fx.feature, start_sha: fx.main },
      changes_count: '2',
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      has_conflicts: false,
    };
    expect(mr).toMatchObject(expected);
    const read = await api<Mr>('GET', mrPath(project.id, mr.iid), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(expected);

    const changes = await api<Mr & { changes: unknown[] }>('GET', `${mrPath(project.id, mr.iid)}/changes`, {
      token: owner.token,
    });
    expect(changes.status).toBe(200);
    expect(changes.body).toMatchObject({ ...expected, overflow: false });
    expect(changes.body.changes).toEqual([
      {
        old_path: 'f.txt',
        new_path: 'f.txt',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
        collapsed: false,
        too_large: false,
        diff: '@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n',
      },
      {
        old_path: 'n.txt',
        new_path: 'n.txt',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
        collapsed: false,
        too_large: false,
        diff: '@@ -0,0 +1 @@\n+new\n',
      },
    ]);

    const diffs = await api<{ new_path: string }[]>(
      'GET',
      `${mrPath(project.id, mr.iid)}/diffs?per_page=1&page=2`,
      {
        token: owner.token,
      },
    );
    expect(diffs.status).toBe(200);
    expect(diffs.body.map((diff) => diff.new_path)).toEqual(['n.txt']);
    expect(diffs.headers.get('x-total')).toBe('2');

    const commits = await api<{ id: string; title: string }[]>(
      'GET',
      `${mrPath(project.id, mr.iid)}/commits`,
      {
        token: owner.token,
      },
    );
    expect(commits.status).toBe(200);
    expect(commits.body.map((c) => [c.id, c.title])).toEqual([
      [fx.feature, 'Add n'],
      [fx.feature1, 'Capital A'],
    ]);
  });

  it('a merge request whose branches conflict: cannot_be_merged, has_conflicts; its merge → 405', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'clash');
    expect(mr).toMatchObject({
      sha: fx.clash,
      merge_status: 'cannot_be_merged',
      detailed_merge_status: 'conflict',
      has_conflicts: true,
    });
    const merge = await api('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: owner.token });
    expect(merge.status).toBe(405);
    expect(merge.body).toEqual({ message: '405 Method Not Allowed' });
  });
});

describe('merging', () => {
  it('a merge commit of main and feature; the source removed; "Fixes #1" in a commit closes issue 1', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature');
    const wrongSha = await api('PUT', `${mrPath(project.id, mr.iid)}/merge`, {
      token: owner.token,
      json: { sha: fx.main },
    });
    expect(wrongSha.status).toBe(409);
    expect(wrongSha.body).toEqual({ message: 'SHA does not match HEAD of source branch' });

    const merged = await api<Mr>('PUT', `${mrPath(project.id, mr.iid)}/merge`, {
      token: owner.token,
      json: { sha: fx.feature, should_remove_source_branch: true },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({
      state: 'merged',
      merged_by: expect.objectContaining({ id: owner.id }),
      merged_at: expect.any(String),
      merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      squash_commit_sha: null,
      sha: fx.feature,
      diff_refs: { base_sha: fx.base, head_sha: fx.feature, start_sha: fx.main },
      changes_count: '2',
      detailed_merge_status: 'not_open',
    });
    const mergeSha = merged.body.merge_commit_sha as string;
    const head = await api<{ id: string; parent_ids: string[]; message: string }>(
      'GET',
      `/projects/${project.id}/repository/commits/main`,
      { token: owner.token },
    );
    expect(head.status).toBe(200);
    expect(head.body.id).toBe(mergeSha);
    expect(head.body.parent_ids).toEqual([fx.main, fx.feature]);
    expect(head.body.message).toBe(
      `Merge branch 'feature' into 'main'\n\nMerge feature\n\nSee merge request ${project.path_with_namespace}!${mr.iid}\n`,
    );
    const branch = await api('GET', `/projects/${project.id}/repository/branches/feature`, {
      token: owner.token,
    });
    expect(branch.status).toBe(404);
    const tree = await api<{ path: string }[]>('GET', `/projects/${project.id}/repository/tree?ref=main`, {
      token: owner.token,
    });
    expect(tree.body.map((entry) => entry.path).sort()).toEqual(['README.md', 'f.txt', 'n.txt']);
    const file = await api<{ content: string }>(
      'GET',
      `/projects/${project.id}/repository/files/f.txt?ref=main`,
      {
        token: owner.token,
      },
    );
    expect(Buffer.from(file.body.content, 'base64').toString()).toBe(
      LINES.replace('a\n', 'A\n').replace('j\n', 'J\n'),
    );
    await idle();
    const issue = await api<{ state: string }>('GET', `/projects/${project.id}/issues/1`, {
      token: owner.token,
    });
    expect(issue.body.state).toBe('closed');

    // Merged: the merge again is refused, the changes stay readable with the source gone.
    const again = await api('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: owner.token });
    expect(again.status).toBe(405);
    const changes = await api<{ changes: unknown[] }>('GET', `${mrPath(project.id, mr.iid)}/changes`, {
      token: owner.token,
    });
    expect(changes.status).toBe(200);
    expect(changes.body.changes).toHaveLength(2);
  });

  it('squash: one commit by the author on the merge base, merged with a merge commit', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature', 'Squashed feature', { description: 'Closes #1' });
    const merged = await api<Mr>('PUT', `${mrPath(project.id, mr.iid)}/merge`, {
      token: owner.token,
      json: { squash: true },
    });
    expect(merged.status, merged.text).toBe(200);
    const squash = merged.body.squash_commit_sha as string;
    expect(squash).toMatch(/^[0-9a-f]{40}$/);
    const squashed = await api<{ parent_ids: string[]; message: string }>(
      'GET',
      `/projects/${project.id}/repository/commits/${squash}`,
      { token: owner.token },
    );
    expect(squashed.body).toMatchObject({ parent_ids: [fx.base], message: 'Squashed feature\n' });
    const head = await api<{ id: string; parent_ids: string[]; message: string }>(
      'GET',
      `/projects/${project.id}/repository/commits/main`,
      { token: owner.token },
    );
    expect(head.body.parent_ids).toEqual([fx.main, squash]);
    expect(head.body.message).toContain('Closes #1');
    // The source branch stays when not asked to go.
    const branch = await api('GET', `/projects/${project.id}/repository/branches/feature`, {
      token: owner.token,
    });
    expect(branch.status).toBe(200);
    await idle();
    const issue = await api<{ state: string }>('GET', `/projects/${project.id}/issues/1`, {
      token: owner.token,
    });
    expect(issue.body.state).toBe('closed');
  });

  it('a merge into a branch other than the default closes nothing it names', async () => {
    const project = await importedProject();
    const created = await api<Mr>('POST', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
      json: {
        source_branch: 'feature',
        target_branch: 'ahead',
        title: 'Into ahead',
        description: 'Closes #1',
      },
    });
    expect(created.status, created.text).toBe(201);
    const merged = await api<Mr>('PUT', `${mrPath(project.id, created.body.iid)}/merge`, {
      token: owner.token,
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.state).toBe('merged');
    await idle();
    const issue = await api<{ state: string }>('GET', `/projects/${project.id}/issues/1`, {
      token: owner.token,
    });
    expect(issue.body.state).toBe('opened');
  });

  it('a developer merges; a reporter → 401', async () => {
    const project = await importedProject();
    const reporter = await createUser();
    const member = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: reporter.id, access_level: 20 },
    });
    expect(member.status).toBe(201);
    const mr = await openMr(project.id, 'ahead');
    const refused = await api('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: reporter.token });
    expect(refused.status).toBe(401);
    const merged = await api<Mr>('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: owner.token });
    expect(merged.status).toBe(200);
    expect(merged.body.diff_refs).toEqual({ base_sha: fx.main, head_sha: fx.ahead, start_sha: fx.main });
  });

  it('merge_method ff: a diverged source is refused (405), one on the target tip fast-forwards', async () => {
    const project = await importedProject();
    const set = await api<{ merge_method: string }>('PUT', `/projects/${project.id}`, {
      token: owner.token,
      json: { merge_method: 'ff' },
    });
    expect(set.status).toBe(200);
    expect(set.body.merge_method).toBe('ff');
    const bad = await api('PUT', `/projects/${project.id}`, {
      token: owner.token,
      json: { merge_method: 'octopus' },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'merge_method does not have a valid value' } });
    const diverged = await openMr(project.id, 'feature');
    const refused = await api('PUT', `${mrPath(project.id, diverged.iid)}/merge`, { token: owner.token });
    expect(refused).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
    const ahead = await openMr(project.id, 'ahead');
    const merged = await api<Mr>('PUT', `${mrPath(project.id, ahead.iid)}/merge`, { token: owner.token });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', merge_commit_sha: null });
    const main = await api<{ commit: { id: string } }>(
      'GET',
      `/projects/${project.id}/repository/branches/main`,
      {
        token: owner.token,
      },
    );
    expect(main.body.commit.id).toBe(fx.ahead);
  });
});

describe('protected branches', () => {
  it('a developer may not merge into a branch only maintainers merge into → 401; its maintainer may', async () => {
    const project = await importedProject();
    const developer = await createUser();
    const member = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(member.status).toBe(201);
    // The import protected its default branch: maintainers push and merge.
    const protection = await api('GET', `/projects/${project.id}/protected_branches/main`, {
      token: owner.token,
    });
    expect(protection.status, protection.text).toBe(200);
    expect(protection.body).toMatchObject({
      name: 'main',
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 40 }],
    });
    const mr = await openMr(project.id, 'ahead');
    const refused = await api('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: developer.token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: '401 Unauthorized' });
    const merged = await api<Mr>('PUT', `${mrPath(project.id, mr.iid)}/merge`, { token: owner.token });
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');
  });
});

describe('rebasing', () => {
  it('replays feature on main: the branch moves, its commits keep their authors and messages', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature');
    const rebased = await api('PUT', `${mrPath(project.id, mr.iid)}/rebase`, { token: owner.token });
    expect(rebased.status).toBe(202);
    expect(rebased.body).toEqual({ rebase_in_progress: false });
    const read = await api<Mr & { diff_refs: { base_sha: string; head_sha: string; start_sha: string } }>(
      'GET',
      `${mrPath(project.id, mr.iid)}?include_rebase_in_progress=true`,
      { token: owner.token },
    );
    expect(read.status).toBe(200);
    expect(read.body.diff_refs.base_sha).toBe(fx.main);
    expect(read.body.diff_refs.start_sha).toBe(fx.main);
    expect(read.body.sha).toBe(read.body.diff_refs.head_sha);
    const commits = await api<{ title: string; author_name: string; parent_ids: string[] }[]>(
      'GET',
      `${mrPath(project.id, mr.iid)}/commits`,
      { token: owner.token },
    );
    expect(commits.body.map((c) => [c.title, c.author_name])).toEqual([
      ['Add n', 'Ada Author'],
      ['Capital A', 'Ada Author'],
    ]);
    expect(commits.body[1]?.parent_ids).toEqual([fx.main]);
    // Conflicting commits are refused, nothing moved.
    const clash = await openMr(project.id, 'clash');
    const refused = await api('PUT', `${mrPath(project.id, clash.iid)}/rebase`, { token: owner.token });
    expect(refused.status).toBe(409);
    const branch = await api<{ commit: { id: string } }>(
      'GET',
      `/projects/${project.id}/repository/branches/clash`,
      { token: owner.token },
    );
    expect(branch.body.commit.id).toBe(fx.clash);
  });

  it('a developer may not rebase a protected source branch they may not push to → 403; an open one they may', async () => {
    const project = await importedProject();
    const developer = await createUser();
    const member = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(member.status).toBe(201);
    const protection = await api('POST', `/projects/${project.id}/protected_branches`, {
      token: owner.token,
      json: { name: 'feature', push_access_level: 40, merge_access_level: 30 },
    });
    expect(protection.status, protection.text).toBe(201);
    const mr = await openMr(project.id, 'feature');
    const refused = await api('PUT', `${mrPath(project.id, mr.iid)}/rebase`, { token: developer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden  - Cannot push to source branch' });
    const unmoved = await api<{ commit: { id: string } }>(
      'GET',
      `/projects/${project.id}/repository/branches/feature`,
      { token: owner.token },
    );
    expect(unmoved.status).toBe(200);
    expect(unmoved.body.commit.id).toBe(fx.feature);
    const unprotected = await api('DELETE', `/projects/${project.id}/protected_branches/feature`, {
      token: owner.token,
    });
    expect(unprotected.status).toBe(204);
    const rebased = await api('PUT', `${mrPath(project.id, mr.iid)}/rebase`, { token: developer.token });
    expect(rebased.status).toBe(202);
    expect(rebased.body).toEqual({ rebase_in_progress: false });
  });
});
