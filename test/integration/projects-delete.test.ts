/**
 * DELETE /projects/:id through the local runtime: 202 at once, the project out of every list with
 * its path and name free; then the project-delete worker removes everything of it, checked key by
 * key in the runtime's DynamoDB Local (its partition, route, name, issues and merge requests with
 * their notes, hook logs and deliveries, counters) and by listing its prefixes in s3rver (its
 * repository, imported from a real git server, and its uploads). Forks of it stay and lose their
 * source; a deleted fork leaves its source's forks_count.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importFromRemote } from '../../shared/repository/import.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, partitionItems, storedItem } from '../support/db.ts';
import { type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  namespace: { id: number };
  forks_count: number;
  star_count: number;
  forked_from_project?: { id: number };
}

const ACCEPTED = { message: '202 Accepted' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };

const savedEnv = {
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  BUCKET_NAME: process.env.BUCKET_NAME,
  ALLOW_LOCAL_REQUESTS: process.env.ALLOW_LOCAL_REQUESTS,
};
let s3: S3Client;
let bucket: string;
let root: string;
let gitServer: GitServer;
let receiver: Receiver;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  bucket = inject('bucketName');
  s3 = new S3Client({
    endpoint: inject('s3Endpoint'),
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  // importFromRemote runs in this process, against the runtime's bucket and a server on 127.0.0.1.
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = bucket;
  process.env.ALLOW_LOCAL_REQUESTS = 'true';
  root = await mkdtemp(join(tmpdir(), 'projects-delete-'));
  await makeRepository(join(root, 'source.git'), { commits: 20 });
  gitServer = await startGitServer(root);
  receiver = await startReceiver();
  [owner, member, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await receiver?.close();
  await gitServer?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function createProject(user: TestUser, fields: Record<string, unknown> = {}): Promise<ProjectBody> {
  const response = await api<ProjectBody>('POST', '/projects', {
    token: user.token,
    json: { name: unique('Doomed'), visibility: 'private', ...fields },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function created<T = { iid: number; id: number }>(
  path: string,
  json: unknown,
  token?: string,
): Promise<T> {
  const response = await api<T>('POST', path, { token, json });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function upload(projectId: number, token: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/png' }), 'shot.png');
  const response = await api('POST', `/projects/${projectId}/uploads`, { token, body: form });
  expect(response.status, response.text).toBe(201);
}

/** Every key stored under a prefix of the bucket. */
async function storedKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

/** The project's item once the runtime is idle: undefined when the worker has removed it (its last step). */
async function itemOnceIdle(projectId: number) {
  await idle();
  return storedItem(`PROJECT#${projectId}`, 'PROJECT');
}

const getProject = (id: number | string, token?: string) =>
  api<ProjectBody>('GET', `/projects/${id}`, { token });

