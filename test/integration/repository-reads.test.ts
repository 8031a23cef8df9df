/**
 * Reading a project's repository through the API against the shared runtime: a fixture built with
 * the git CLI (commits with fixed dates and a +02:00 offset, a branch with a slash, a branch merged
 * into the default one, a lightweight and an annotated tag, nested directories, an executable and a
 * binary file) is imported from `git http-backend`, then every read route is compared with what git
 * itself says of the fixture: branches, tags, tree, files (JSON, raw, HEAD), blobs, commits (list,
 * one, stats). Anonymous readers read a public project and get 404 for a private one; a private
 * project's guest gets 403; bad paths, refs and shas are 400/404, never 5xx.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';

let root: string;
let work: string;
let server: GitServer;
let owner: TestUser;
let publicProject: { id: number; path_with_namespace: string; web_url: string };
let privateProject: { id: number; path_with_namespace: string };

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x7f, 0x10]);

/** git in the fixture's work tree, with a fixed identity and time (`when`, +02:00). */
function gitAt(args: string[], when = '2026-01-01T10:00:00+02:00'): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd: work,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_AUTHOR_NAME: 'Ada Author',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_NAME: 'Carl Committer',
          GIT_COMMITTER_EMAIL: 'carl@example.com',
          GIT_AUTHOR_DATE: when,
          GIT_COMMITTER_DATE: when,
        },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

const rev = async (ref: string) => (await gitAt(['rev-parse', ref])).trim();

async function put(path: string, content: string | Buffer) {
  await mkdir(join(work, path, '..'), { recursive: true });
  await writeFile(join(work, path), content);
}

async function commitAll(message: string, when: string) {
  await gitAt(['add', '-A']);
  await gitAt(['commit', '-q', '-m', message], when);
}

interface Fixture {
  c1: string;
  c2: string;
  c3: string;
  c4: string;
  annotated: string;
}
let fx: Fixture;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'repository-reads-'));
  work = join(root, 'work');
  await mkdir(work);
  await gitAt(['init', '-q', '-b', 'main']);
  await put('README.md', '# Fixture\n');
  await put('src/app.js', 'console.log("one");\n');
  await commitAll('First commit', '2026-01-01T10:00:00+02:00');
  await gitAt(['branch', 'merged-topic']);
  await put('src/lib/util.js', 'export const two = 2;\nexport const three = 3;\n');
  await put('image.bin', BINARY);
  await put('script.sh', '#!/bin/sh\necho hi\n');
  await chmod(join(work, 'script.sh'), 0o755);
  await commitAll('Second commit\n\nWith a body.', '2026-01-02T10:00:00+02:00');
  await gitAt(['tag', 'v1.0']);
  await gitAt(['checkout', '-q', '-b', 'feature/x']);
  await put('src/app.js', 'console.log("one");\nconsole.log("feature");\n');
  await commitAll('Feature work', '2026-01-03T10:00:00+02:00');
  await gitAt(['checkout', '-q', 'main']);
  await put('docs/guide.md', 'Guide\n');
  await put('README.md', '# Fixture\n\nMore.\n');
  await commitAll('Fourth commit', '2026-01-04T10:00:00+02:00');
  await gitAt(['tag', '-a', 'v2.0', '-m', 'Release 2.0'], '2026-01-05T10:00:00+02:00');
  fx = {
    c1: await rev('merged-topic'),
    c2: await rev('v1.0'),
    c3: await rev('feature/x'),
    c4: await rev('main'),
    annotated: await rev('v2.0'),
  };
  await gitAt(['clone', '-q', '--bare', work, join(root, 'source.git')]);
  server = await startGitServer(root);

  owner = await createUser();
  const importInto = async (visibility: string) => {
    const created = await api<{ id: number; path_with_namespace: string; web_url: string }>(
      'POST',
      '/projects',
      {
        token: owner.token,
        json: { name: unique('reads'), visibility, import_url: server.url('source.git') },
      },
    );
    expect(created.status).toBe(201);
    return created.body;
  };
  publicProject = await importInto('public');
  privateProject = await importInto('private');
  await idle();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const base = () => `/projects/${publicProject.id}/repository`;
const webUrl = () => publicProject.web_url;

