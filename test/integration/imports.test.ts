/**
 * Import over HTTP against the shared runtime: a real repository served by `git http-backend` is
 * imported through POST /projects (and POST /projects/user/:id), import_status moves to finished,
 * commit_count is git's, the stored repository (rebuilt from the bucket here) clones to the same
 * HEAD, default_branch follows the remote's HEAD, credentials are sent but never shown, a remote
 * that is not there ends `failed`, and refused import_urls create nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { materializeRepository } from '../../shared/repository/storage.ts';
import { api, createUser, idle, unique } from '../support/api.ts';
import {
  commitCount,
  type GitServer,
  git,
  makeRepository,
  revParse,
  startGitServer,
} from '../support/git-server.ts';

interface ProjectBody {
  id: number;
  path_with_namespace: string;
  default_branch: string | null;
  import_status: string;
  import_error: string | null;
  import_url?: string | null;
  import_type: string | null;
  mirror: boolean;
  statistics?: { commit_count: number; repository_size: number; storage_size: number };
}

const savedEnv = { S3_ENDPOINT: process.env.S3_ENDPOINT, BUCKET_NAME: process.env.BUCKET_NAME };
let root: string;
let server: GitServer;
let source: { head: string; count: number };

beforeAll(async () => {
  // The test reads the runtime's bucket itself to rebuild what was stored.
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.BUCKET_NAME = inject('bucketName');
  root = await mkdtemp(join(tmpdir(), 'imports-'));
  // HEAD on `trunk`: the imported project's default_branch must follow it (not `master`).
  source = await makeRepository(join(root, 'source.git'), { commits: 200, branch: 'trunk', tag: 'v1.0' });
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

const withCredentials = (url: string, user: string, password: string) =>
  url.replace('http://', `http://${user}:${password}@`);

/** The project with its statistics once the runtime is idle (the import worker and its retries have run). */
async function settled(id: number, token?: string): Promise<ProjectBody> {
  await idle();
  const got = await api<ProjectBody>('GET', `/projects/${id}?statistics=true`, { token });
  expect(got.status).toBe(200);
  return got.body;
}

/** The project's stored repository rebuilt from the bucket, cloned by git: its HEAD. */
async function clonedHead(projectId: number): Promise<string> {
  const gitdir = await mkdtemp(join(root, 'stored-'));
  const clone = await mkdtemp(join(root, 'clone-'));
  const stored = await materializeRepository(projectId, gitdir);
  expect(stored).toBeDefined();
  await git(['clone', '--quiet', '--no-local', gitdir, clone]);
  return revParse(join(clone, '.git'));
}