describe('DELETE /projects/:id removes everything of the project', () => {
  it('notes, hooks with their log, uploads, stars, members, push rule, custom attribute and repository: no item, no object', async () => {
    const project = await createProject(owner);
    const id = project.id;
    const added = await api('POST', `/projects/${id}/members`, {
      token: owner.token,
      json: { user_id: member.id, access_level: 30 },
    });
    expect(added.status, added.text).toBe(201);
    for (const user of [owner, member]) {
      const star = await api('POST', `/projects/${id}/star`, { token: user.token });
      expect(star.status, star.text).toBe(201);
    }
    await created(`/projects/${id}/push_rule`, { deny_delete_tag: true }, owner.token);
    const attribute = await api('PUT', `/projects/${id}/custom_attributes/team`, { json: { value: 'red' } });
    expect(attribute.status, attribute.text).toBe(200);
    const hookPath = `/${unique('deleted-project')}`;
    const hook = await created<{ id: number }>(
      `/projects/${id}/hooks`,
      { url: `${receiver.origin}${hookPath}`, note_events: true, push_events: false },
      owner.token,
    );
    const issue = await created(`/projects/${id}/issues`, { title: 'Doomed issue' }, owner.token);
    await created(`/projects/${id}/issues/${issue.iid}/notes`, { body: 'On the issue' }, owner.token);
    const mr = await created(
      `/projects/${id}/merge_requests`,
      { title: 'Doomed MR', source_branch: 'feature', target_branch: 'main' },
      owner.token,
    );
    await created(`/projects/${id}/merge_requests/${mr.iid}/notes`, { body: 'On the MR' }, owner.token);
    await upload(id, owner.token);
    const imported = await importFromRemote(id, gitServer.url('source.git'));
    expect(imported.commitCount).toBe(20);

    // Both notes reach the receiver and are logged, each attempt naming its delivery.
    await idle();
    expect(receiver.at(hookPath)).toHaveLength(2);
    // The hook's log partitions of the days the attempts can have been made on (today's, or
    // yesterday's when the run crossed midnight UTC).
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const logPartitions = [`HOOKLOG#${hook.id}#${day(0)}`, `HOOKLOG#${hook.id}#${day(1)}`];
    const hookLogs = async () => (await Promise.all(logPartitions.map(partitionItems))).flat();
    const logs = await hookLogs();
    expect(logs).toHaveLength(2);
    const deliveryIds = logs.map((log) => String(log.delivery_id));
    for (const deliveryId of deliveryIds) {
      expect((await storedItem(`DELIVERY#${deliveryId}`, 'DELIVERY'))?.status).toBe('delivered');
    }
    expect(await storedKeys(`repositories/${id}/`)).not.toEqual([]);
    expect(await storedKeys(`uploads/${id}/`)).toHaveLength(1);
    const kinds = new Set(
      (await partitionItems(`PROJECT#${id}`)).map((item) => String(item.sk).split('#')[0]),
    );
    expect([...kinds]).toEqual(expect.arrayContaining(['HOOK', 'MEMBER', 'PROJECT', 'PUSHRULE', 'STAR']));

    const deleted = await api('DELETE', `/projects/${id}`, { token: owner.token });
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual(ACCEPTED);

    expect(await itemOnceIdle(id)).toBeUndefined();
    expect(await itemsLeft(`PROJECT#${id}`)).toEqual([]);
    expect(await storedItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE')).toBeUndefined();
    expect(
      await storedItem(`PROJECTNAME#${project.namespace.id}#${project.name.toLowerCase()}`, 'PROJECTNAME'),
    ).toBeUndefined();
    expect(await itemsLeft(`ISSUE#${id}#${issue.iid}`)).toEqual([]);
    expect(await itemsLeft(`MR#${id}#${mr.iid}`)).toEqual([]);
    expect(await hookLogs()).toEqual([]);
    for (const deliveryId of deliveryIds) {
      expect(await partitionItems(`DELIVERY#${deliveryId}`)).toEqual([]);
    }
    for (const list of [`MEMBERS#PROJECT#${id}`, `ISSUES#PROJECT#${id}`, `MRS#PROJECT#${id}`]) {
      expect(await storedItem(`LISTCOUNT#${list}`, 'COUNT')).toBeUndefined();
    }
    expect(await storedKeys(`repositories/${id}/`)).toEqual([]);
    expect(await storedKeys(`uploads/${id}/`)).toEqual([]);
    // The member's own lists no longer name it.
    const memberProjects = await api<ProjectBody[]>('GET', '/projects?membership=true&per_page=100', {
      token: member.token,
    });
    expect(memberProjects.status).toBe(200);
    expect(memberProjects.body.map((listed) => listed.id)).not.toContain(id);
  });
});

describe('DELETE /projects/:id at once', () => {
  it('202; gone from GET /projects and GET /projects/:id; path and name free for a new project, which the purge leaves alone', async () => {
    const project = await createProject(owner);
    const owned = () =>
      api<ProjectBody[]>('GET', '/projects?owned=true&per_page=100', { token: owner.token });
    expect((await owned()).body.map((listed) => listed.id)).toContain(project.id);

    const deleted = await api('DELETE', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
      token: owner.token,
    });
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual(ACCEPTED);
    const listed = await owned();
    expect(listed.status).toBe(200);
    expect(listed.body.map((item) => item.id)).not.toContain(project.id);
    const read = await getProject(project.id, owner.token);
    expect(read.status).toBe(404);
    expect(read.body).toEqual(PROJECT_NOT_FOUND);

    const again = await createProject(owner, { name: project.name, path: project.path });
    expect(again.path_with_namespace).toBe(project.path_with_namespace);
    expect(await itemOnceIdle(project.id)).toBeUndefined();
    const byPath = await getProject(encodeURIComponent(project.path_with_namespace), owner.token);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(again.id);
    expect((await storedItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE'))?.id).toBe(
      again.id,
    );
    expect(
      (await storedItem(`PROJECTNAME#${project.namespace.id}#${project.name.toLowerCase()}`, 'PROJECTNAME'))
        ?.id,
    ).toBe(again.id);
  });

  it('a maintainer → 403, a non-member of a private project → 404, a second delete → 404; an admin may', async () => {
    const project = await createProject(owner);
    const added = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: member.id, access_level: 40 },
    });
    expect(added.status, added.text).toBe(201);

    const byMaintainer = await api('DELETE', `/projects/${project.id}`, { token: member.token });
    expect(byMaintainer.status).toBe(403);
    expect(byMaintainer.body).toEqual({ message: '403 Forbidden' });
    const byStranger = await api('DELETE', `/projects/${project.id}`, { token: stranger.token });
    expect(byStranger.status).toBe(404);
    expect(byStranger.body).toEqual(PROJECT_NOT_FOUND);
    expect((await getProject(project.id, owner.token)).status).toBe(200);

    const byAdmin = await api('DELETE', `/projects/${project.id}`);
    expect(byAdmin.status).toBe(202);
    expect(byAdmin.body).toEqual(ACCEPTED);
    const second = await api('DELETE', `/projects/${project.id}`);
    expect(second.status).toBe(404);
    expect(second.body).toEqual(PROJECT_NOT_FOUND);
    const unknown = await api('DELETE', '/projects/999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(PROJECT_NOT_FOUND);
  });
});