/** The Commit entity git's own record of the commit says it must be. */
async function commitFromGit(sha: string) {
  const format = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI'].join('%x00');
  const [id, parents, an, ae, ad, cn, ce, cd] = (await gitAt(['show', '-s', `--format=${format}`, sha]))
    .trim()
    .split('\0') as string[];
  const raw = await gitAt(['cat-file', 'commit', sha]);
  const message = raw.slice(raw.indexOf('\n\n') + 2);
  const time = (iso: string | undefined) => String(iso).replace(/(\d\d:\d\d:\d\d)/, '$1.000');
  return {
    id,
    short_id: String(id).slice(0, 8),
    created_at: time(cd),
    parent_ids: parents === '' ? [] : String(parents).split(' '),
    title: message.split('\n')[0],
    message,
    author_name: an,
    author_email: ae,
    authored_date: time(ad),
    committer_name: cn,
    committer_email: ce,
    committed_date: time(cd),
    trailers: {},
    extended_trailers: {},
    web_url: `${webUrl()}/-/commit/${id}`,
  };
}

describe('branches', () => {
  it('lists every branch by name with its commit, default and merged as git says', async () => {
    const listed = await api<unknown[]>('GET', `${base()}/branches`, { token: null });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total')).toBe('3');
    const branch = async (name: string, sha: string, merged: boolean, isDefault: boolean) => ({
      name,
      commit: await commitFromGit(sha),
      merged,
      protected: false,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      default: isDefault,
      web_url: `${webUrl()}/-/tree/${name}`,
    });
    expect(listed.body).toEqual([
      await branch('feature/x', fx.c3, false, false),
      await branch('main', fx.c4, false, true),
      await branch('merged-topic', fx.c1, true, false),
    ]);
    const searched = await api<{ name: string }[]>('GET', `${base()}/branches?search=^ma`, { token: null });
    expect(searched.status).toBe(200);
    expect(searched.body.map(({ name }) => name)).toEqual(['main']);
  });

  it('reads one branch by its encoded name; the owner can push; unknown and invalid names are 404', async () => {
    const one = await api<{ name: string; can_push: boolean; commit: { id: string } }>(
      'GET',
      `${base()}/branches/feature%2Fx`,
      { token: owner.token },
    );
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('feature/x');
    expect(one.body.can_push).toBe(true);
    expect(one.body.commit).toEqual(await commitFromGit(fx.c3));
    for (const name of ['nope', 'a..b', '%00']) {
      const missing = await api('GET', `${base()}/branches/${name}`, { token: null });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Branch Not Found' });
    }
  });
});

