/**
 * Pull mirroring with a runtime of the test's own (its schedule handler is invoked here, in this
 * process, and its address policy changed): a mirror created or turned on by PUT is imported, a
 * mirror pull brings new commits, the schedule updates mirrors and drops markers of projects that
 * are none any more, a remote that went away ends `failed`, and GitLab's refusals (not mirrored,
 * developers, other users as mirror user, blocked addresses when local requests are refused).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';
import { handler as mirrorSchedule } from '../../functions/schedules/mirror-update.ts';
import { materializeRepository } from '../../shared/repository/storage.ts';
import { getItem } from '../../shared/store/table/items.ts';
import { keys } from '../../shared/store/table/keys.ts';
import { lambdaContext } from '../support/events.ts';
import {
  addCommits,
  type GitServer,
  git,
  makeRepository,
  revParse,
  startGitServer,
} from '../support/git-server.ts';

interface ProjectBody {
  id: number;
  default_branch: string | null;
  import_status: string;
  import_error: string | null;
  import_url?: string | null;
  mirror: boolean;
  mirror_user_id?: number | null;
  mirror_trigger_builds?: boolean;
  only_mirror_protected_branches?: boolean;
  mirror_overwrites_diverged_branches?: boolean;
  statistics?: { commit_count: number };
}

interface MirrorDetails {
  id: number;
  last_error: string | null;
  last_successful_update_at: string | null;
  last_update_at: string | null;
  last_update_started_at: string | null;
  update_status: string;
  url: string;
}

let runtime: LocalRuntime;
let dataDir: string;
let root: string;
let server: GitServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-mirrors-'));
  // The schedule's timer stays off: the tests run the schedule themselves.
  runtime = await startLocalRuntime({
    dataDir,
    inMemory: true,
    rootToken: 'mirrors-root-token-0123456789',
    scheduleMinutes: { 'mirror-update': 0 },
  });
  root = await mkdtemp(join(tmpdir(), 'mirrors-'));
  server = await startGitServer(root);
}, 120_000);

afterAll(async () => {
  process.env.ALLOW_LOCAL_REQUESTS = savedEnv.ALLOW_LOCAL_REQUESTS;
  await server?.stop();
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (root) await rm(root, { recursive: true, force: true });
});

async function call<T = unknown>(
  method: string,
  path: string,
  options: { json?: unknown; token?: string } = {},
) {
  const response = await fetch(`${runtime.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': options.token ?? runtime.rootToken, 'Content-Type': 'application/json' },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, text };
}

let counter = 0;
const name = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`;

async function newUser(): Promise<{ id: number; token: string }> {
  const username = name('user');
  const user = await call<{ id: number }>('POST', '/users', {
    json: { username, email: `${username}@example.com`, name: username, password: 'password123' },
  });
  expect(user.status).toBe(201);
  const token = await call<{ token: string }>('POST', `/users/${user.body.id}/personal_access_tokens`, {
    json: { name: 'test', scopes: ['api'] },
  });
  expect(token.status).toBe(201);
  return { id: user.body.id, token: token.body.token };
}

/** A fresh remote of the test's own under the server root. */
async function newRemote(commits: number) {
  const repository = `${name('remote')}.git`;
  const dir = join(root, repository);
  const made = await makeRepository(dir, { commits, branch: 'develop' });
  return { dir, url: server.url(repository), ...made };
}

/** The project with its statistics once the runtime is idle (the import worker and its retries have run). */
async function settled(id: number): Promise<ProjectBody> {
  await runtime.idle();
  const got = await call<ProjectBody>('GET', `/projects/${id}?statistics=true`);
  expect(got.status).toBe(200);
  return got.body;
}

async function clonedHead(projectId: number): Promise<string> {
  const gitdir = await mkdtemp(join(root, 'stored-'));
  const clone = await mkdtemp(join(root, 'clone-'));
  expect(await materializeRepository(projectId, gitdir)).toBeDefined();
  await git(['clone', '--quiet', '--no-local', gitdir, clone]);
  return revParse(join(clone, '.git'));
}

const marker = (projectId: number) => getItem(keys.pullMirror(projectId));

const scheduledEvent = (): ScheduledEvent => ({
  version: '0',
  id: 'test',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: [],
  detail: {},
});

