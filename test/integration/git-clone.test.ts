/**
 * `git clone <http_url_to_repo>` against the shared runtime, over git's dumb HTTP protocol: a
 * fixture (two branches, an annotated tag) imported into a public and into a private project is
 * cloned with the git binary (the private one with a token in the URL, refused without), checked
 * with `git fsck --strict`, and its history compared with the API's commits list; a mirror update
 * leaves a state of two packs, which a clone fetches both of. Odd paths are 4xx, never 5xx.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import {
  addCommits,
  type GitServer,
  makeRepository,
  revParse,
  startGitServer,
} from '../support/git-server.ts';

interface ProjectBody {
  id: number;
  path_with_namespace: string;
  http_url_to_repo: string;
  default_branch: string | null;
}

let root: string;
let server: GitServer;
let owner: TestUser;
let outsider: TestUser;
let publicProject: ProjectBody;
let privateProject: ProjectBody;
let source: string;

/** git without prompts or the developer's configuration; the exit code, never a throw. */
function runGit(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: '',
          SSH_ASKPASS: '',
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function mustGit(args: string[], cwd = root): Promise<string> {
  const result = await runGit(args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.code} ${result.stderr}`);
  return result.stdout;
}

async function imported(
  visibility: 'public' | 'private',
  importUrl: string,
  extra = {},
): Promise<ProjectBody> {
  const created = await must(
    api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('clone'), visibility, import_url: importUrl, ...extra },
    }),
    201,
    'project create',
  );
  await idle();
  return must(api<ProjectBody>('GET', `/projects/${created.id}`, { token: owner.token }), 200, 'project');
}

/** Every commit id of the default branch through the API, all pages. */
async function apiHistory(projectId: number, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page < 100; page++) {
    const response = await api<{ id: string }[]>(
      'GET',
      `/projects/${projectId}/repository/commits?per_page=20&page=${page}`,
      { token },
    );
    expect(response.status).toBe(200);
    ids.push(...response.body.map((commit) => commit.id));
    if (response.body.length < 20) return ids;
  }
  throw new Error('history longer than expected');
}

/** Clones `url` into a new directory and checks it: fsck strict, history equal to the API's. */
async function cloneAndCheck(url: string, project: ProjectBody, token: string): Promise<string> {
  const into = join(root, unique('clone'));
  await mustGit(['clone', '--quiet', url, into]);
  await mustGit(['fsck', '--strict', '--no-dangling'], into);
  const history = (await mustGit(['log', '--format=%H'], into)).trim().split('\n');
  expect(history).toEqual(await apiHistory(project.id, token));
  return into;
}

/** A GET of `path` exactly as written (fetch would resolve `..` and re-encode before sending). */
function rawGet(path: string, method = 'GET'): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

const withToken = (url: string, token: string, user = 'oauth2') =>
  url.replace('http://', `http://${user}:${token}@`);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'git-clone-'));
  source = join(root, 'source.git');
  await makeRepository(source, { commits: 45, tag: 'v1.0' });
  await addCommits(source, 3, 'develop');
  server = await startGitServer(root);
  owner = await createUser();
  outsider = await createUser();
  [publicProject, privateProject] = await Promise.all([
    imported('public', server.url('source.git')),
    imported('private', server.url('source.git')),
  ]);
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('git clone over dumb HTTP', () => {
  it('names the clone URL the API answers with', () => {
    expect(publicProject.http_url_to_repo).toBe(`${baseUrl()}/${publicProject.path_with_namespace}.git`);
    expect(publicProject.default_branch).toBe('main');
  });

  it('clones a public project anonymously: both branches and the annotated tag, fsck clean', async () => {
    const into = await cloneAndCheck(publicProject.http_url_to_repo, publicProject, owner.token);
    const refs = await mustGit(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)'], into);
    const main = await revParse(source, 'main');
    const develop = await revParse(source, 'develop');
    const tag = await revParse(source, 'refs/tags/v1.0');
    expect(refs.trim().split('\n').sort()).toEqual(
      [
        `${main} commit refs/heads/main`,
        `${main} commit refs/remotes/origin/HEAD`,
        `${main} commit refs/remotes/origin/main`,
        `${develop} commit refs/remotes/origin/develop`,
        `${tag} tag refs/tags/v1.0`,
      ].sort(),
    );
    expect((await mustGit(['rev-parse', 'v1.0^{commit}'], into)).trim()).toBe(main);
  });

  it('serves info/refs with peeled tags, in text/plain even to a smart request, and HEAD', async () => {
    const url = publicProject.http_url_to_repo;
    const main = await revParse(source, 'main');
    const develop = await revParse(source, 'develop');
    const tag = await revParse(source, 'refs/tags/v1.0');
    const expected =
      `${develop}\trefs/heads/develop\n${main}\trefs/heads/main\n` +
      `${tag}\trefs/tags/v1.0\n${main}\trefs/tags/v1.0^{}\n`;
    for (const query of ['', '?service=git-upload-pack']) {
      const response = await fetch(`${url}/info/refs${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe(expected);
    }
    const head = await fetch(`${url}/HEAD`);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('ref: refs/heads/main\n');
    const packs = await fetch(`${url}/objects/info/packs`);
    expect(packs.status).toBe(200);
    expect(await packs.text()).toMatch(/^P pack-[0-9a-f]{40}\.pack\n\n$/);
    const probe = await fetch(`${url}/info/refs`, { method: 'HEAD' });
    expect(probe.status).toBe(200);
    expect(await probe.text()).toBe('');
  });

  it('clones a private project with a token as the password, under any user name', async () => {
    await cloneAndCheck(withToken(privateProject.http_url_to_repo, owner.token), privateProject, owner.token);
    await cloneAndCheck(
      withToken(privateProject.http_url_to_repo, owner.token, owner.username),
      privateProject,
      owner.token,
    );
  });

  it('refuses a private project without a token (401 and a Basic challenge), to an outsider 404', async () => {
    const url = privateProject.http_url_to_repo;
    const refused = await runGit(['clone', '--quiet', url, join(root, unique('refused'))]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/could not read Username|Authentication failed/);

    const anonymous = await fetch(`${url}/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');
    expect(await anonymous.json()).toEqual({ message: '401 Unauthorized' });
    // A project that does not exist is asked about the same way: nothing tells the two apart.
    const missing = await fetch(`${baseUrl()}/${unique('nobody')}/${unique('nothing')}.git/info/refs`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');

    const basic = (token: string) => ({
      Authorization: `Basic ${Buffer.from(`oauth2:${token}`).toString('base64')}`,
    });
    const outside = await fetch(`${url}/info/refs`, { headers: basic(outsider.token) });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ message: '404 Project Not Found' });
    const wrong = await fetch(`${url}/info/refs`, { headers: basic('not-a-token') });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: '401 Unauthorized' });
    const cloned = await runGit([
      'clone',
      '--quiet',
      withToken(url, outsider.token),
      join(root, unique('outsider')),
    ]);
    expect(cloned.code).not.toBe(0);
    expect(cloned.stderr).toMatch(/not found/);
  });

  it("lets in a member's token with the read_repository scope, not one with read_api only", async () => {
    const reader = await createUser({ scopes: ['read_repository'] });
    await must(
      api('POST', `/projects/${privateProject.id}/members`, {
        token: owner.token,
        json: { user_id: reader.id, access_level: 20 },
      }),
      201,
      'member add',
    );
    await cloneAndCheck(
      withToken(privateProject.http_url_to_repo, reader.token),
      privateProject,
      owner.token,
    );
    const readApi = await must(
      api<{ token: string }>('POST', `/users/${reader.id}/personal_access_tokens`, {
        json: { name: 'api reads', scopes: ['read_api'] },
      }),
      201,
      'token create',
    );
    const refused = await fetch(`${privateProject.http_url_to_repo}/info/refs`, {
      headers: { Authorization: `Basic ${Buffer.from(`oauth2:${readApi.token}`).toString('base64')}` },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'read_repository',
    });
  });

  it('redirects a pack too large for a Lambda response to the bucket; git follows with http.followRedirects', async () => {
    const work = join(root, 'large');
    await mkdir(work);
    await mustGit(['init', '--quiet', '--initial-branch=main', work]);
    await writeFile(join(work, 'noise.bin'), randomBytes(5 * 1024 * 1024));
    await mustGit(['add', 'noise.bin'], work);
    await mustGit(
      ['-c', 'user.name=Large', '-c', 'user.email=large@example.com', 'commit', '--quiet', '-m', 'noise'],
      work,
    );
    await mustGit(['clone', '--quiet', '--bare', work, join(root, 'large.git')]);
    const project = await imported('private', server.url('large.git'));
    const headers = { Authorization: `Basic ${Buffer.from(`oauth2:${owner.token}`).toString('base64')}` };
    const packs = await fetch(`${project.http_url_to_repo}/objects/info/packs`, { headers });
    const [line] = (await packs.text()).split('\n');
    const pack = /^P (pack-[0-9a-f]{40})\.pack$/.exec(line ?? '')?.[1];
    const answer = await fetch(`${project.http_url_to_repo}/objects/pack/${pack}.pack`, {
      headers,
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location') ?? '';
    expect(location).toContain(`repositories/${project.id}/objects/pack/${pack}.pack`);
    const stored = await fetch(location);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe('application/x-git-packed-objects');
    expect((await stored.arrayBuffer()).byteLength).toBeGreaterThan(5 * 1024 * 1024);
    expect(answer.headers.get('cache-control')).toBe('no-store');

    // git follows a redirect of its first request only, unless told to follow every one; the
    // credential stays with the API's host (curl sends it to no other).
    const url = withToken(project.http_url_to_repo, owner.token);
    const plain = await runGit(['clone', '--quiet', url, join(root, unique('large'))]);
    expect(plain.code).not.toBe(0);
    const into = join(root, unique('large'));
    await mustGit(['-c', 'http.followRedirects=true', 'clone', '--quiet', url, into]);
    await mustGit(['fsck', '--strict', '--no-dangling'], into);
    expect((await mustGit(['rev-parse', 'HEAD'], into)).trim()).toBe(
      (await mustGit(['rev-parse', 'HEAD'], work)).trim(),
    );
  });

  it('clones a state of two packs (import, then a mirror update)', async () => {
    const remote = join(root, 'mirrored.git');
    await makeRepository(remote, { commits: 12 });
    const mirror = await imported('public', server.url('mirrored.git'), { mirror: true });
    await addCommits(remote, 4);
    await must(api('POST', `/projects/${mirror.id}/mirror/pull`, { token: owner.token }), 200, 'mirror pull');
    await idle();
    const packs = await fetch(`${mirror.http_url_to_repo}/objects/info/packs`);
    expect(packs.status).toBe(200);
    expect((await packs.text()).match(/^P pack-[0-9a-f]{40}\.pack$/gm)).toHaveLength(2);
    const into = await cloneAndCheck(mirror.http_url_to_repo, mirror, owner.token);
    expect((await mustGit(['rev-parse', 'HEAD'], into)).trim()).toBe(await revParse(remote, 'main'));
    expect((await mustGit(['rev-list', '--count', 'HEAD'], into)).trim()).toBe('16');
  });

  it('clones a project without a repository as an empty one', async () => {
    const empty = await must(
      api<ProjectBody>('POST', '/projects', {
        token: owner.token,
        json: { name: unique('empty'), visibility: 'public' },
      }),
      201,
      'project create',
    );
    const refs = await fetch(`${empty.http_url_to_repo}/info/refs`);
    expect(refs.status).toBe(200);
    expect(await refs.text()).toBe('');
    const head = await fetch(`${empty.http_url_to_repo}/HEAD`);
    expect(head.status).toBe(404);
    const into = join(root, unique('empty'));
    const cloned = await runGit(['clone', empty.http_url_to_repo, into]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).toContain('You appear to have cloned an empty repository');
  });

  it('offers no push over HTTP: git push fails and the branch stays', async () => {
    const into = await cloneAndCheck(
      withToken(privateProject.http_url_to_repo, owner.token),
      privateProject,
      owner.token,
    );
    await mustGit(
      [
        '-c',
        'user.name=Pusher',
        '-c',
        'user.email=pusher@example.com',
        'commit',
        '--quiet',
        '--allow-empty',
        '-m',
        'pushed',
      ],
      into,
    );
    const pushed = await runGit(['push', 'origin', 'main'], into);
    expect(pushed.code).not.toBe(0);
    const branch = await must(
      api<{ commit: { id: string } }>('GET', `/projects/${privateProject.id}/repository/branches/main`, {
        token: owner.token,
      }),
      200,
      'branch',
    );
    expect(branch.commit.id).toBe(await revParse(source, 'main'));
  });

  it('serves the packs the state names, typed by the server, and nothing else', async () => {
    const url = publicProject.http_url_to_repo;
    const [line] = (await (await fetch(`${url}/objects/info/packs`)).text()).split('\n');
    const pack = /^P (pack-[0-9a-f]{40})\.pack$/.exec(line ?? '')?.[1];
    expect(pack).toBeDefined();
    const packFile = await fetch(`${url}/objects/pack/${pack}.pack`);
    expect(packFile.status).toBe(200);
    expect(packFile.headers.get('content-type')).toBe('application/x-git-packed-objects');
    expect(
      Buffer.from(await packFile.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('PACK');
    const index = await fetch(`${url}/objects/pack/${pack}.idx`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/x-git-packed-objects-toc');
    // The private project's pack is the same one (same fixture), named by another project's state.
    const otherPack = await fetch(`${url}/objects/pack/pack-${'0'.repeat(40)}.pack`);
    expect(otherPack.status).toBe(404);
    expect(await otherPack.json()).toEqual({ message: '404 Not Found' });
  });

  it('answers odd paths with 404 (or 414), never 5xx, and leaves unknown API routes to the catch-all', async () => {
    const project = publicProject.path_with_namespace;
    const paths = [
      `/${project}.git/objects/ab/${'c'.repeat(38)}`,
      `/${project}.git/objects/info/alternates`,
      `/${project}.git/objects/info/http-alternates`,
      `/${project}.git/config`,
      `/${project}.git/`,
      `/${project}.git`,
      `/${project}.git/info/../HEAD`,
      `/${project}.git/objects/pack/../../HEAD`,
      `/${project.replace('/', '%2F')}.git/info/refs`,
      `/${project}%2Egit/info/refs`,
      `/..%2F${project}.git/info/refs`,
      `/.git/info/refs`,
      `/${'a'.repeat(300)}/${'b'.repeat(300)}.git/info/refs`,
      `/${'x/'.repeat(40)}y.git/info/refs`,
      '/api/v4/nope',
      '/nope',
    ];
    for (const path of paths) {
      const response = await rawGet(path);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.text), path).toEqual({ error: '404 Not Found' });
    }
    const huge = await rawGet(`/${project}.git/${'x'.repeat(9000)}`);
    expect(huge.status).toBe(414);
    const post = await rawGet(`/${project}.git/info/refs`, 'POST');
    expect(post.status).toBe(404);
    expect(JSON.parse(post.text)).toEqual({ error: '404 Not Found' });
  });
});
