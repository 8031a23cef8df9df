/**
 * Statistics are real: uploads count at once, housekeeping measures the stored repository
 * (repository_size is the bytes under its prefix, commit_count is `git rev-list --count`),
 * storage_size is repository + uploads, on GET /projects/:id and in project lists; a group's
 * statistics are the sums over the projects of its subtree, shown to administrators only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listBlobs } from '../../shared/blob/s3.ts';
import { uploadPrefix } from '../../shared/domain/uploads.ts';
import { importFromRemote } from '../../shared/repository/import.ts';
import { repositoryPrefix } from '../../shared/repository/layout.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { commitCount, type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';

const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let root: string;
let server: GitServer;

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'statistics-'));
  await makeRepository(join(root, 'source.git'), { commits: 25, tag: 'v1' });
  server = await startGitServer(root);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const bytesUnder = async (prefix: string) =>
  (await listBlobs(prefix)).reduce((total, { size }) => total + size, 0);

interface ProjectBody {
  id: number;
  statistics?: Record<string, number>;
}

async function createProject(token: string, fields: Record<string, unknown> = {}): Promise<ProjectBody> {
  const created = await api<ProjectBody>('POST', '/projects', {
    token,
    json: { name: unique('statistics'), ...fields },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function uploadBytes(token: string, projectId: number, bytes: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(bytes, 1)]), 'file.bin');
  const uploaded = await api('POST', `/projects/${projectId}/uploads`, { token, body: form });
  expect(uploaded.status).toBe(201);
}

async function statisticsOf(projectId: number, token?: string): Promise<Record<string, number>> {
  const response = await api<ProjectBody>('GET', `/projects/${projectId}?statistics=true`, { token });
  expect(response.status).toBe(200);
  return response.body.statistics as Record<string, number>;
}

/** Imports the fixture into the project's storage and lets housekeeping measure it. */
async function storeRepository(projectId: number, token: string): Promise<Record<string, number>> {
  await importFromRemote(projectId, server.url('source.git'));
  expect((await api('POST', `/projects/${projectId}/housekeeping`, { token })).status).toBe(201);
  await idle();
  return statisticsOf(projectId, token);
}

const projectStatistics = (fields: { commits: number; repository: number; uploads: number }) => ({
  commit_count: fields.commits,
  storage_size: fields.repository + fields.uploads,
  repository_size: fields.repository,
  wiki_size: 0,
  lfs_objects_size: 0,
  job_artifacts_size: 0,
  packages_size: 0,
  snippets_size: 0,
  uploads_size: fields.uploads,
});

describe('project statistics', () => {
  it('uploads count at once; housekeeping measures the repository; storage is both, on the project and in lists', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    expect(await statisticsOf(project.id, owner.token)).toEqual(
      projectStatistics({ commits: 0, repository: 0, uploads: 0 }),
    );

    await uploadBytes(owner.token, project.id, 500);
    await uploadBytes(owner.token, project.id, 300);
    expect(await bytesUnder(uploadPrefix(project.id))).toBe(800);
    expect(await statisticsOf(project.id, owner.token)).toEqual(
      projectStatistics({ commits: 0, repository: 0, uploads: 800 }),
    );

    const measured = await storeRepository(project.id, owner.token);
    const repository = await bytesUnder(repositoryPrefix(project.id));
    expect(repository).toBeGreaterThan(0);
    const expected = projectStatistics({
      commits: await commitCount(join(root, 'source.git')),
      repository,
      uploads: 800,
    });
    expect(expected.commit_count).toBe(25);
    expect(measured).toEqual(expected);

    // The same object in the lists that take statistics=true, and no key without it.
    const listed = await api<ProjectBody[]>('GET', '/projects?owned=true&statistics=true', {
      token: owner.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map(({ id, statistics }) => ({ id, statistics }))).toEqual([
      { id: project.id, statistics: expected },
    ]);
    const plain = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: owner.token });
    expect(plain.status).toBe(200);
    expect(plain.body.map((item) => 'statistics' in item)).toEqual([false]);
    const byAdmin = await api<ProjectBody[]>('GET', `/users/${owner.id}/projects?statistics=true`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.map(({ id, statistics }) => ({ id, statistics }))).toEqual([
      { id: project.id, statistics: expected },
    ]);
  });
});