async function newMirror(remoteUrl: string, extra: Record<string, unknown> = {}) {
  const created = await call<ProjectBody>('POST', '/projects', {
    json: { name: name('mirror'), import_url: remoteUrl, mirror: true, ...extra },
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('pull mirrors', () => {
  it('creates a mirror, imports it, and a mirror pull brings two new commits', async () => {
    const remote = await newRemote(20);
    const url = remote.url.replace('http://', 'http://mirror:mirr0r-secret@');
    const created = await newMirror(url, { mirror_trigger_builds: true });
    expect(created.import_status).toBe('scheduled');
    expect(created.mirror).toBe(true);
    expect(created.mirror_user_id).toBe(1);
    expect(created.mirror_trigger_builds).toBe(true);
    expect(created.only_mirror_protected_branches).toBe(false);
    expect(created.mirror_overwrites_diverged_branches).toBe(false);
    expect(created.import_url).toBe(remote.url);

    const imported = await settled(created.id);
    expect(imported.import_status).toBe('finished');
    // The job records it in a write of its own beside the one that says `finished`.
    expect(imported.default_branch).toBe('develop');
    expect(imported.statistics?.commit_count).toBe(20);
    expect(await marker(created.id)).toMatchObject({
      kind: 'pull_mirror',
      project_id: created.id,
      l1: 'MIRRORS',
    });

    const details = await call<MirrorDetails>('GET', `/projects/${created.id}/mirror/pull`);
    expect(details.status).toBe(200);
    expect(details.body).toEqual({
      id: created.id,
      last_error: null,
      last_successful_update_at: expect.any(String),
      last_update_at: details.body.last_successful_update_at,
      last_update_started_at: expect.any(String),
      update_status: 'finished',
      url: remote.url,
    });
    expect(details.text).not.toContain('mirr0r-secret');

    const added = await addCommits(remote.dir, 2, 'develop');
    const pulled = await call('POST', `/projects/${created.id}/mirror/pull`);
    expect(pulled.status).toBe(200);
    expect(pulled.text).toBe('200');
    const updated = await settled(created.id);
    expect(updated.import_status).toBe('finished');
    expect(updated.statistics?.commit_count).toBe(22);
    expect(added.count).toBe(22);
    expect(await clonedHead(created.id)).toBe(added.head);
  });

  it('turns a project into a mirror by PUT, which schedules its update', async () => {
    const remote = await newRemote(5);
    const created = await call<ProjectBody>('POST', '/projects', { json: { name: name('plain') } });
    expect(created.status).toBe(201);
    const blank = await call('PUT', `/projects/${created.body.id}`, { json: { mirror: true } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { import_url: ["can't be blank"] } });

    const turned = await call<ProjectBody>('PUT', `/projects/${created.body.id}`, {
      json: { mirror: true, import_url: remote.url, only_mirror_protected_branches: true },
    });
    expect(turned.status).toBe(200);
    expect(turned.body.mirror).toBe(true);
    expect(turned.body.import_status).toBe('scheduled');
    expect(turned.body.only_mirror_protected_branches).toBe(true);
    const imported = await settled(created.body.id);
    expect(imported.import_status).toBe('finished');
    expect(imported.statistics?.commit_count).toBe(5);
    expect(await marker(created.body.id)).toBeDefined();

    // A setting that changes neither `mirror` nor the remote schedules nothing.
    const renamed = await call<ProjectBody>('PUT', `/projects/${created.body.id}`, {
      json: { description: 'still a mirror' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.import_status).toBe('finished');

    // No longer a mirror: a mirror pull is refused and the schedule drops its marker.
    const off = await call<ProjectBody>('PUT', `/projects/${created.body.id}`, { json: { mirror: false } });
    expect(off.status).toBe(200);
    expect(off.body.mirror).toBe(false);
    const refused = await call('POST', `/projects/${created.body.id}/mirror/pull`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'The project is not mirrored' });
    await mirrorSchedule(scheduledEvent(), lambdaContext());
    expect(await marker(created.body.id)).toBeUndefined();
  });

  it('the schedule updates a mirror that fell behind', async () => {
    const remote = await newRemote(3);
    const created = await newMirror(remote.url);
    expect((await settled(created.id)).statistics?.commit_count).toBe(3);
    const added = await addCommits(remote.dir, 4, 'develop');

    const run = await mirrorSchedule(scheduledEvent(), lambdaContext());
    expect(run.scheduled).toBeGreaterThanOrEqual(1);
    const updated = await settled(created.id);
    expect(updated.import_status).toBe('finished');
    expect(updated.statistics?.commit_count).toBe(7);
    expect(await clonedHead(created.id)).toBe(added.head);

    // The runtime's own timer path runs the same handler.
    await addCommits(remote.dir, 1, 'develop');
    await runtime.runSchedule('mirror-update');
    expect((await settled(created.id)).statistics?.commit_count).toBe(8);
  });

  it('a mirror whose remote went away ends `failed` with a clear error, never stuck `started`', async () => {
    const remote = await newRemote(2);
    const created = await newMirror(remote.url);
    expect((await settled(created.id)).import_status).toBe('finished');
    rmSync(remote.dir, { recursive: true, force: true });
    const pulled = await call('POST', `/projects/${created.id}/mirror/pull`);
    expect(pulled.status).toBe(200);
    const failed = await settled(created.id);
    expect(failed.import_status).toBe('failed');
    expect(failed.import_error).toMatch(/^Fetching http:\/\/127\.0\.0\.1:\d+\/remote-[^ ]+\.git failed: /);
    // What was imported before stays.
    expect(failed.statistics?.commit_count).toBe(2);
    const details = await call<MirrorDetails>('GET', `/projects/${created.id}/mirror/pull`);
    expect(details.status).toBe(200);
    expect(details.body.update_status).toBe('failed');
    expect(details.body.last_error).toBe(failed.import_error);
    expect(details.body.last_update_at).not.toBe(details.body.last_successful_update_at);
  });

  it('refuses: not mirrored 400, developers 403, strangers to a private project 404', async () => {
    const remote = await newRemote(1);
    const owner = await newUser();
    const developer = await newUser();
    const stranger = await newUser();
    const mirror = await call<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: name('guarded'), import_url: remote.url, mirror: true },
    });
    expect(mirror.status).toBe(201);
    expect(mirror.body.mirror_user_id).toBe(owner.id);
    const added = await call('POST', `/projects/${mirror.body.id}/members`, {
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(added.status).toBe(201);
    for (const method of ['POST', 'GET']) {
      const forbidden = await call(method, `/projects/${mirror.body.id}/mirror/pull`, {
        token: developer.token,
      });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ message: '403 Forbidden' });
      const hidden = await call(method, `/projects/${mirror.body.id}/mirror/pull`, { token: stranger.token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    }
    const plain = await call<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: name('plain') },
    });
    for (const method of ['POST', 'GET']) {
      const refused = await call(method, `/projects/${plain.body.id}/mirror/pull`, { token: owner.token });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: 'The project is not mirrored' });
    }
    await settled(mirror.body.id);
  });

  it('only admins name another user as the mirror user', async () => {
    const remote = await newRemote(1);
    const user = await newUser();
    const other = await newUser();
    const refused = await call('POST', '/projects', {
      token: user.token,
      json: { name: name('other-user'), import_url: remote.url, mirror: true, mirror_user_id: other.id },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    const byAdmin = await newMirror(remote.url, { mirror_user_id: other.id });
    expect(byAdmin.mirror_user_id).toBe(other.id);
    await settled(byAdmin.id);
  });

  it('refuses loopback import_urls while local requests are not allowed, and creates nothing', async () => {
    const remote = await newRemote(1);
    process.env.ALLOW_LOCAL_REQUESTS = 'false';
    try {
      const projectName = name('blocked');
      const refused = await call('POST', '/projects', {
        json: { name: projectName, import_url: remote.url },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        message: { import_url: ['is blocked: Requests to localhost (127.0.0.1) are not allowed'] },
      });
      const found = await call('GET', `/projects/${encodeURIComponent(`root/${projectName}`)}`);
      expect(found.status).toBe(404);
    } finally {
      process.env.ALLOW_LOCAL_REQUESTS = 'true';
    }
  });
});
