/**
 * Push events through the gateway: each committed state of a repository sends a Push Hook per
 * branch and a Tag Push Hook per tag it changed, to the hooks that take them (their switches and a
 * branch's filter): a mirror's first import, a branch and an annotated tag created through the
 * API, a branch deleted, and a mirror update that moves a protected branch by two commits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listBlobs } from '../../shared/blob/s3.ts';
import { fanOutPushes } from '../../shared/delivery/push-fan-out.ts';
import { api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';
import { addCommits, type GitServer, git, makeRepository, startGitServer } from '../support/git-server.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../support/receiver.ts';

const BLANK = '0000000000000000000000000000000000000000';

interface PushCommit {
  id: string;
  message: string;
  title: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

interface PushBody {
  object_kind: string;
  event_name: string;
  before: string;
  after: string;
  ref: string;
  ref_protected: boolean;
  checkout_sha: string | null;
  message: string | null;
  user_id: number;
  user_name: string;
  user_username: string;
  project_id: number;
  project: { id: number; path_with_namespace: string; web_url: string };
  repository: { name: string; git_http_url: string };
  commits: PushCommit[];
  total_commits_count: number;
}

let root: string;
let server: GitServer;
let receiver: Receiver;
let remoteDir: string;
let source: { head: string; count: number };
let owner: TestUser;
let pusher: TestUser;
let projectId: number;
let tag: string;
let webUrl: string;
const savedEnv = Object.fromEntries(
  ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'S3_ENDPOINT', 'BUCKET_NAME'].map((name) => [name, process.env[name]]),
);

const bodies = (requests: ReceivedRequest[]) => requests.map((request) => request.json as PushBody);
const path = (name: string) => `/${tag}/${name}`;
/** The requests a hook received, by the ref their payload names. */
const byRef = (name: string, ref: string) =>
  receiver.at(path(name)).filter((request) => (request.json as PushBody).ref === ref);

