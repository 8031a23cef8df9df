/**
 * Forks over HTTP against the local runtime: a fork answers at once (scheduled) and its worker
 * copies a real repository (served by `git http-backend`, imported into the source from this
 * process) until git reads the same history back; a redelivered message and a worker killed
 * mid-copy; the refusals (403, 404, 409, 400); forks_count under concurrent forks; the forks list;
 * the fork relation endpoints; forked_from_project on the project entities.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handler as forkWorker } from '../../functions/workers/repository-fork.ts';
import { listBlobs } from '../../shared/blob/s3.ts';
import { importFromRemote } from '../../shared/repository/import.ts';
import { repositoryPrefix } from '../../shared/repository/layout.ts';
import { materializeRepository, readStoredRefs } from '../../shared/repository/storage.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { partitionItems, storedCount } from '../support/db.ts';
import { lambdaContext, sqsEvent, sqsRecord } from '../support/events.ts';
import { addCommits, type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';

// A worker killed at a chosen copy: that server-side copy throws instead of happening.
const kill = vi.hoisted(() => ({ copy: undefined as ((to: string) => boolean) | undefined }));
vi.mock('../../shared/blob/s3.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/blob/s3.ts')>();
  return {
    ...actual,
    copyBlob: (from: string, to: string) =>
      kill.copy?.(to) ? Promise.reject(new Error('worker killed')) : actual.copyBlob(from, to),
  };
});

type ProjectBody = {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  visibility: string;
  default_branch: string | null;
  description: string | null;
  import_status: string;
  import_error: string | null;
  forks_count: number;
  namespace: { id: number; path: string; kind: string };
  owner?: { id: number; username: string };
  forked_from_project?: { id: number; path_with_namespace: string };
  statistics?: { commit_count: number; repository_size: number };
  permissions?: unknown;
};

const envNames = ['S3_ENDPOINT', 'BUCKET_NAME', 'DYNAMODB_ENDPOINT', 'TABLE_NAME', 'ALLOW_LOCAL_REQUESTS'];
const savedEnv = Object.fromEntries(envNames.map((name) => [name, process.env[name]]));
let root: string;
let server: GitServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  // This process runs the worker handler and the import itself, against the runtime's engines.
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
  process.env.TABLE_NAME = inject('tableName');
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'forks-'));
  server = await startGitServer(root);
  [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  kill.copy = undefined;
});

async function newProject(
  token: string | undefined,
  json: Record<string, unknown> = {},
): Promise<ProjectBody> {
  const name = unique('project');
  const created = await api<ProjectBody>('POST', '/projects', { token, json: { name, ...json } });
  expect(created.status).toBe(201);
  return created.body;
}

/** A source project whose repository is a real one of `commits` commits, imported from this process. */
async function sourceWithRepository(owner: TestUser, commits: number, json: Record<string, unknown> = {}) {
  const name = `${unique('remote')}.git`;
  const remote = await makeRepository(join(root, name), { commits, tag: 'v1.0' });
  const project = await newProject(owner.token, { visibility: 'public', ...json });
  await importFromRemote(project.id, server.url(name));
  return { project, remote, remoteDir: join(root, name), remoteUrl: server.url(name) };
}

async function fork(token: string | null | undefined, sourceId: number, json: Record<string, unknown> = {}) {
  return api<ProjectBody>('POST', `/projects/${sourceId}/fork`, { token, json });
}

/** The project with its statistics once the runtime is idle (the fork worker has run). */
async function onceIdle(projectId: number, token: string): Promise<ProjectBody> {
  await idle();
  const read = await api<ProjectBody>('GET', `/projects/${projectId}?statistics=true`, { token });
  expect(read.status).toBe(200);
  return read.body;
}

async function storedKeys(projectId: number): Promise<string[]> {
  const prefix = repositoryPrefix(projectId);
  // Every committed state leaves its own refs document: they are shown as one `refs.json`.
  const relative = (await listBlobs(prefix)).map(({ key }) =>
    key.slice(prefix.length).replace(/^refs\/[^/]+\.json$/, 'refs.json'),
  );
  return [...new Set(relative)].sort();
}