describe('tags', () => {
  it('lists tags newest first with message, target and commit; reads one', async () => {
    const listed = await api<unknown[]>('GET', `${base()}/tags`, { token: null });
    expect(listed.status).toBe(200);
    const v2 = {
      name: 'v2.0',
      message: 'Release 2.0\n',
      target: fx.annotated,
      commit: await commitFromGit(fx.c4),
      release: null,
      protected: false,
      created_at: '2026-01-05T10:00:00.000+02:00',
    };
    const v1 = {
      name: 'v1.0',
      message: '',
      target: fx.c2,
      commit: await commitFromGit(fx.c2),
      release: null,
      protected: false,
      created_at: null,
    };
    expect(listed.body).toEqual([v2, v1]);
    const byName = await api('GET', `${base()}/tags?order_by=name&sort=asc`, { token: null });
    expect(byName.body).toEqual([v1, v2]);
    const one = await api('GET', `${base()}/tags/v2.0`, { token: null });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(v2);
    const missing = await api('GET', `${base()}/tags/v9`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Tag Not Found' });
  });
});

describe('tree', () => {
  it('lists the root (trees first), a path, and recursively, as git ls-tree does', async () => {
    const lsTree = async (args: string[]) =>
      (await gitAt(['ls-tree', ...args]))
        .trim()
        .split('\n')
        .map((line) => {
          const [meta, path] = line.split('\t') as [string, string];
          const [mode, type, id] = meta.split(' ') as [string, 'tree' | 'blob', string];
          return { id, name: path.slice(path.lastIndexOf('/') + 1), type, path, mode };
        });
    const treesFirst = <T extends { type: string }>(entries: T[]) => [
      ...entries.filter((entry) => entry.type === 'tree'),
      ...entries.filter((entry) => entry.type === 'blob'),
    ];
    const rootTree = await api('GET', `${base()}/tree`, { token: null });
    expect(rootTree.status).toBe(200);
    expect(rootTree.body).toEqual(treesFirst(await lsTree(['main'])));
    const src = await api('GET', `${base()}/tree?path=src&ref=feature/x`, { token: null });
    expect(src.body).toEqual(treesFirst(await lsTree(['feature/x', 'src/'])));
    const recursive = await api('GET', `${base()}/tree?recursive=true&per_page=100`, { token: null });
    expect(recursive.body).toEqual(treesFirst(await lsTree(['-r', '-t', 'main'])));
    expect(recursive.headers.get('x-total')).toBe(String((await lsTree(['-r', '-t', 'main'])).length));
    const missing = await api('GET', `${base()}/tree?ref=nope`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Tree Not Found' });
    const climbing = await api('GET', `${base()}/tree?path=src/../..`, { token: null });
    expect(climbing.status).toBe(400);
    expect(climbing.body).toEqual({ error: 'path should be a valid file path' });
  });

  it("a path in no tree of the ref is 404 with git's words; a path naming a file lists nothing", async () => {
    for (const query of ['path=nowhere', 'path=src/nowhere&recursive=true', 'path=docs&ref=feature/x']) {
      const missing = await api('GET', `${base()}/tree?${query}`, { token: null });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 invalid revision or path Not Found' });
    }
    for (const query of ['path=README.md', 'path=src/lib/util.js&recursive=true']) {
      const file = await api('GET', `${base()}/tree?${query}`, { token: null });
      expect(file.status).toBe(200);
      expect(file.body).toEqual([]);
    }
    const unknownRefAndPath = await api('GET', `${base()}/tree?ref=nope&path=nowhere`, { token: null });
    expect(unknownRefAndPath.status).toBe(404);
    expect(unknownRefAndPath.body).toEqual({ message: '404 Tree Not Found' });
  });
});

describe('files', () => {
  it('answers a file with its facts and content, the facts also as headers', async () => {
    const blobId = await rev('main:src/lib/util.js');
    const content = 'export const two = 2;\nexport const three = 3;\n';
    const got = await api('GET', `${base()}/files/src%2Flib%2Futil.js?ref=main`, { token: null });
    expect(got.status).toBe(200);
    const facts = {
      file_name: 'util.js',
      file_path: 'src/lib/util.js',
      size: Buffer.byteLength(content),
      encoding: 'base64',
      content_sha256: (await import('node:crypto')).createHash('sha256').update(content).digest('hex'),
      ref: 'main',
      blob_id: blobId,
      commit_id: fx.c4,
      last_commit_id: fx.c2,
      execute_filemode: false,
    };
    expect(got.body).toEqual({ ...facts, content: Buffer.from(content).toString('base64') });
    expect(got.headers.get('x-gitlab-blob-id')).toBe(blobId);
    expect(got.headers.get('x-gitlab-last-commit-id')).toBe(fx.c2);
    const head = await api('HEAD', `${base()}/files/src%2Flib%2Futil.js?ref=main`, { token: null });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-gitlab-file-path')).toBe('src/lib/util.js');
    const script = await api<{ execute_filemode: boolean }>('GET', `${base()}/files/script.sh?ref=v1.0`, {
      token: null,
    });
    expect(script.body.execute_filemode).toBe(true);
  });

  it('refuses a missing ref, a bad path, an unknown ref or file as GitLab does', async () => {
    const noRef = await api('GET', `${base()}/files/README.md`, { token: null });
    expect(noRef.status).toBe(400);
    expect(noRef.body).toEqual({ error: 'ref is missing' });
    for (const path of ['..%2FREADME.md', '%2FREADME.md', 'a%00b', 'x'.repeat(4097)]) {
      const bad = await api('GET', `${base()}/files/${path}?ref=main`, { token: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'file_path should be a valid file path' });
    }
    const unknownRef = await api('GET', `${base()}/files/README.md?ref=nope`, { token: null });
    expect(unknownRef.status).toBe(404);
    expect(unknownRef.body).toEqual({ message: '404 Commit Not Found' });
    for (const path of ['missing.txt', 'src']) {
      const missing = await api('GET', `${base()}/files/${path}?ref=main`, { token: null });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 File Not Found' });
    }
  });

  it('serves raw text as UTF-8 text and binary as an opaque download, never sniffed', async () => {
    const text = await api('GET', `${base()}/files/README.md/raw`, { token: null });
    expect(text.status).toBe(200);
    expect(text.text).toBe('# Fixture\n\nMore.\n');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('x-content-type-options')).toBe('nosniff');
    const old = await api('GET', `${base()}/files/README.md/raw?ref=${fx.c1}`, { token: null });
    expect(old.text).toBe('# Fixture\n');
    const binary = await fetch(
      `${(await import('../support/api.ts')).apiUrl()}${base()}/files/image.bin/raw?ref=main`,
    );
    expect(binary.status).toBe(200);
    expect(binary.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await binary.arrayBuffer())).toEqual(BINARY);
  });
});