describe('forks of a deleted project', () => {
  async function linkFork(forkId: number, sourceId: number): Promise<void> {
    const response = await api('POST', `/projects/${forkId}/fork/${sourceId}`);
    expect(response.status, response.text).toBe(201);
  }

  it("a deleted fork leaves its source's forks_count at once; the source's deletion leaves its forks without forked_from_project", async () => {
    const source = await createProject(owner, { visibility: 'public' });
    const [first, second] = await Promise.all([createProject(owner), createProject(owner)]);
    await linkFork(first.id, source.id);
    await linkFork(second.id, source.id);
    expect((await getProject(source.id, owner.token)).body.forks_count).toBe(2);
    expect((await getProject(second.id, owner.token)).body.forked_from_project?.id).toBe(source.id);

    const forkDeleted = await api('DELETE', `/projects/${first.id}`, { token: owner.token });
    expect(forkDeleted.status).toBe(202);
    expect(forkDeleted.body).toEqual(ACCEPTED);
    const afterFork = await getProject(source.id, owner.token);
    expect(afterFork.status).toBe(200);
    expect(afterFork.body.forks_count).toBe(1);
    expect(
      await storedItem(`PROJECT#${source.id}`, `FORK#${String(first.id).padStart(12, '0')}`),
    ).toBeUndefined();
    expect(await itemOnceIdle(first.id)).toBeUndefined();
    expect((await getProject(source.id, owner.token)).body.forks_count).toBe(1);

    const sourceDeleted = await api('DELETE', `/projects/${source.id}`, { token: owner.token });
    expect(sourceDeleted.status).toBe(202);
    expect(sourceDeleted.body).toEqual(ACCEPTED);
    expect(await itemOnceIdle(source.id)).toBeUndefined();
    expect(await itemsLeft(`PROJECT#${source.id}`)).toEqual([]);
    const fork = await getProject(second.id, owner.token);
    expect(fork.status).toBe(200);
    expect(fork.body.forked_from_project).toBeUndefined();
    expect((await storedItem(`PROJECT#${second.id}`, 'PROJECT'))?.forked_from_project_id).toBeNull();
  });

  it('forks deleted while another is unlinked, all at once: forks_count ends exactly at 0', async () => {
    const source = await createProject(owner, { visibility: 'public' });
    const forks = await Promise.all(Array.from({ length: 5 }, () => createProject(owner)));
    for (const fork of forks) await linkFork(fork.id, source.id);
    expect((await getProject(source.id, owner.token)).body.forks_count).toBe(5);

    const [unlinked, ...deleted] = forks as [ProjectBody, ...ProjectBody[]];
    const responses = await Promise.all([
      api('DELETE', `/projects/${unlinked.id}/fork`),
      ...deleted.map((fork) => api('DELETE', `/projects/${fork.id}`, { token: owner.token })),
    ]);
    expect(responses.map((response) => response.status)).toEqual([204, 202, 202, 202, 202]);
    expect(responses.slice(1).map((response) => response.body)).toEqual(deleted.map(() => ACCEPTED));
    const after = await getProject(source.id, owner.token);
    expect(after.status).toBe(200);
    expect(after.body.forks_count).toBe(0);
    const links = (await partitionItems(`PROJECT#${source.id}`)).filter((item) =>
      String(item.sk).startsWith('FORK#'),
    );
    expect(links).toEqual([]);
    const stillThere = await getProject(unlinked.id, owner.token);
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.forked_from_project).toBeUndefined();
  });
});