describe('POST /projects with import_url', () => {
  it('imports the remote: commit_count is git’s, a clone of what was stored has the same HEAD', async () => {
    const user = await createUser();
    const url = withCredentials(server.url('source.git'), 'importer', 'pa55-w0rd-secret');
    const before = server.requests.length;
    const started = Date.now();
    const created = await api<ProjectBody>('POST', '/projects', {
      token: user.token,
      json: { name: unique('imported'), import_url: url },
    });
    expect(created.status).toBe(201);
    expect(created.body.import_status).toBe('scheduled');
    expect(created.body.import_type).toBe('git');
    // The owner sees the url, never its credentials.
    expect(created.body.import_url).toBe(server.url('source.git'));
    expect(created.text).not.toContain('pa55-w0rd-secret');

    const done = await settled(created.body.id, user.token);
    const elapsed = Date.now() - started;
    console.log(`import of a ${source.count}-commit repository: ${elapsed} ms (POST to finished)`);
    expect(done.import_status).toBe('finished');
    expect(done.import_error).toBeNull();
    // The job records it in a write of its own beside the one that says `finished`.
    expect(done.default_branch).toBe('trunk');
    expect(done.statistics?.commit_count).toBe(await commitCount(join(root, 'source.git')));
    expect(done.statistics?.commit_count).toBe(200);
    expect(done.statistics?.repository_size).toBeGreaterThan(0);
    expect(done.statistics?.storage_size).toBe(done.statistics?.repository_size);
    expect(done.import_url).toBe(server.url('source.git'));

    expect(await clonedHead(created.body.id)).toBe(source.head);
    // The credentials travelled as Basic authorization on every request of the fetch.
    const sent = server.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    const basic = `Basic ${Buffer.from('importer:pa55-w0rd-secret').toString('base64')}`;
    for (const request of sent) {
      expect(request.headers.authorization).toBe(basic);
      expect(request.path).not.toContain('pa55');
    }
  });

  it('hides import_url and import_error from those who are not project admins', async () => {
    const owner = await createUser();
    const developer = await createUser();
    const created = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: {
        name: unique('hidden-url'),
        visibility: 'internal',
        import_url: withCredentials(server.url('source.git'), 'u', 'hidden-secret'),
      },
    });
    expect(created.status).toBe(201);
    const added = await api('POST', `/projects/${created.body.id}/members`, {
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(added.status).toBe(201);
    await settled(created.body.id, owner.token);
    const seen = await api<ProjectBody>('GET', `/projects/${created.body.id}`, { token: developer.token });
    expect(seen.status).toBe(200);
    expect(seen.body.import_status).toBe('finished');
    expect(seen.body.import_error).toBeNull();
    expect('import_url' in seen.body).toBe(false);
    expect(seen.text).not.toContain('hidden-secret');
  });

  it('imports into a user’s namespace through POST /projects/user/:user_id', async () => {
    const user = await createUser();
    const created = await api<ProjectBody>('POST', `/projects/user/${user.id}`, {
      json: { name: unique('for-user'), import_url: server.url('source.git') },
    });
    expect(created.status).toBe(201);
    expect(created.body.import_status).toBe('scheduled');
    expect(created.body.path_with_namespace.startsWith(`${user.username}/`)).toBe(true);
    const done = await settled(created.body.id);
    expect(done.import_status).toBe('finished');
    expect(done.statistics?.commit_count).toBe(source.count);
  });

  it('ends `failed` with a clear import_error when the remote has no such repository', async () => {
    const created = await api<ProjectBody>('POST', '/projects', {
      json: {
        name: unique('missing'),
        import_url: withCredentials(server.url('nothing-here.git'), 'a', 'gone-secret'),
      },
    });
    expect(created.status).toBe(201);
    const done = await settled(created.body.id);
    expect(done.import_status).toBe('failed');
    expect(done.import_error).toMatch(/^Fetching http:\/\/127\.0\.0\.1:\d+\/nothing-here\.git failed: /);
    expect(done.import_error).not.toContain('gone-secret');
    expect(done.statistics?.commit_count).toBe(0);
  });

  it('ends `failed` when the remote went away (its server stopped)', async () => {
    const gone = await startGitServer(root);
    const url = gone.url('source.git');
    await gone.stop();
    const created = await api<ProjectBody>('POST', '/projects', {
      json: { name: unique('server-gone'), import_url: url },
    });
    expect(created.status).toBe(201);
    const done = await settled(created.body.id);
    expect(done.import_status).toBe('failed');
    expect(done.import_error).toMatch(
      /^Fetching http:\/\/127\.0\.0\.1:\d+\/source\.git failed: .*ECONNREFUSED/,
    );
  });

  it('refuses an import_url the address guard blocks, and creates nothing', async () => {
    const cases: [string, string][] = [
      ['ftp://example.com/repo.git', 'is blocked: Only http and https URLs are allowed'],
      ['http://', 'is blocked: URL is invalid'],
      [
        'http://169.254.169.254/latest.git',
        'is blocked: Requests to the cloud metadata address 169.254.169.254 are not allowed',
      ],
    ];
    for (const [importUrl, message] of cases) {
      const name = unique('blocked');
      const refused = await api('POST', '/projects', { json: { name, import_url: importUrl } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { import_url: [message] } });
      const found = await api('GET', `/projects/${encodeURIComponent(`root/${name}`)}`);
      expect(found.status).toBe(404);
    }
  });

  it('refuses `mirror: true` without an import_url', async () => {
    const name = unique('mirror-no-url');
    const refused = await api('POST', '/projects', { json: { name, mirror: true } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { import_url: ["can't be blank"] } });
    const found = await api('GET', `/projects/${encodeURIComponent(`root/${name}`)}`);
    expect(found.status).toBe(404);
  });

  it('creates a project without import_url as before: import_status none, nothing sent', async () => {
    const created = await api<ProjectBody>('POST', '/projects', { json: { name: unique('plain') } });
    expect(created.status).toBe(201);
    expect(created.body.import_status).toBe('none');
    expect(created.body.import_type).toBeNull();
    expect(created.body.mirror).toBe(false);
    expect(created.body.import_url).toBeNull();
  });
});