/** The project's repository rebuilt from the bucket and checked by git: HEAD and the commit count. */
async function gitReads(projectId: number): Promise<{ head: string; count: number }> {
  const gitdir = await mkdtemp(join(root, 'rebuilt-'));
  await materializeRepository(projectId, gitdir);
  await git(['--git-dir', gitdir, 'fsck', '--strict', '--no-progress']);
  const head = await git(['--git-dir', gitdir, 'rev-parse', 'HEAD']);
  const count = Number(await git(['--git-dir', gitdir, 'rev-list', '--count', 'HEAD']));
  return { head, count };
}

/** Runs the fork worker in this process on one delivery of a message. */
async function deliver(
  message: { projectId: number; sourceId: number },
  messageId: string,
  receiveCount = 1,
) {
  const record = sqsRecord(JSON.stringify(message), messageId, receiveCount);
  return (await forkWorker(sqsEvent(record), lambdaContext('repository-fork'))) as SQSBatchResponse;
}

const forkLinks = async (sourceId: number) =>
  (await partitionItems(`PROJECT#${sourceId}`)).filter((item) => String(item.sk).startsWith('FORK#'));

describe('POST /projects/:id/fork', () => {
  it('answers 201 at once (scheduled); the worker copies the repository: same refs, HEAD and history', async () => {
    const { project: source, remote } = await sourceWithRepository(alice, 200, { description: 'the source' });
    const started = performance.now();
    const created = await fork(bob.token, source.id);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: source.name,
      path: source.path,
      path_with_namespace: `${bob.username}/${source.path}`,
      description: 'the source',
      visibility: 'public',
      default_branch: 'master',
      import_status: 'scheduled',
      import_error: null,
      forks_count: 0,
      namespace: { path: bob.username, kind: 'user' },
      owner: { id: bob.id, username: bob.username },
      forked_from_project: { id: source.id, path_with_namespace: source.path_with_namespace },
    });
    expect(created.body.id).not.toBe(source.id);

    const finished = await onceIdle(created.body.id, bob.token);
    console.info(`fork of a 200-commit repository: ${(performance.now() - started).toFixed(0)} ms`);
    expect(finished).toMatchObject({
      import_status: 'finished',
      import_error: null,
      // The copied HEAD's branch replaces the default the fork started with.
      default_branch: 'main',
      statistics: { commit_count: 200 },
      forked_from_project: { id: source.id },
    });
    expect(finished.statistics?.repository_size).toBeGreaterThan(0);

    const [sourceRefs, forkRefs] = await Promise.all([
      readStoredRefs(source.id),
      readStoredRefs(created.body.id),
    ]);
    expect(forkRefs).toEqual(sourceRefs);
    expect(forkRefs?.refs['refs/heads/main']).toBe(remote.head);
    expect(await gitReads(created.body.id)).toEqual({ head: remote.head, count: 200 });

    const sourceNow = await api<ProjectBody>('GET', `/projects/${source.id}`, { token: alice.token });
    expect(sourceNow.status).toBe(200);
    expect(sourceNow.body.forks_count).toBe(1);
    expect(sourceNow.body.forked_from_project).toBeUndefined();
    expect(await forkLinks(source.id)).toEqual([
      expect.objectContaining({ kind: 'fork_link', source_id: source.id, fork_id: created.body.id }),
    ]);
  });

  it('a source without a repository: the fork finishes empty with zero statistics', async () => {
    const source = await newProject(alice.token, { visibility: 'internal' });
    const created = await fork(bob.token, source.id, { name: 'Empty Fork', path: unique('empty') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Empty Fork', visibility: 'internal' });
    const finished = await onceIdle(created.body.id, bob.token);
    expect(finished).toMatchObject({
      import_status: 'finished',
      default_branch: 'master',
      statistics: { commit_count: 0, repository_size: 0 },
    });
    expect(await storedKeys(created.body.id)).toEqual([]);
  });

  it('forks into a group by id or full path, capped by the group’s visibility; a lower one on request', async () => {
    const { project: source } = await sourceWithRepository(alice, 3);
    const group = await api<{ id: number; full_path: string }>('POST', '/groups', {
      json: { name: unique('team'), path: unique('team'), visibility: 'internal' },
    });
    expect(group.status).toBe(201);
    const member = await api('POST', `/groups/${group.body.id}/members`, {
      json: { user_id: carol.id, access_level: 40 },
    });
    expect(member.status).toBe(201);

    const byPath = await fork(carol.token, source.id, { namespace: group.body.full_path });
    expect(byPath.status).toBe(201);
    expect(byPath.body).toMatchObject({
      visibility: 'internal',
      namespace: { id: group.body.id, kind: 'group' },
      forked_from_project: { id: source.id },
    });
    expect(byPath.body.owner).toBeUndefined();

    const byId = await fork(carol.token, source.id, {
      namespace_id: group.body.id,
      path: unique('private-fork'),
      name: unique('Private fork'),
      visibility: 'private',
    });
    expect(byId.status).toBe(201);
    expect(byId.body).toMatchObject({ visibility: 'private', namespace: { id: group.body.id } });
    const byNamespacePath = await fork(carol.token, source.id, {
      namespace_path: group.body.full_path,
      path: unique('third'),
      name: unique('third'),
    });
    expect(byNamespacePath.status).toBe(201);
    expect(byNamespacePath.body.namespace.id).toBe(group.body.id);
  });

  it('409 when the name or path is taken in the target, listing the fields that clash', async () => {
    const source = await newProject(alice.token, { visibility: 'public' });
    expect((await fork(bob.token, source.id)).status).toBe(201);
    const again = await fork(bob.token, source.id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    });
    const samePath = await fork(bob.token, source.id, { name: unique('Other') });
    expect(samePath.status).toBe(409);
    expect(samePath.body).toEqual({ message: { path: ['has already been taken'] } });
    const sameName = await fork(bob.token, source.id, { path: unique('other') });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ message: { name: ['has already been taken'] } });
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(1);
    expect(await forkLinks(source.id)).toHaveLength(1);
  });

  it('404 for a source the caller cannot see or a target namespace they cannot create in; 403 for a guest', async () => {
    const hidden = await newProject(alice.token, { visibility: 'private' });
    const notSeen = await fork(bob.token, hidden.id);
    expect(notSeen.status).toBe(404);
    expect(notSeen.body).toEqual({ message: '404 Project Not Found' });

    const guest = await api('POST', `/projects/${hidden.id}/members`, {
      json: { user_id: carol.id, access_level: 10 },
    });
    expect(guest.status).toBe(201);
    const refused = await fork(carol.token, hidden.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });

    const open = await newProject(alice.token, { visibility: 'public' });
    const targetNotFound = { message: '404 Target Namespace Not Found' };
    for (const json of [
      { namespace: 999_999_999 },
      { namespace: alice.username },
      { namespace_id: 999_999_999 },
      { namespace_path: `${unique('nowhere')}/deeper` },
      { namespace: open.path_with_namespace },
    ]) {
      const answer = await fork(bob.token, open.id, json);
      expect({ json, status: answer.status, body: answer.body }).toEqual({
        json,
        status: 404,
        body: targetNotFound,
      });
    }
    const group = await api<{ id: number }>('POST', '/groups', {
      json: { name: unique('closed'), path: unique('closed') },
    });
    expect(group.status).toBe(201);
    const notMember = await fork(bob.token, open.id, { namespace_id: group.body.id });
    expect(notMember.status).toBe(404);
    expect(notMember.body).toEqual(targetNotFound);
    // Admins may fork anywhere.
    const asAdmin = await fork(undefined, open.id, {
      namespace: alice.username,
      path: unique('p'),
      name: unique('n'),
    });
    expect(asAdmin.status).toBe(201);
    expect(asAdmin.body.namespace.path).toBe(alice.username);

    const anonymous = await fork(null, open.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    expect(await storedCount(`PROJECT#${open.id}`, 'forks_count')).toBe(1);
  });

  it('400 for a visibility above the source’s', async () => {
    const source = await newProject(alice.token, { visibility: 'internal' });
    const answer = await fork(bob.token, source.id, { visibility: 'public' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: {
        visibility_level: ['public is not allowed since the fork source project has lower visibility.'],
      },
    });
    const badValue = await fork(bob.token, source.id, { visibility: 'secret' });
    expect(badValue.status).toBe(400);
    expect(badValue.body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('keeps forks_count exact under 10 concurrent forks into 10 namespaces', async () => {
    const source = await newProject(alice.token, { visibility: 'public' });
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser()));
    const answers = await Promise.all(users.map((user) => fork(user.token, source.id)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(10);
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(10);
    const links = await forkLinks(source.id);
    expect(links.map((link) => link.fork_id).sort()).toEqual(answers.map((answer) => answer.body.id).sort());
  });
});

describe('the fork worker', () => {
  it('a message delivered twice makes one copy: the second delivery finds the fork finished', async () => {
    const { project: source, remote } = await sourceWithRepository(alice, 12);
    const target = await newProject(bob.token);
    const related = await api<ProjectBody>('POST', `/projects/${target.id}/fork/${source.id}`);
    expect(related.status).toBe(201);
    const message = { projectId: target.id, sourceId: source.id };

    expect(await deliver(message, 'twice-1')).toEqual({ batchItemFailures: [] });
    const first = await onceIdle(target.id, bob.token);
    const keys = await storedKeys(target.id);
    expect(keys).toEqual(await storedKeys(source.id));
    expect(await deliver(message, 'twice-1')).toEqual({ batchItemFailures: [] });
    const second = await onceIdle(target.id, bob.token);
    expect(second).toEqual(first);
    expect(await storedKeys(target.id)).toEqual(keys);
    expect(await gitReads(target.id)).toEqual({ head: remote.head, count: 12 });
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(1);
    expect(await forkLinks(source.id)).toHaveLength(1);
  });

  it('a worker killed mid-copy is retried and finishes with a complete copy', async () => {
    const { project: source, remoteDir, remoteUrl } = await sourceWithRepository(alice, 20);
    // A second fetch adds a second pack: the copy has four objects and a refs document.
    const grown = await addCommits(remoteDir, 5);
    await importFromRemote(source.id, remoteUrl);
    const stored = await readStoredRefs(source.id);
    expect(stored?.packs).toHaveLength(2);
    const target = await newProject(bob.token);
    expect((await api('POST', `/projects/${target.id}/fork/${source.id}`)).status).toBe(201);
    const message = { projectId: target.id, sourceId: source.id };

    const killedPack = stored?.packs[1] as string;
    kill.copy = (to) => to.endsWith(`${killedPack}.idx`);
    expect(await deliver(message, 'killed-1', 1)).toEqual({
      batchItemFailures: [{ itemIdentifier: 'killed-1' }],
    });
    const left = await storedKeys(target.id);
    expect(left).not.toContain('refs.json');
    expect(left).not.toContain(`objects/pack/${killedPack}.idx`);
    const midway = await api<ProjectBody>('GET', `/projects/${target.id}`, { token: bob.token });
    expect(midway.body.import_status).toBe('started');
    expect(await readStoredRefs(target.id)).toBeUndefined();

    kill.copy = undefined;
    expect(await deliver(message, 'killed-1', 2)).toEqual({ batchItemFailures: [] });
    const finished = await onceIdle(target.id, bob.token);
    expect(finished).toMatchObject({ import_status: 'finished', statistics: { commit_count: 25 } });
    expect(await storedKeys(target.id)).toEqual(await storedKeys(source.id));
    expect(await readStoredRefs(target.id)).toEqual(stored);
    expect(await gitReads(target.id)).toEqual({ head: grown.head, count: 25 });
  });
});

describe('GET /projects/:id/forks', () => {
  it('lists the forks the caller can see with the list parameters and pagination headers', async () => {
    const source = await newProject(alice.token, { visibility: 'public' });
    const bobFork = await fork(bob.token, source.id, { name: 'Alpha fork', path: unique('alpha') });
    const carolPublic = await fork(carol.token, source.id, { name: 'Beta fork', path: unique('beta') });
    const carolPrivate = await fork(carol.token, source.id, {
      name: 'Gamma fork',
      path: unique('gamma'),
      visibility: 'private',
    });
    for (const answer of [bobFork, carolPublic, carolPrivate]) expect(answer.status).toBe(201);

    const asBob = await api<ProjectBody[]>('GET', `/projects/${source.id}/forks`, { token: bob.token });
    expect(asBob.status).toBe(200);
    // Newest first by default; carol's private fork is not bob's to see.
    expect(asBob.body.map((project) => project.id)).toEqual([carolPublic.body.id, bobFork.body.id]);
    expect(asBob.headers.get('x-total')).toBe('2');
    expect(asBob.body[0]).toMatchObject({
      forked_from_project: { id: source.id },
      permissions: { project_access: null, group_access: null },
    });

    const asCarol = await api<ProjectBody[]>(
      'GET',
      `/projects/${source.id}/forks?order_by=name&sort=asc&per_page=2&page=1`,
      { token: carol.token },
    );
    expect(asCarol.status).toBe(200);
    expect(asCarol.body.map((project) => project.name)).toEqual(['Alpha fork', 'Beta fork']);
    expect({
      total: asCarol.headers.get('x-total'),
      pages: asCarol.headers.get('x-total-pages'),
      next: asCarol.headers.get('x-next-page'),
      perPage: asCarol.headers.get('x-per-page'),
    }).toEqual({ total: '3', pages: '2', next: '2', perPage: '2' });
    const secondPage = await api<ProjectBody[]>(
      'GET',
      `/projects/${source.id}/forks?order_by=name&sort=asc&per_page=2&page=2`,
      { token: carol.token },
    );
    expect(secondPage.body.map((project) => project.name)).toEqual(['Gamma fork']);

    const filtered = await api<ProjectBody[]>('GET', `/projects/${source.id}/forks?visibility=private`, {
      token: carol.token,
    });
    expect(filtered.body.map((project) => project.id)).toEqual([carolPrivate.body.id]);
    const searched = await api<ProjectBody[]>('GET', `/projects/${source.id}/forks?search=beta`, {
      token: carol.token,
    });
    expect(searched.body.map((project) => project.id)).toEqual([carolPublic.body.id]);
    const owned = await api<ProjectBody[]>(
      'GET',
      `/projects/${source.id}/forks?owned=true&order_by=id&sort=asc`,
      {
        token: carol.token,
      },
    );
    expect(owned.body.map((project) => project.id)).toEqual([carolPublic.body.id, carolPrivate.body.id]);

    const anonymous = await api<Record<string, unknown>[]>('GET', `/projects/${source.id}/forks`, {
      token: null,
    });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((project) => project.id)).toEqual([carolPublic.body.id, bobFork.body.id]);
    expect(Object.keys(anonymous.body[0] ?? {})).not.toContain('forked_from_project');
    expect(anonymous.headers.get('x-total')).toBe('2');

    const hidden = await newProject(alice.token, { visibility: 'private' });
    const notVisible = await api('GET', `/projects/${hidden.id}/forks`, { token: bob.token });
    expect(notVisible.status).toBe(404);
    expect(notVisible.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('forked_from_project on the project entities', () => {
  it('shows the source on GET /projects/:id and GET /projects only while the caller may see it', async () => {
    const source = await newProject(alice.token, { visibility: 'private' });
    expect(
      (await api('POST', `/projects/${source.id}/members`, { json: { user_id: carol.id, access_level: 20 } }))
        .status,
    ).toBe(201);
    const created = await fork(carol.token, source.id, { visibility: 'private' });
    expect(created.status).toBe(201);
    expect(created.body.forked_from_project?.id).toBe(source.id);

    const read = await api<ProjectBody>('GET', `/projects/${created.body.id}`, { token: carol.token });
    expect(read.body.forked_from_project).toMatchObject({
      id: source.id,
      path_with_namespace: source.path_with_namespace,
    });
    const listed = await api<ProjectBody[]>('GET', `/projects?search=${source.name}&owned=true`, {
      token: carol.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((project) => [project.id, project.forked_from_project?.id])).toEqual([
      [created.body.id, source.id],
    ]);

    expect((await api('DELETE', `/projects/${source.id}/members/${carol.id}`)).status).toBe(204);
    const after = await api<ProjectBody>('GET', `/projects/${created.body.id}`, { token: carol.token });
    expect(after.status).toBe(200);
    expect(after.body.forked_from_project).toBeUndefined();
    const listedAfter = await api<ProjectBody[]>('GET', `/projects?search=${source.name}&owned=true`, {
      token: carol.token,
    });
    expect(listedAfter.body.map((project) => [project.id, project.forked_from_project])).toEqual([
      [created.body.id, undefined],
    ]);
    // Admins see every source.
    const asAdmin = await api<ProjectBody>('GET', `/projects/${created.body.id}`);
    expect(asAdmin.body.forked_from_project?.id).toBe(source.id);
  });
});

describe('fork relation', () => {
  it('POST /projects/:id/fork/:forked_from_id: admins 201, 409 when forked, 403 others, 404 no source', async () => {
    const source = await newProject(alice.token, { visibility: 'public' });
    const target = await newProject(bob.token);

    const byOwner = await api('POST', `/projects/${target.id}/fork/${source.id}`, { token: bob.token });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body).toEqual({ message: '403 Forbidden' });
    const unseen = await api('POST', `/projects/${target.id}/fork/${source.id}`, { token: carol.token });
    expect(unseen.status).toBe(404);
    expect(unseen.body).toEqual({ message: '404 Project Not Found' });
    const noSource = await api('POST', `/projects/${target.id}/fork/999999999`);
    expect(noSource.status).toBe(404);
    expect(noSource.body).toEqual({ message: '404 Project Not Found' });

    const related = await api<ProjectBody>(
      'POST',
      `/projects/${target.id}/fork/${source.path_with_namespace.replace('/', '%2F')}`,
    );
    expect(related.status).toBe(201);
    expect(related.body).toMatchObject({ id: target.id, forked_from_project: { id: source.id } });
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(1);
    expect(await forkLinks(source.id)).toHaveLength(1);

    const again = await api('POST', `/projects/${target.id}/fork/${source.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Project already forked' });
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(1);
  });

  it('DELETE /projects/:id/fork: admins 204 then 304; 403 others; 404 when not visible', async () => {
    const source = await newProject(alice.token, { visibility: 'public' });
    const created = await fork(bob.token, source.id);
    expect(created.status).toBe(201);
    const hidden = await newProject(alice.token, { visibility: 'private' });

    const byOwner = await api('DELETE', `/projects/${created.body.id}/fork`, { token: bob.token });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body).toEqual({ message: '403 Forbidden' });
    const unseen = await api('DELETE', `/projects/${hidden.id}/fork`, { token: bob.token });
    expect(unseen.status).toBe(404);
    expect(unseen.body).toEqual({ message: '404 Project Not Found' });

    const removed = await api('DELETE', `/projects/${created.body.id}/fork`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await storedCount(`PROJECT#${source.id}`, 'forks_count')).toBe(0);
    expect(await forkLinks(source.id)).toEqual([]);
    const read = await api<ProjectBody>('GET', `/projects/${created.body.id}`, { token: bob.token });
    expect(read.body.forked_from_project).toBeUndefined();

    const again = await api('DELETE', `/projects/${created.body.id}/fork`);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const notAFork = await api('DELETE', `/projects/${source.id}/fork`);
    expect(notAFork.status).toBe(304);
  });
});
