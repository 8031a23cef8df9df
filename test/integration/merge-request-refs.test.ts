/**
 * Merge request refs against the shared runtime: a fixture built with the git CLI (`feature`
 * merging cleanly into main, `clash` changing the line main changed) imported from
 * `git http-backend` into a fresh project per test. The head ref a new merge request gets, the
 * merge ref (GET …/merge_ref) and its
 * commit read through the commits API and advertised by `info/refs`, its 400 on conflicts, the
 * source tips lists show, the merge check kept on the merge request for one pair of tips and
 * checked again after a push, and a mirror update that keeps the merge request refs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';
import { type GitServer, git, startGitServer } from '../support/git-server.ts';

let root: string;
let work: string;
let server: GitServer;
let owner: TestUser;
let fx: { base: string; main: string; feature: string; clash: string };

const IDENTITY = ['-c', 'user.name=Ada Author', '-c', 'user.email=ada@example.com'];
const LINES = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';

async function commit(message: string, files: Record<string, string>, when: string) {
  for (const [path, content] of Object.entries(files)) await writeFile(join(work, path), content);
  await git(['add', '-A'], work);
  await git([...IDENTITY, 'commit', '-q', '-m', message, '--date', when], work);
  return git(['rev-parse', 'HEAD'], work);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mr-refs-'));
  work = join(root, 'work');
  await git(['init', '-q', '-b', 'main', work]);
  const base = await commit('First commit', { 'f.txt': LINES }, '2026-01-01T10:00:00Z');
  await git(['checkout', '-q', '-b', 'feature'], work);
  const feature = await commit('Add n', { 'n.txt': 'new\n' }, '2026-01-02T10:00:00Z');
  await git(['checkout', '-q', '-b', 'clash', base], work);
  const clash = await commit('Other j', { 'f.txt': LINES.replace('j\n', 'Z\n') }, '2026-01-02T11:00:00Z');
  await git(['checkout', '-q', 'main'], work);
  const main = await commit('Capital J', { 'f.txt': LINES.replace('j\n', 'J\n') }, '2026-01-03T10:00:00Z');
  fx = { base, main, feature, clash };
  await git(['clone', '-q', '--bare', work, join(root, 'source.git')]);
  server = await startGitServer(root);
  owner = await createUser();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

interface ProjectBody {
  id: number;
  http_url_to_repo: string;
}

/** A new project importing `remote` (the fixture unless named). */
async function importedProject(remote = 'source.git', extra: Record<string, unknown> = {}) {
  const created = await api<ProjectBody>('POST', '/projects', {
    token: owner.token,
    json: { name: unique('mr-refs'), visibility: 'private', import_url: server.url(remote), ...extra },
  });
  expect(created.status, created.text).toBe(201);
  await idle();
  return created.body;
}

type Mr = Record<string, unknown> & { iid: number };

