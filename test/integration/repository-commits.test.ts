/**
 * Changing a repository through the API against the shared runtime: the files routes (create,
 * update, delete; a new branch from start_branch), POST /repository/commits with every action,
 * a first commit to an empty project (HEAD and default_branch follow, statistics exact), the
 * last_commit_id conflict, push-rule refusals, bad paths and contents, and 20 concurrent commits
 * to one branch: every 201's commit is in the branch's history, every refusal is GitLab's
 * conflict, and `git fsck --strict` is clean on the stored repository.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { materializeRepository } from '../../shared/repository/storage.ts';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';

const ENV = ['S3_ENDPOINT', 'BUCKET_NAME', 'DYNAMODB_ENDPOINT', 'TABLE_NAME'] as const;
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));

let root: string;
let server: GitServer;
let owner: TestUser;

interface CommitBody {
  id: string;
  parent_ids: string[];
  message: string;
  author_name: string;
  author_email: string;
  committer_email: string;
  stats: { additions: number; deletions: number; total: number };
}

beforeAll(async () => {
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
  process.env.TABLE_NAME = inject('tableName');
  root = await mkdtemp(join(tmpdir(), 'repository-commits-'));
  await makeRepository(join(root, 'source.git'), { commits: 3 });
  server = await startGitServer(root);
  owner = await createUser();
}, 60_000);

afterAll(async () => {
  for (const name of ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A project of the owner's holding the fixture (file-0.txt … file-2.txt on main). */
async function importedProject(): Promise<number> {
  const created = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('commits'), import_url: server.url('source.git') },
    }),
    201,
    'project',
  );
  await idle();
  return created.id;
}

const files = (id: number, path: string) => `/projects/${id}/repository/files/${encodeURIComponent(path)}`;
const commits = (id: number) => `/projects/${id}/repository/commits`;

async function rawFile(id: number, path: string, ref = 'main') {
  const response = await api('GET', `${files(id, path)}/raw?ref=${encodeURIComponent(ref)}`, {
    token: owner.token,
  });
  return { status: response.status, text: response.text };
}

async function fileFacts(id: number, path: string, ref = 'main') {
  return must(
    api<{ last_commit_id: string; commit_id: string; blob_id: string }>(
      'GET',
      `${files(id, path)}?ref=${encodeURIComponent(ref)}`,
      { token: owner.token },
    ),
    200,
    'file',
  );
}

async function tipOf(id: number, branch = 'main'): Promise<string> {
  const body = await must(
    api<{ commit: { id: string } }>('GET', `/projects/${id}/repository/branches/${branch}`, {
      token: owner.token,
    }),
    200,
    'branch',
  );
  return body.commit.id;
}

/** The stored repository rebuilt in a bare directory, checked by git itself. */
async function fsck(id: number): Promise<string> {
  const gitdir = await mkdtemp(join(root, 'fsck-'));
  await materializeRepository(id, gitdir);
  await git(['--git-dir', gitdir, 'fsck', '--strict', '--no-progress', '--no-dangling']);
  return gitdir;
}

