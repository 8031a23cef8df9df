/**
 * Branch and tag writes through the gateway on an imported repository: each is committed by the
 * repository pointer's conditional move, so concurrent creations of different branches all land
 * and of the same branch exactly one; git reads the stored result (fsck, for-each-ref), and a
 * housekeeping run or a fork after the writes keeps them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repackRepository } from '../../shared/repository/repack.ts';
import {
  copyRepository,
  materializeRepository,
  readStoredRefs,
  storedRepositorySize,
} from '../../shared/repository/storage.ts';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';

const savedEnv = { S3_ENDPOINT: process.env.S3_ENDPOINT, BUCKET_NAME: process.env.BUCKET_NAME };
let root: string;
let server: GitServer;
let source: { head: string; count: number };
let owner: TestUser;
let projectId: number;

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  root = await mkdtemp(join(tmpdir(), 'ref-writes-'));
  source = await makeRepository(join(root, 'source.git'), { commits: 5, branch: 'main', tag: 'v1.0' });
  server = await startGitServer(root);
  owner = await createUser();
  const created = await api<{ id: number }>('POST', '/projects', {
    token: owner.token,
    json: { name: unique('refs'), import_url: server.url('source.git') },
  });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  await idle();
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The stored repository rebuilt from the bucket, checked by git: its refs as for-each-ref lists them. */
async function storedRefs(id: number): Promise<Record<string, string>> {
  const gitdir = await mkdtemp(join(root, 'stored-'));
  await materializeRepository(id, gitdir);
  await git(['fsck', '--strict', '--no-dangling'], gitdir);
  const listed = await git(['for-each-ref', '--format=%(refname) %(objectname)'], gitdir);
  return Object.fromEntries(
    listed
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split(' ') as [string, string]),
  );
}

const branches = (id: number) => `/projects/${id}/repository/branches`;
const tags = (id: number) => `/projects/${id}/repository/tags`;