describe('blobs', () => {
  it('answers a blob by id (full or abbreviated) and its raw bytes; a non-blob or non-hex sha is 404', async () => {
    const blobId = await rev('main:image.bin');
    const got = await api('GET', `${base()}/blobs/${blobId}`, { token: null });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      size: BINARY.length,
      encoding: 'base64',
      content: BINARY.toString('base64'),
      sha: blobId,
    });
    const short = await api('GET', `${base()}/blobs/${blobId.slice(0, 10)}`, { token: null });
    expect(short.body).toEqual(got.body);
    const raw = await fetch(`${(await import('../support/api.ts')).apiUrl()}${base()}/blobs/${blobId}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(BINARY);
    for (const sha of [fx.c4, 'not-hex', '0'.repeat(40)]) {
      const missing = await api('GET', `${base()}/blobs/${sha}`, { token: null });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Blob Not Found' });
    }
  });
});

describe('commits', () => {
  it('lists the default branch newest first, as git log does, with pagination headers', async () => {
    const listed = await api('GET', `${base()}/commits`, { token: null });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total')).toBe('3');
    expect(listed.body).toEqual([
      await commitFromGit(fx.c4),
      await commitFromGit(fx.c2),
      await commitFromGit(fx.c1),
    ]);
    const paged = await api<{ id: string }[]>('GET', `${base()}/commits?per_page=1&page=2`, { token: null });
    expect(paged.body.map(({ id }) => id)).toEqual([fx.c2]);
    expect(paged.headers.get('x-next-page')).toBe('3');
  });

  it('narrows by ref_name, path, since and until', async () => {
    const ids = async (query: string) => {
      const got = await api<{ id: string }[]>('GET', `${base()}/commits?${query}`, { token: null });
      expect(got.status).toBe(200);
      return got.body.map(({ id }) => id);
    };
    expect(await ids('ref_name=feature/x')).toEqual([fx.c3, fx.c2, fx.c1]);
    expect(await ids('path=src/app.js&ref_name=feature/x')).toEqual([fx.c3, fx.c1]);
    expect(await ids('path=README.md')).toEqual([fx.c4, fx.c1]);
    expect(await ids('since=2026-01-02T00:00:00Z&until=2026-01-03T00:00:00Z')).toEqual([fx.c2]);
    expect(await ids('ref_name=nope')).toEqual([]);
  });

  it('reads one commit with stats as git numstat counts them; stats=false leaves them out; unknown is 404', async () => {
    const got = await api<Record<string, unknown>>('GET', `${base()}/commits/${fx.c4}`, { token: null });
    expect(got.status).toBe(200);
    const numstat = (await gitAt(['show', '--numstat', '--format=', fx.c4]))
      .trim()
      .split('\n')
      .map((line) => line.split('\t').slice(0, 2).map(Number) as [number, number]);
    const additions = numstat.reduce((sum, [added]) => sum + added, 0);
    const deletions = numstat.reduce((sum, [, removed]) => sum + removed, 0);
    expect(got.body).toEqual({
      ...(await commitFromGit(fx.c4)),
      stats: { additions, deletions, total: additions + deletions },
      status: null,
      project_id: publicProject.id,
      last_pipeline: null,
    });
    const byBranch = await api<{ id: string; stats?: unknown }>(
      'GET',
      `${base()}/commits/feature%2Fx?stats=false`,
      {
        token: null,
      },
    );
    expect(byBranch.body.id).toBe(fx.c3);
    expect(byBranch.body.stats).toBeUndefined();
    const first = await api<{ stats: unknown }>('GET', `${base()}/commits/${fx.c1}`, { token: null });
    expect(first.body.stats).toEqual({ additions: 2, deletions: 0, total: 2 });
    const missing = await api('GET', `${base()}/commits/${'f'.repeat(40)}`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Commit Not Found' });
  });
});

describe('commit diff', () => {
  /** The hunks git prints for each file of the commit (from the first `@@`), by path. */
  async function gitHunks(sha: string): Promise<Record<string, string>> {
    const out = await gitAt(['show', '--format=', '--no-color', '-U3', sha]);
    const byPath: Record<string, string> = {};
    for (const part of out.split(/^diff --git /m).slice(1)) {
      const path = /^\+\+\+ b\/(.+)$/m.exec(part)?.[1] ?? String(/^--- a\/(.+)$/m.exec(part)?.[1]);
      const at = part.indexOf('\n@@');
      byPath[path] = at < 0 ? '' : part.slice(at + 1);
    }
    return byPath;
  }

  it('lists the changed files with git’s hunks, new and deleted files flagged', async () => {
    const got = await api<Record<string, unknown>[]>('GET', `${base()}/commits/${fx.c4}/diff`, {
      token: null,
    });
    expect(got.status).toBe(200);
    const hunks = await gitHunks(fx.c4);
    expect(got.body).toEqual([
      {
        diff: hunks['README.md'],
        collapsed: false,
        too_large: false,
        new_path: 'README.md',
        old_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
      },
      {
        diff: hunks['docs/guide.md'],
        collapsed: false,
        too_large: false,
        new_path: 'docs/guide.md',
        old_path: 'docs/guide.md',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
      },
    ]);
    const feature = await api<{ new_path: string; diff: string }[]>(
      'GET',
      `${base()}/commits/feature%2Fx/diff`,
      {
        token: null,
      },
    );
    expect(feature.body.map(({ new_path, diff }) => ({ new_path, diff }))).toEqual([
      { new_path: 'src/app.js', diff: (await gitHunks(fx.c3))['src/app.js'] },
    ]);
    const second = await api<{ new_path: string; diff: string; b_mode: string }[]>(
      'GET',
      `${base()}/commits/${fx.c2}/diff`,
      { token: null },
    );
    expect(second.body.map(({ new_path, b_mode }) => [new_path, b_mode])).toEqual([
      ['image.bin', '100644'],
      ['script.sh', '100755'],
      ['src/lib/util.js', '100644'],
    ]);
    expect(second.body[0]?.diff).toBe('Binary files a/image.bin and b/image.bin differ\n');
    expect(second.body[2]?.diff).toBe((await gitHunks(fx.c2))['src/lib/util.js']);
    const missing = await api('GET', `${base()}/commits/nope/diff`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Commit Not Found' });
  });
});

describe('who reads', () => {
  it('private: anonymous 404, a guest 403, a reporter 200', async () => {
    const path = `/projects/${privateProject.id}/repository/branches`;
    const anonymous = await api('GET', path, { token: null });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual({ message: '404 Project Not Found' });
    const guest = await createUser();
    const reporter = await createUser();
    for (const [user, level] of [
      [guest, 10],
      [reporter, 20],
    ] as const) {
      const added = await api('POST', `/projects/${privateProject.id}/members`, {
        token: owner.token,
        json: { user_id: user.id, access_level: level },
      });
      expect(added.status).toBe(201);
    }
    const asGuest = await api('GET', path, { token: guest.token });
    expect(asGuest.status).toBe(403);
    expect(asGuest.body).toEqual({ message: '403 Forbidden' });
    const asReporter = await api<{ name: string }[]>('GET', path, { token: reporter.token });
    expect(asReporter.status).toBe(200);
    expect(asReporter.body.map(({ name }) => name)).toEqual(['feature/x', 'main', 'merged-topic']);
  });

  it('a project without a repository: empty lists, 404 for the rest', async () => {
    const created = await api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('empty'), visibility: 'public' },
    });
    expect(created.status).toBe(201);
    const at = `/projects/${created.body.id}/repository`;
    for (const list of ['branches', 'tags', 'commits']) {
      const got = await api('GET', `${at}/${list}`, { token: null });
      expect(got.status).toBe(200);
      expect(got.body).toEqual([]);
    }
    const checks: [string, string][] = [
      ['tree', '404 Tree Not Found'],
      ['branches/main', '404 Branch Not Found'],
      ['files/README.md?ref=main', '404 Commit Not Found'],
      ['blobs/abcdef12', '404 Blob Not Found'],
      ['commits/main', '404 Commit Not Found'],
    ];
    for (const [path, message] of checks) {
      const got = await api('GET', `${at}/${path}`, { token: null });
      expect(got.status).toBe(404);
      expect(got.body).toEqual({ message });
    }
  });
});