interface GroupBody {
  id: number;
  full_path: string;
  statistics?: Record<string, number>;
}

async function createGroup(user: TestUser, parentId?: number): Promise<GroupBody> {
  const path = unique('stats');
  const created = await api<GroupBody>('POST', '/groups', {
    token: user.token,
    json: {
      name: path,
      path,
      visibility: 'public',
      ...(parentId === undefined ? {} : { parent_id: parentId }),
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

const groupStatistics = (fields: { repository: number; uploads: number }) => ({
  storage_size: fields.repository + fields.uploads,
  repository_size: fields.repository,
  wiki_size: 0,
  lfs_objects_size: 0,
  job_artifacts_size: 0,
  packages_size: 0,
  snippets_size: 0,
  uploads_size: fields.uploads,
});

describe('group statistics', () => {
  it('sum the projects of the group and its subgroups, for administrators only', async () => {
    const owner = await createUser();
    const group = await createGroup(owner);
    const subgroup = await createGroup(owner, group.id);
    const other = await createGroup(owner);
    const inGroup = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const inSubgroup = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'public' });
    const elsewhere = await createProject(owner.token, { namespace_id: other.id });
    await uploadBytes(owner.token, inGroup.id, 1000);
    await uploadBytes(owner.token, inSubgroup.id, 200);
    await uploadBytes(owner.token, inSubgroup.id, 30);
    await uploadBytes(owner.token, elsewhere.id, 50);
    const measured = await storeRepository(inGroup.id, owner.token);
    expect(measured.commit_count).toBe(25);
    const repository = measured.repository_size as number;
    expect(repository).toBe(await bytesUnder(repositoryPrefix(inGroup.id)));

    const ofGroup = groupStatistics({ repository, uploads: 1230 });
    const ofSubgroup = groupStatistics({ repository: 0, uploads: 230 });
    const ofOther = groupStatistics({ repository: 0, uploads: 50 });

    const detail = async (id: number, token?: string) => {
      const response = await api<GroupBody>('GET', `/groups/${id}?statistics=true`, { token });
      expect(response.status).toBe(200);
      return response.body;
    };
    expect((await detail(group.id)).statistics).toEqual(ofGroup);
    expect((await detail(subgroup.id)).statistics).toEqual(ofSubgroup);
    expect((await detail(other.id)).statistics).toEqual(ofOther);
    expect('statistics' in (await detail(group.id, owner.token))).toBe(false);
    const withoutAsking = await api<GroupBody>('GET', `/groups/${group.id}`);
    expect(withoutAsking.status).toBe(200);
    expect('statistics' in withoutAsking.body).toBe(false);

    // The newest groups first: this test's three are on the first page.
    const listed = await api<GroupBody[]>(
      'GET',
      '/groups?statistics=true&order_by=id&sort=desc&per_page=100',
    );
    expect(listed.status).toBe(200);
    const mine = new Map(listed.body.map((item) => [item.id, item.statistics]));
    expect([mine.get(group.id), mine.get(subgroup.id), mine.get(other.id)]).toEqual([
      ofGroup,
      ofSubgroup,
      ofOther,
    ]);
    expect(listed.body.every((item) => item.statistics !== undefined)).toBe(true);

    const byOwner = await api<GroupBody[]>('GET', '/groups?statistics=true', { token: owner.token });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.map((item) => item.id).sort()).toEqual([group.id, subgroup.id, other.id].sort());
    expect(byOwner.body.some((item) => 'statistics' in item)).toBe(false);
  });
});