describe('files routes', () => {
  let id: number;
  beforeAll(async () => {
    id = await importedProject();
  }, 60_000);

  it('creates, updates and deletes a file, each one commit by the caller', async () => {
    const before = await tipOf(id);
    const created = await api('POST', files(id, 'docs/new/a.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'hello\n', commit_message: 'Add a' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ file_path: 'docs/new/a.txt', branch: 'main' });
    expect(await rawFile(id, 'docs/new/a.txt')).toEqual({ status: 200, text: 'hello\n' });
    const tip = await tipOf(id);
    const commit = await must(api<CommitBody>('GET', `${commits(id)}/${tip}`, { token: owner.token }), 200);
    expect(commit.parent_ids).toEqual([before]);
    expect(commit.author_email).toBe(owner.email);
    expect(commit.committer_email).toBe(owner.email);
    expect(commit.stats).toEqual({ additions: 1, deletions: 0, total: 1 });

    const updated = await api('PUT', files(id, 'docs/new/a.txt'), {
      token: owner.token,
      json: {
        branch: 'main',
        content: Buffer.from('bye\n').toString('base64'),
        encoding: 'base64',
        commit_message: 'Change a',
        author_name: 'Someone Else',
        author_email: 'else@example.com',
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ file_path: 'docs/new/a.txt', branch: 'main' });
    expect(await rawFile(id, 'docs/new/a.txt')).toEqual({ status: 200, text: 'bye\n' });
    const changed = await must(api<CommitBody>('GET', `${commits(id)}/main`, { token: owner.token }), 200);
    expect([changed.author_name, changed.author_email, changed.committer_email]).toEqual([
      'Someone Else',
      'else@example.com',
      owner.email,
    ]);

    const deleted = await api('DELETE', files(id, 'docs/new/a.txt'), {
      token: owner.token,
      json: { branch: 'main', commit_message: 'Remove a' },
    });
    expect(deleted.status).toBe(204);
    expect((await rawFile(id, 'docs/new/a.txt')).status).toBe(404);
    // The directories left empty went with the file.
    const tree = await must(
      api<{ path: string }[]>('GET', `/projects/${id}/repository/tree?ref=main`, { token: owner.token }),
      200,
    );
    expect(tree.map((entry) => entry.path)).toEqual(['file-0.txt', 'file-1.txt', 'file-2.txt']);
  });

  it("refuses what exists, what doesn't and a branch that is not there, as GitLab words it", async () => {
    const exists = await api('POST', files(id, 'file-0.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'x', commit_message: 'm' },
    });
    expect(exists.status).toBe(400);
    expect(exists.body).toEqual({ message: 'A file with this name already exists' });
    for (const method of ['PUT', 'DELETE']) {
      const missing = await api(method, files(id, 'nope.txt'), {
        token: owner.token,
        json: { branch: 'main', content: 'x', commit_message: 'm' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: "A file with this name doesn't exist" });
    }
    const offBranch = await api('POST', files(id, 'x.txt'), {
      token: owner.token,
      json: { branch: 'nowhere', content: 'x', commit_message: 'm' },
    });
    expect(offBranch.status).toBe(400);
    expect(offBranch.body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
    const blank = await api('POST', files(id, 'x.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'x', commit_message: ' ' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'commit_message is empty' });
  });

  it('makes a new branch from start_branch, and refuses one that exists', async () => {
    const main = await tipOf(id);
    const created = await api('POST', files(id, 'topic.txt'), {
      token: owner.token,
      json: { branch: 'topic/one', start_branch: 'main', content: 'topic\n', commit_message: 'Topic' },
    });
    expect(created.status).toBe(201);
    const topic = await must(
      api<CommitBody>('GET', `${commits(id)}/topic%2Fone`, { token: owner.token }),
      200,
    );
    expect(topic.parent_ids).toEqual([main]);
    expect(await tipOf(id)).toBe(main);
    const again = await api('POST', files(id, 'topic2.txt'), {
      token: owner.token,
      json: { branch: 'topic/one', start_branch: 'main', content: 'x', commit_message: 'Topic' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: "A branch called 'topic/one' already exists. Switch to that branch in order to make changes",
    });
  });

  it('refuses an update whose last_commit_id is not the file’s last commit', async () => {
    const facts = await fileFacts(id, 'file-1.txt');
    const stale = await api('PUT', files(id, 'file-1.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'v2', commit_message: 'm', last_commit_id: 'f'.repeat(40) },
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({
      message: 'You are attempting to update a file that has changed since you started editing it.',
    });
    const fresh = await api('PUT', files(id, 'file-1.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'v2', commit_message: 'm', last_commit_id: facts.last_commit_id },
    });
    expect(fresh.status).toBe(200);
    const replay = await api('PUT', files(id, 'file-1.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'v3', commit_message: 'm', last_commit_id: facts.last_commit_id },
    });
    expect(replay.status).toBe(400);
    expect(await rawFile(id, 'file-1.txt')).toEqual({ status: 200, text: 'v2' });
  });

  it('refuses bad paths and contents with 400, never writing', async () => {
    const tip = await tipOf(id);
    for (const path of ['../escape.txt', 'a/../b.txt', '.git/config', 'sub/.GIT/hooks', 'a//b']) {
      const response = await api('POST', files(id, path), {
        token: owner.token,
        json: { branch: 'main', content: 'x', commit_message: 'm' },
      });
      expect(response.status, path.slice(0, 40)).toBe(400);
      expect(response.body).toEqual({ error: 'file_path should be a valid file path' });
    }
    const badBase64 = await api('POST', files(id, 'b64.txt'), {
      token: owner.token,
      json: { branch: 'main', content: 'not*base64', encoding: 'base64', commit_message: 'm' },
    });
    expect(badBase64.status).toBe(400);
    expect(badBase64.body).toEqual({ message: 'Content is not valid base64' });
    const outsider = await createUser();
    const forbidden = await api('POST', files(id, 'o.txt'), {
      token: outsider.token,
      json: { branch: 'main', content: 'x', commit_message: 'm' },
    });
    expect(forbidden.status).toBe(404);
    expect(await tipOf(id)).toBe(tip);
  });
});

describe('POST /repository/commits', () => {
  let id: number;
  beforeAll(async () => {
    id = await importedProject();
  }, 60_000);

  it('applies create, update, move, chmod and delete in one commit', async () => {
    const before = await tipOf(id);
    const response = await api<CommitBody>('POST', commits(id), {
      token: owner.token,
      json: {
        branch: 'main',
        commit_message: 'Many things',
        actions: [
          {
            action: 'create',
            file_path: 'src/new.sh',
            content: '#!/bin/sh\necho new\n',
            execute_filemode: true,
          },
          { action: 'update', file_path: 'file-0.txt', content: 'zero\n' },
          { action: 'move', file_path: 'moved/file-1.txt', previous_path: 'file-1.txt' },
          { action: 'chmod', file_path: 'file-2.txt', execute_filemode: true },
          {
            action: 'create',
            file_path: 'bin.dat',
            content: Buffer.from([0, 1, 2, 255]).toString('base64'),
            encoding: 'base64',
          },
        ],
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      parent_ids: [before],
      message: 'Many things\n',
      author_email: owner.email,
      committer_email: owner.email,
      // A move is a deletion and an addition of its lines: stats find no renames.
      stats: { additions: 5, deletions: 3, total: 8 },
      project_id: id,
    });
    const tree = await must(
      api<{ path: string; mode: string; type: string }[]>(
        'GET',
        `/projects/${id}/repository/tree?recursive=true&ref=main&per_page=100`,
        { token: owner.token },
      ),
      200,
    );
    const blobs = Object.fromEntries(tree.filter((e) => e.type === 'blob').map((e) => [e.path, e.mode]));
    expect(blobs).toEqual({
      'bin.dat': '100644',
      'file-0.txt': '100644',
      'file-2.txt': '100755',
      'moved/file-1.txt': '100644',
      'src/new.sh': '100755',
    });
    expect(await rawFile(id, 'file-0.txt')).toEqual({ status: 200, text: 'zero\n' });

    const deleted = await api<CommitBody>('POST', commits(id), {
      token: owner.token,
      json: {
        branch: 'main',
        commit_message: 'Delete',
        stats: false,
        actions: [{ action: 'delete', file_path: 'bin.dat' }],
      },
    });
    expect(deleted.status).toBe(201);
    expect(deleted.body).not.toHaveProperty('stats');
    expect((await rawFile(id, 'bin.dat')).status).toBe(404);
    await fsck(id);
  });

  it('refuses actions as Grape and the commit service do', async () => {
    const tip = await tipOf(id);
    const cases: [unknown[], number, unknown][] = [
      [
        [{ action: 'explode', file_path: 'a' }],
        400,
        { error: 'actions[0][action] does not have a valid value' },
      ],
      [[{ action: 'move', file_path: 'a' }], 400, { error: 'actions[0][previous_path] is missing' }],
      [[{ action: 'chmod', file_path: 'a' }], 400, { error: 'actions[0][execute_filemode] is missing' }],
      [
        [{ action: 'create', file_path: '../a' }],
        400,
        { message: 'Path cannot include directory traversal' },
      ],
      [[{ action: 'create', file_path: '.git/hooks/x' }], 400, { message: "Invalid path: '.git/hooks/x'" }],
      [[{ action: 'create', file_path: '/abs' }], 400, { message: "Invalid path: '/abs'" }],
      [[{ action: 'create', file_path: 'nul\u0000x' }], 400, { message: "Invalid path: 'nulx'" }],
      [
        [{ action: 'create', file_path: `${'d/'.repeat(2048)}f` }],
        400,
        { message: `Invalid path: '${'d/'.repeat(2048)}f'` },
      ],
      [
        [
          { action: 'create', file_path: 'same', content: '1' },
          { action: 'update', file_path: 'same', content: '2' },
        ],
        400,
        { message: "Path 'same' is changed by more than one action" },
      ],
      [
        Array.from({ length: 1001 }, (_, index) => ({ action: 'create', file_path: `f${index}` })),
        400,
        { message: 'A commit takes at most 1000 actions' },
      ],
      [
        [{ action: 'create', file_path: 'x', content: '%%%', encoding: 'base64' }],
        400,
        { message: 'Content is not valid base64' },
      ],
      [[{ action: 'update', file_path: 'nope' }], 400, { message: "A file with this name doesn't exist" }],
      [
        [{ action: 'create', file_path: 'file-0.txt/inner' }],
        400,
        { message: 'A file with this name already exists' },
      ],
      [
        [{ action: 'create', file_path: 'file-0.txt' }],
        400,
        { message: 'A file with this name already exists' },
      ],
      [
        [{ action: 'update', file_path: 'file-0.txt', content: 'x', last_commit_id: '0'.repeat(40) }],
        400,
        { message: 'The file has changed since you started editing it: file-0.txt' },
      ],
    ];
    for (const [actions, status, body] of cases) {
      const response = await api('POST', commits(id), {
        token: owner.token,
        json: { branch: 'main', commit_message: 'm', actions },
      });
      expect({ status: response.status, body: response.body }).toEqual({ status, body });
    }
    const starts = await api('POST', commits(id), {
      token: owner.token,
      json: {
        branch: 'x',
        commit_message: 'm',
        start_branch: 'main',
        start_sha: tip,
        actions: [{ action: 'create', file_path: 'q' }],
      },
    });
    expect({ status: starts.status, body: starts.body }).toEqual({
      status: 400,
      body: { error: 'start_branch, start_sha are mutually exclusive' },
    });
    const unknownSha = await api('POST', commits(id), {
      token: owner.token,
      json: {
        branch: 'x',
        commit_message: 'm',
        start_sha: 'a'.repeat(40),
        actions: [{ action: 'create', file_path: 'q' }],
      },
    });
    expect({ status: unknownSha.status, body: unknownSha.body }).toEqual({
      status: 400,
      body: { message: `Cannot find start_sha '${'a'.repeat(40)}'` },
    });
    expect(await tipOf(id)).toBe(tip);
  });

  it('starts a branch at start_sha', async () => {
    const tip = await tipOf(id);
    const response = await api<CommitBody>('POST', commits(id), {
      token: owner.token,
      json: {
        branch: 'from-sha',
        commit_message: 'From a sha',
        start_sha: tip,
        actions: [{ action: 'create', file_path: 'sha.txt', content: 's' }],
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.parent_ids).toEqual([tip]);
    expect(await tipOf(id, 'from-sha')).toBe(response.body.id);
  });
});

describe('a first commit to an empty project', () => {
  it('creates the branch, HEAD and the default branch follow, statistics are exact', async () => {
    const project = await must(
      api<{ id: number }>('POST', '/projects', { token: owner.token, json: { name: unique('empty') } }),
      201,
    );
    const update = await api('POST', files(project.id, 'x.txt'), {
      token: owner.token,
      json: { branch: 'trunk', content: 'x', commit_message: 'm' },
    });
    expect(update.status).toBe(201);
    const second = await api<CommitBody>('POST', commits(project.id), {
      token: owner.token,
      json: {
        branch: 'trunk',
        commit_message: 'Second',
        actions: [{ action: 'create', file_path: 'y.txt', content: 'y' }],
      },
    });
    expect(second.status).toBe(201);
    // Statistics are recounted from the pointer's change on the stream.
    await idle();
    const read = await must(
      api<{ default_branch: string; statistics: { commit_count: number; repository_size: number } }>(
        'GET',
        `/projects/${project.id}?statistics=true`,
        { token: owner.token },
      ),
      200,
    );
    expect(read.default_branch).toBe('trunk');
    expect(read.statistics.commit_count).toBe(2);
    expect(read.statistics.repository_size).toBeGreaterThan(0);
    const branches = await must(
      api<{ name: string; default: boolean }[]>('GET', `/projects/${project.id}/repository/branches`, {
        token: owner.token,
      }),
      200,
    );
    expect(branches.map((b) => [b.name, b.default])).toEqual([['trunk', true]]);
    const gitdir = await fsck(project.id);
    expect(await git(['--git-dir', gitdir, 'symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    expect(await git(['--git-dir', gitdir, 'rev-list', '--count', 'HEAD'])).toBe('2');
  });
});

describe('push rules', () => {
  it('refuses commits the project’s rule refuses, with GitLab’s words', async () => {
    const id = await importedProject();
    await must(
      api('POST', `/projects/${id}/push_rule`, {
        token: owner.token,
        json: {
          commit_message_regex: '^JIRA-\\d+',
          commit_message_negative_regex: 'WIP',
          file_name_regex: '\\.exe$',
          prevent_secrets: true,
          max_file_size: 1,
          branch_name_regex: '^(main|feature/.+)$',
          author_email_regex: '@example\\.com$',
        },
      }),
      201,
      'push rule',
    );
    const tip = await tipOf(id);
    const attempt = async (json: Record<string, unknown>) => {
      const response = await api('POST', commits(id), {
        token: owner.token,
        json: {
          branch: 'main',
          commit_message: 'JIRA-1 ok',
          actions: [{ action: 'create', file_path: 'ok.txt' }],
          ...json,
        },
      });
      return { status: response.status, body: response.body };
    };
    expect(await attempt({ commit_message: 'no ticket' })).toEqual({
      status: 400,
      body: { message: "Commit message does not follow the pattern '^JIRA-\\d+'" },
    });
    expect(await attempt({ commit_message: 'JIRA-2 WIP' })).toEqual({
      status: 400,
      body: { message: "Commit message contains the forbidden pattern 'WIP'" },
    });
    expect(await attempt({ actions: [{ action: 'create', file_path: 'tool.exe' }] })).toEqual({
      status: 400,
      body: { message: 'File name tool.exe was prohibited by the pattern "\\\\.exe$".' },
    });
    expect(await attempt({ actions: [{ action: 'create', file_path: 'home/.ssh/id_rsa' }] })).toEqual({
      status: 400,
      body: {
        message: expect.stringMatching(/^File name home\/\.ssh\/id_rsa was prohibited by the pattern /),
      },
    });
    const big = 'a'.repeat(1024 * 1024 + 1);
    expect(await attempt({ actions: [{ action: 'create', file_path: 'big.txt', content: big }] })).toEqual({
      status: 400,
      body: {
        message: 'File "big.txt" is larger than the allowed size of 1 MiB. Use Git LFS to manage this file.',
      },
    });
    expect(await attempt({ branch: 'wrong', start_branch: 'main' })).toEqual({
      status: 400,
      body: { message: "Branch name does not follow the pattern '^(main|feature/.+)$'" },
    });
    expect(await attempt({ author_email: 'someone@elsewhere.org' })).toEqual({
      status: 400,
      body: {
        message: "Author's email 'someone@elsewhere.org' does not follow the pattern '@example\\.com$'",
      },
    });
    expect(await tipOf(id)).toBe(tip);
    expect((await attempt({ branch: 'feature/x', start_branch: 'main' })).status).toBe(201);
    await must(
      api('PUT', `/projects/${id}/push_rule`, { token: owner.token, json: { member_check: true } }),
      200,
    );
    expect(await attempt({ author_email: 'stranger@example.com' })).toEqual({
      status: 400,
      body: { message: "Author 'stranger@example.com' is not a member of team" },
    });
    expect((await attempt({})).status).toBe(201);
  });
});

describe('20 concurrent commits to one branch', () => {
  it('land every 201 in the history, refuse the rest with GitLab’s conflict, and leave a sound repository', async () => {
    const id = await importedProject();
    const facts = await fileFacts(id, 'file-0.txt');
    const requests = Array.from({ length: 20 }, (_, index) =>
      api<CommitBody | { message: string }>('POST', commits(id), {
        token: owner.token,
        json: {
          branch: 'main',
          commit_message: `Concurrent ${index}`,
          actions:
            index < 10
              ? [{ action: 'create', file_path: `distinct/${index}.txt`, content: `${index}\n` }]
              : [
                  {
                    action: 'update',
                    file_path: 'file-0.txt',
                    content: `writer ${index}\n`,
                    last_commit_id: facts.last_commit_id,
                  },
                ],
        },
      }),
    );
    const responses = await Promise.all(requests);
    const landed = responses.filter((r) => r.status === 201).map((r) => (r.body as CommitBody).id);
    const refused = responses.filter((r) => r.status !== 201);
    for (const response of responses.slice(0, 10)) expect(response.status).toBe(201);
    expect(landed).toHaveLength(11);
    for (const response of refused) {
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: { message: 'The file has changed since you started editing it: file-0.txt' },
      });
    }
    const history = await must(
      api<{ id: string }[]>('GET', `${commits(id)}?ref_name=main&per_page=100`, { token: owner.token }),
      200,
    );
    const ids = new Set(history.map((c) => c.id));
    for (const commit of landed) expect(ids.has(commit)).toBe(true);
    expect(history).toHaveLength(3 + 11);
    const tree = await must(
      api<{ path: string }[]>('GET', `/projects/${id}/repository/tree?path=distinct&ref=main&per_page=100`, {
        token: owner.token,
      }),
      200,
    );
    expect(tree).toHaveLength(10);
    await idle();
    const read = await must(
      api<{ statistics: { commit_count: number } }>('GET', `/projects/${id}?statistics=true`, {
        token: owner.token,
      }),
      200,
    );
    expect(read.statistics.commit_count).toBe(14);
    await fsck(id);
  }, 120_000);
});