beforeAll(async () => {
  // The replay test runs the consumer's fan-out in this process, on the runtime's table and bucket.
  process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
  process.env.TABLE_NAME = inject('tableName');
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  root = await mkdtemp(join(tmpdir(), 'push-events-'));
  remoteDir = join(root, 'source.git');
  source = await makeRepository(remoteDir, { commits: 10, branch: 'main', tag: 'v1.0' });
  server = await startGitServer(root);
  receiver = await startReceiver();
  tag = unique('push');
  [owner, pusher] = await Promise.all([createUser(), createUser()]);
  const created = await must(
    api<{ id: number; web_url: string }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('pushed') },
    }),
    201,
    'project',
  );
  projectId = created.id;
  webUrl = created.web_url;
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: pusher.id, access_level: 40 } }),
    201,
    'member',
  );
  const hooks: [string, Record<string, unknown>][] = [
    ['all', { push_events: true, tag_push_events: true }],
    ['tags', { push_events: false, tag_push_events: true }],
    ['features', { push_events: true, push_events_branch_filter: 'feature/*' }],
    ['regex', { push_events: true, push_events_branch_filter: '^ma', branch_filter_strategy: 'regex' }],
    ['none', { push_events: false, issues_events: true }],
  ];
  for (const [name, flags] of hooks) {
    await must(
      api('POST', `/projects/${projectId}/hooks`, {
        token: owner.token,
        json: { url: `${receiver.origin}${path(name)}`, ...flags },
      }),
      201,
      `hook ${name}`,
    );
  }
  // The project becomes a mirror of the fixture: its first state is imported.
  await must(
    api('PUT', `/projects/${projectId}`, {
      token: owner.token,
      json: { mirror: true, import_url: server.url('source.git') },
    }),
    200,
    'mirror',
  );
  await idle();
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await receiver?.close();
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('push events', () => {
  it("sends a mirror's first state as the creation of its branch and tag, by the mirror user", async () => {
    const [push] = bodies(byRef('all', 'refs/heads/main'));
    expect(byRef('all', 'refs/heads/main')).toHaveLength(1);
    expect(byRef('all', 'refs/heads/main')[0]?.headers['x-gitlab-event']).toBe('Push Hook');
    expect(push).toMatchObject({
      object_kind: 'push',
      event_name: 'push',
      before: BLANK,
      after: source.head,
      ref: 'refs/heads/main',
      // The mirror's first state brought the default branch, which the job protected.
      ref_protected: true,
      checkout_sha: source.head,
      message: null,
      user_id: owner.id,
      user_username: owner.username,
      project_id: projectId,
      project: { id: projectId, web_url: webUrl },
      total_commits_count: 10,
    });
    // The newest 10 of the history, oldest first, each with the file it adds.
    expect(push?.commits.map((commit) => commit.title)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Commit ${index + 1}`),
    );
    expect(push?.commits[9]).toEqual({
      id: source.head,
      message: expect.stringMatching(/^Commit 10\n?$/),
      title: 'Commit 10',
      timestamp: '2023-11-14T22:22:20+00:00',
      url: `${webUrl}/-/commit/${source.head}`,
      author: { name: 'Fixture Author', email: 'author@example.com' },
      added: ['file-9.txt'],
      modified: [],
      removed: [],
    });

    const tagTarget = await git(['--git-dir', remoteDir, 'rev-parse', 'refs/tags/v1.0']);
    for (const name of ['all', 'tags']) {
      const tagged = byRef(name, 'refs/tags/v1.0');
      expect(tagged).toHaveLength(1);
      expect(tagged[0]?.headers['x-gitlab-event']).toBe('Tag Push Hook');
      expect(tagged[0]?.json).toMatchObject({
        object_kind: 'tag_push',
        event_name: 'tag_push',
        before: BLANK,
        after: tagTarget,
        ref: 'refs/tags/v1.0',
        checkout_sha: source.head,
        message: 'Release v1.0',
        user_id: owner.id,
        total_commits_count: 1,
        commits: [expect.objectContaining({ id: source.head })],
      });
    }
    // `main` passes the regex filter, not the wildcard one; no branch goes to a tag-only hook.
    expect(bodies(receiver.at(path('regex'))).map((body) => body.ref)).toEqual(['refs/heads/main']);
    expect(receiver.at(path('features'))).toEqual([]);
    expect(bodies(receiver.at(path('tags'))).map((body) => body.ref)).toEqual(['refs/tags/v1.0']);
    expect(receiver.at(path('none'))).toEqual([]);
  });

  it('sends a branch created through the API, by its creator, with no commits of its own', async () => {
    await must(
      api('POST', `/projects/${projectId}/repository/branches`, {
        token: pusher.token,
        json: { branch: 'feature/one', ref: 'main' },
      }),
      201,
      'branch',
    );
    await idle();
    for (const name of ['all', 'features']) {
      const sent = bodies(byRef(name, 'refs/heads/feature/one'));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        object_kind: 'push',
        before: BLANK,
        after: source.head,
        ref: 'refs/heads/feature/one',
        checkout_sha: source.head,
        user_id: pusher.id,
        user_username: pusher.username,
        commits: [],
        total_commits_count: 0,
      });
    }
    expect(byRef('regex', 'refs/heads/feature/one')).toEqual([]);
    expect(byRef('tags', 'refs/heads/feature/one')).toEqual([]);
  });

  it('sends an annotated tag created through the API as a Tag Push Hook with its message', async () => {
    const created = await must(
      api<{ target: string }>('POST', `/projects/${projectId}/repository/tags`, {
        token: pusher.token,
        json: { tag_name: 'v2.0', ref: 'main', message: 'Release two' },
      }),
      201,
      'tag',
    );
    await idle();
    for (const name of ['all', 'tags']) {
      const sent = byRef(name, 'refs/tags/v2.0');
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers['x-gitlab-event']).toBe('Tag Push Hook');
      expect(sent[0]?.json).toMatchObject({
        object_kind: 'tag_push',
        before: BLANK,
        after: created.target,
        checkout_sha: source.head,
        message: 'Release two',
        user_id: pusher.id,
        commits: [expect.objectContaining({ id: source.head, title: 'Commit 10' })],
        total_commits_count: 1,
      });
    }
    expect(created.target).not.toBe(source.head);
  });

  it('sends a branch deletion with a blank after and no checkout', async () => {
    await must(
      api('DELETE', `/projects/${projectId}/repository/branches/${encodeURIComponent('feature/one')}`, {
        token: pusher.token,
      }),
      204,
      'delete',
    );
    await idle();
    const sent = bodies(byRef('features', 'refs/heads/feature/one'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      before: source.head,
      after: BLANK,
      checkout_sha: null,
      commits: [],
      total_commits_count: 0,
      user_id: pusher.id,
    });
  });

  it('sends API commits: a branch a commit starts, then a commit on it, each with its files', async () => {
    const commit = (branch: string, actions: object[], extra: object = {}) =>
      must(
        api<{ id: string; title: string }>('POST', `/projects/${projectId}/repository/commits`, {
          token: pusher.token,
          json: { branch, commit_message: `Change ${branch}`, actions, ...extra },
        }),
        201,
        'commit',
      );
    const first = await commit('feature/two', [{ action: 'create', file_path: 'api.txt', content: 'one' }], {
      start_branch: 'main',
    });
    const second = await commit('feature/two', [
      { action: 'update', file_path: 'api.txt', content: 'two' },
      { action: 'delete', file_path: 'file-0.txt' },
    ]);
    await idle();
    const sent = bodies(byRef('features', 'refs/heads/feature/two'));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({
      object_kind: 'push',
      before: BLANK,
      after: first.id,
      checkout_sha: first.id,
      user_id: pusher.id,
      total_commits_count: 1,
    });
    expect(sent[0]?.commits).toEqual([
      expect.objectContaining({
        id: first.id,
        title: 'Change feature/two',
        author: { name: pusher.username, email: pusher.email },
        added: ['api.txt'],
        modified: [],
        removed: [],
      }),
    ]);
    expect(sent[1]).toMatchObject({ before: first.id, after: second.id, total_commits_count: 1 });
    expect(sent[1]?.commits).toEqual([
      expect.objectContaining({ id: second.id, added: [], modified: ['api.txt'], removed: ['file-0.txt'] }),
    ]);
  });

  it("sends a mirror update's new commits on a protected branch, newest last, with their files", async () => {
    await must(
      api('POST', `/projects/${projectId}/protected_branches`, { token: owner.token, json: { name: 'ma*' } }),
      201,
      'protect',
    );
    const added = await addCommits(remoteDir, 2, 'main');
    const parent = await git(['--git-dir', remoteDir, 'rev-parse', 'main^']);
    await must(api('POST', `/projects/${projectId}/mirror/pull`, { token: owner.token }), 200, 'pull');
    await idle();
    const sent = bodies(byRef('all', 'refs/heads/main'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      before: source.head,
      after: added.head,
      ref_protected: true,
      checkout_sha: added.head,
      user_id: owner.id,
      total_commits_count: 2,
    });
    expect(sent[1]?.commits).toEqual([
      expect.objectContaining({
        id: parent,
        title: 'Commit 11',
        added: [],
        modified: ['file-0.txt'],
        removed: [],
      }),
      expect.objectContaining({ id: added.head, title: 'Commit 12', added: [], modified: ['file-1.txt'] }),
    ]);
    // The tags did not move: no tag push.
    expect(byRef('all', 'refs/tags/v1.0')).toHaveLength(1);
  });

  it('sends nothing again when the same state is fanned out twice (deliveries keyed by state, ref and hook)', async () => {
    const pointer = await storedItem(`PROJECT#${projectId}`, 'REPOSITORY');
    expect(typeof pointer?.refs_key).toBe('string');
    // The document of the state before it (no other writer raced here: one per version).
    const previous = await listBlobs(`repositories/${projectId}/refs/${Number(pointer?.version) - 1}-`);
    expect(previous).toHaveLength(1);
    const before = receiver.requests.length;
    // The last state's record once more, as the stream replays it.
    const sent = await fanOutPushes({
      eventName: 'MODIFY',
      keys: { pk: `PROJECT#${projectId}`, sk: 'REPOSITORY' },
      newImage: pointer,
      oldImage: { refs_key: previous[0]?.key },
    });
    expect(sent).toBe(0);
    await idle();
    expect(receiver.requests.length).toBe(before);
  });
});