async function openMr(projectId: number, source: string) {
  const created = await api<Mr>('POST', `/projects/${projectId}/merge_requests`, {
    token: owner.token,
    json: { source_branch: source, target_branch: 'main', title: `Merge ${source}` },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

/** The refs `info/refs` advertises, by name. */
async function advertised(project: ProjectBody): Promise<Record<string, string>> {
  const response = await fetch(`${project.http_url_to_repo}/info/refs`, {
    headers: { Authorization: `Basic ${Buffer.from(`oauth2:${owner.token}`).toString('base64')}` },
  });
  expect(response.status).toBe(200);
  const refs: Record<string, string> = {};
  for (const line of (await response.text()).split('\n').filter(Boolean)) {
    const [oid, name] = line.split('\t') as [string, string];
    refs[name] = oid;
  }
  return refs;
}

/** The repository pointer's version: moves with every committed state. */
async function pointerVersion(projectId: number): Promise<unknown> {
  return (await storedItem(`PROJECT#${projectId}`, 'REPOSITORY'))?.version;
}

describe('GET merge_ref', () => {
  it('answers the commit merging source into target, readable and advertised; made once per pair of tips', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature');
    const created = await advertised(project);
    expect(created[`refs/merge-requests/${mr.iid}/head`]).toBe(fx.feature);
    expect(created[`refs/merge-requests/${mr.iid}/merge`]).toBeUndefined();
    const first = await api<{ commit_id: string }>('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, {
      token: owner.token,
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ commit_id: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const mergeId = first.body.commit_id;
    expect([fx.main, fx.feature]).not.toContain(mergeId);

    const commit = await api<Record<string, unknown>>(
      'GET',
      `/projects/${project.id}/repository/commits/${mergeId}`,
      { token: owner.token },
    );
    expect(commit.status).toBe(200);
    expect(commit.body).toMatchObject({
      id: mergeId,
      parent_ids: [fx.main, fx.feature],
      title: "Merge branch 'feature' into 'main'",
      author_name: owner.username,
      author_email: owner.email,
    });
    const refs = await advertised(project);
    expect(refs[`refs/merge-requests/${mr.iid}/head`]).toBe(fx.feature);
    expect(refs[`refs/merge-requests/${mr.iid}/merge`]).toBe(mergeId);
    expect(refs['refs/heads/main']).toBe(fx.main);

    // The ref is not a branch or tag, and it sends no push event.
    const branches = await api<{ name: string }[]>('GET', `/projects/${project.id}/repository/branches`, {
      token: owner.token,
    });
    expect(branches.status).toBe(200);
    expect(branches.body.map((branch) => branch.name)).toEqual(['clash', 'feature', 'main']);
    const tags = await api<unknown[]>('GET', `/projects/${project.id}/repository/tags`, {
      token: owner.token,
    });
    expect(tags.status).toBe(200);
    expect(tags.body).toEqual([]);

    // Asked again for the same tips: the same commit, nothing written.
    const version = await pointerVersion(project.id);
    const again = await api('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ commit_id: mergeId });
    expect(await pointerVersion(project.id)).toBe(version);
    await idle();
  });

  it('400 when the merge request cannot be merged (conflicts)', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'clash');
    const refused = await api('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Merge request is not mergeable' });
    // Its head ref is there from its creation; no merge ref.
    expect(Object.keys(await advertised(project)).filter((ref) => ref.startsWith('refs/merge-'))).toEqual([
      `refs/merge-requests/${mr.iid}/head`,
    ]);
  });

  it('404 for a merge request that is not there', async () => {
    const project = await importedProject();
    const missing = await api('GET', `${mrPath(project.id, 99)}/merge_ref`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
  });
});

describe('lists', () => {
  it('show each merge request its source tip as sha', async () => {
    const project = await importedProject();
    const feature = await openMr(project.id, 'feature');
    const clash = await openMr(project.id, 'clash');
    const listed = await api<Mr[]>('GET', `/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((mr) => [mr.iid, mr.sha])).toEqual([
      [clash.iid, fx.clash],
      [feature.iid, fx.feature],
    ]);

    // A source branch gone: its head ref still names the tip.
    const removed = await api('DELETE', `/projects/${project.id}/repository/branches/clash`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const after = await api<Mr[]>('GET', `/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(after.status).toBe(200);
    expect(after.body.map((mr) => [mr.iid, mr.sha])).toEqual([
      [clash.iid, fx.clash],
      [feature.iid, fx.feature],
    ]);
    await idle();
  });
});

describe('the merge check', () => {
  it('is kept for one pair of tips and made again after a push to the source', async () => {
    const project = await importedProject();
    const mr = await openMr(project.id, 'feature');
    const read = await api<Mr>('GET', mrPath(project.id, mr.iid), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ has_conflicts: false, merge_status: 'can_be_merged', sha: fx.feature });
    const item = () => storedItem(`MR#${project.id}#${mr.iid}`, 'MR');
    expect((await item())?.merge_check).toEqual({
      source_sha: fx.feature,
      target_sha: fx.main,
      conflicts: false,
    });

    // A push to the source that changes the line main changed: a new pair, checked again.
    const pushed = await api<{ id: string }>('POST', `/projects/${project.id}/repository/commits`, {
      token: owner.token,
      json: {
        branch: 'feature',
        commit_message: 'Another j',
        actions: [{ action: 'update', file_path: 'f.txt', content: LINES.replace('j\n', 'Y\n') }],
      },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const after = await api<Mr>('GET', mrPath(project.id, mr.iid), { token: owner.token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      has_conflicts: true,
      merge_status: 'cannot_be_merged',
      detailed_merge_status: 'conflict',
      sha: pushed.body.id,
    });
    expect((await item())?.merge_check).toEqual({
      source_sha: pushed.body.id,
      target_sha: fx.main,
      conflicts: true,
    });
    const again = await api<Mr>('GET', mrPath(project.id, mr.iid), { token: owner.token });
    expect(again.body).toMatchObject({ has_conflicts: true, sha: pushed.body.id });
    const listed = await api<Mr[]>('GET', `/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(listed.body.map((entry) => entry.sha)).toEqual([pushed.body.id]);
    const refused = await api('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Merge request is not mergeable' });
    await idle();
  });
});

describe('a mirror update', () => {
  it('keeps the merge request refs while branches follow the remote', async () => {
    await git(['clone', '-q', '--bare', work, join(root, 'mirror.git')]);
    const project = await importedProject('mirror.git', { mirror: true });
    const mr = await openMr(project.id, 'feature');
    const made = await api<{ commit_id: string }>('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, {
      token: owner.token,
    });
    expect(made.status).toBe(200);

    // The remote's main moves on; the mirror follows it.
    const clone = join(root, unique('push'));
    await git(['clone', '-q', join(root, 'mirror.git'), clone]);
    await writeFile(join(clone, 'm.txt'), 'more\n');
    await git(['add', '-A'], clone);
    await git([...IDENTITY, 'commit', '-q', '-m', 'More on main'], clone);
    await git(['push', '-q', 'origin', 'main'], clone);
    const moved = await git(['rev-parse', 'HEAD'], clone);
    const pulled = await api('POST', `/projects/${project.id}/mirror/pull`, { token: owner.token });
    expect(pulled.status, pulled.text).toBe(200);
    await idle();

    const refs = await advertised(project);
    expect(refs['refs/heads/main']).toBe(moved);
    expect(refs[`refs/merge-requests/${mr.iid}/head`]).toBe(fx.feature);
    expect(refs[`refs/merge-requests/${mr.iid}/merge`]).toBe(made.body.commit_id);
    const commit = await api('GET', `/projects/${project.id}/repository/commits/${made.body.commit_id}`, {
      token: owner.token,
    });
    expect(commit.status).toBe(200);

    // The target moved: the merge ref is made again, on the new tip.
    const remade = await api<{ commit_id: string }>('GET', `${mrPath(project.id, mr.iid)}/merge_ref`, {
      token: owner.token,
    });
    expect(remade.status).toBe(200);
    const merged = await api<{ parent_ids: string[] }>(
      'GET',
      `/projects/${project.id}/repository/commits/${remade.body.commit_id}`,
      { token: owner.token },
    );
    expect(merged.body.parent_ids).toEqual([moved, fx.feature]);
    await idle();
  });
});