describe('branches', () => {
  it('creates a branch at a ref, refuses an existing name, a bad name, an unknown ref; deletes it', async () => {
    const created = await api<{ name: string; commit: { id: string }; default: boolean }>(
      'POST',
      branches(projectId),
      { token: owner.token, json: { branch: 'feature/one', ref: 'main' } },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'feature/one', commit: { id: source.head }, default: false });
    expect(created.body).toMatchObject({ merged: true, protected: false, can_push: true });

    const again = await api('POST', branches(projectId), {
      token: owner.token,
      json: { branch: 'feature/one', ref: 'main' },
    });
    expect(again).toMatchObject({ status: 400, body: { message: 'Branch already exists' } });
    const badName = await api('POST', branches(projectId), {
      token: owner.token,
      json: { branch: 'bad..name', ref: 'main' },
    });
    expect(badName).toMatchObject({ status: 400, body: { message: 'Branch name is invalid' } });
    const badRef = await api('POST', branches(projectId), {
      token: owner.token,
      json: { branch: 'two', ref: 'nowhere' },
    });
    expect(badRef).toMatchObject({ status: 400, body: { message: 'Invalid reference name: nowhere' } });

    expect((await storedRefs(projectId))['refs/heads/feature/one']).toBe(source.head);

    const removed = await api('DELETE', `${branches(projectId)}/${encodeURIComponent('feature/one')}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const gone = await api('DELETE', `${branches(projectId)}/${encodeURIComponent('feature/one')}`, {
      token: owner.token,
    });
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    const main = await api('DELETE', `${branches(projectId)}/main`, { token: owner.token });
    expect(main).toMatchObject({
      status: 405,
      body: { message: 'The default branch of a project cannot be deleted' },
    });
    expect((await storedRefs(projectId))['refs/heads/feature/one']).toBeUndefined();
  });

  it('refuses a stranger to a private project (404), and a name the push rule refuses', async () => {
    const stranger = await createUser();
    const refused = await api('POST', branches(projectId), {
      token: stranger.token,
      json: { branch: 'x', ref: 'main' },
    });
    expect(refused).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const rule = await api('POST', `/projects/${projectId}/push_rule`, {
      token: owner.token,
      json: { branch_name_regex: '^feature/' },
    });
    expect(rule).toMatchObject({ status: 201, body: { branch_name_regex: '^feature/' } });
    const outside = await api('POST', branches(projectId), {
      token: owner.token,
      json: { branch: 'hotfix', ref: 'main' },
    });
    expect(outside).toMatchObject({
      status: 400,
      body: { message: "Branch name does not follow the pattern '^feature/'" },
    });
    const removed = await api('DELETE', `/projects/${projectId}/push_rule`, { token: owner.token });
    expect(removed.status).toBe(204);
  });

  it('20 concurrent creations of different branches all land; 10 of the same name, exactly one', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `many-${index}`);
    const started = Date.now();
    const answers = await Promise.all(
      names.map((branch) =>
        api<{ name: string }>('POST', branches(projectId), {
          token: owner.token,
          json: { branch, ref: 'main' },
        }),
      ),
    );
    console.log(`20 concurrent branch creations: ${Date.now() - started} ms`);
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 201));
    const refs = await storedRefs(projectId);
    for (const name of names) expect(refs[`refs/heads/${name}`]).toBe(source.head);

    const same = await Promise.all(
      Array.from({ length: 10 }, () =>
        api<{ message?: string }>('POST', branches(projectId), {
          token: owner.token,
          json: { branch: 'contended', ref: 'main' },
        }),
      ),
    );
    expect(same.filter((answer) => answer.status === 201)).toHaveLength(1);
    const losers = same.filter((answer) => answer.status !== 201);
    expect(losers).toHaveLength(9);
    for (const loser of losers)
      expect(loser).toMatchObject({ status: 400, body: { message: 'Branch already exists' } });
  });
});

describe('tags', () => {
  it('creates an annotated and a lightweight tag, refuses an existing one, deletes them', async () => {
    const annotated = await api<{ name: string; target: string; message: string; commit: { id: string } }>(
      'POST',
      tags(projectId),
      { token: owner.token, json: { tag_name: 'v2.0', ref: 'main', message: 'Second release' } },
    );
    expect(annotated.status).toBe(201);
    expect(annotated.body).toMatchObject({
      name: 'v2.0',
      message: 'Second release\n',
      commit: { id: source.head },
    });
    expect(annotated.body.target).not.toBe(source.head);
    const light = await api<{ target: string; message: string }>('POST', tags(projectId), {
      token: owner.token,
      json: { tag_name: 'light', ref: source.head },
    });
    expect(light.status).toBe(201);
    expect(light.body).toMatchObject({ target: source.head, message: '' });
    const again = await api('POST', tags(projectId), {
      token: owner.token,
      json: { tag_name: 'v2.0', ref: 'main' },
    });
    expect(again).toMatchObject({ status: 400, body: { message: 'Tag v2.0 already exists' } });

    // The tag's pack counts in repository_size once the pointer's change is read from the stream.
    await idle();
    const stats = await api<{ statistics: { repository_size: number; commit_count: number } }>(
      'GET',
      `/projects/${projectId}?statistics=true`,
      { token: owner.token },
    );
    expect(stats.status).toBe(200);
    expect(stats.body.statistics).toMatchObject({
      repository_size: await storedRepositorySize(projectId),
      commit_count: 5,
    });

    const refs = await storedRefs(projectId);
    expect(refs['refs/tags/v2.0']).toBe(annotated.body.target);
    expect(await git(['cat-file', '-t', annotated.body.target], await rebuiltDir(projectId))).toBe('tag');

    expect((await api('DELETE', `${tags(projectId)}/light`, { token: owner.token })).status).toBe(204);
    const gone = await api('DELETE', `${tags(projectId)}/light`, { token: owner.token });
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Tag Not Found' } });
  });

  it('housekeeping and a fork after the writes keep them', async () => {
    const before = await readStoredRefs(projectId);
    expect(before?.refs['refs/tags/v2.0']).toBeDefined();
    const repacked = await repackRepository(projectId);
    expect(repacked?.stored.refs).toEqual(before?.refs);
    expect(repacked?.stored.packs).toHaveLength(1);
    const refs = await storedRefs(projectId);
    expect(refs['refs/tags/v2.0']).toBe(before?.refs['refs/tags/v2.0']);
    expect(refs['refs/heads/many-19']).toBe(source.head);

    const fork = projectId * 1000 + 7;
    await copyRepository(projectId, fork);
    expect(await storedRefs(fork)).toEqual(refs);
  });
});

async function rebuiltDir(id: number): Promise<string> {
  const gitdir = await mkdtemp(join(root, 'stored-'));
  await materializeRepository(id, gitdir);
  return gitdir;
}
