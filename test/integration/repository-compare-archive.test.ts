/**
 * Comparing refs, contributors, a commit's refs and archives against the shared runtime: a fixture
 * built with the git CLI (a branch merged with a merge commit, an unmerged topic branch, a
 * lightweight and an annotated tag, an executable, a symbolic link, a binary file) is imported from
 * `git http-backend`, then every answer is compared with what git says of the fixture: the commits
 * and diffs of `git log`/`git diff`, the branches and tags of `git branch/tag --contains`, and the
 * files of `git archive` (extracted with tar and unzip, compared with `diff -r`).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiUrl, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';

let root: string;
let work: string;
let server: GitServer;
let owner: TestUser;
let project: { id: number; path: string; web_url: string };
let privateProject: { id: number };

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...env },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

/** git in the fixture's work tree, as `who` at `when`. */
function gitAt(args: string[], when = '2026-01-01T10:00:00+02:00', who = ['Ada Author', 'ada@example.com']) {
  return run('git', args, work, {
    GIT_AUTHOR_NAME: who[0] as string,
    GIT_AUTHOR_EMAIL: who[1] as string,
    GIT_COMMITTER_NAME: 'Carl Committer',
    GIT_COMMITTER_EMAIL: 'carl@example.com',
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
  });
}

const BOB = ['Bob Builder', 'bob@example.com'];
const rev = async (ref: string) => (await gitAt(['rev-parse', ref])).trim();

async function put(path: string, content: string | Buffer) {
  await mkdir(join(work, path, '..'), { recursive: true });
  await writeFile(join(work, path), content);
}

async function commitAll(message: string, when: string, who?: string[]) {
  await gitAt(['add', '-A']);
  await gitAt(['commit', '-q', '-m', message], when, who);
}

let fx: { c1: string; side: string; merge: string; c3: string; topic: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'repository-compare-'));
  work = join(root, 'work');
  await mkdir(work);
  await gitAt(['init', '-q', '-b', 'main']);
  await put('README.md', '# Fixture\n');
  await put('src/app.js', 'console.log("one");\n');
  await put('script.sh', '#!/bin/sh\necho hi\n');
  await chmod(join(work, 'script.sh'), 0o755);
  await symlink('README.md', join(work, 'readme-link'));
  await put('image.bin', BINARY);
  await commitAll('First commit', '2026-01-01T10:00:00+02:00');
  await gitAt(['tag', 'v1.0']);
  await gitAt(['checkout', '-q', '-b', 'topic']);
  await put('src/app.js', 'console.log("one");\nconsole.log("topic");\n');
  await put('src/lib/topic.js', 'export const topic = 1;\n');
  await commitAll('Topic work', '2026-01-02T10:00:00+02:00', BOB);
  await gitAt(['checkout', '-q', 'main']);
  await gitAt(['checkout', '-q', '-b', 'side']);
  await put('docs/side.md', 'Side\n');
  await commitAll('Side work', '2026-01-03T10:00:00+02:00', BOB);
  await gitAt(['checkout', '-q', 'main']);
  await gitAt(['merge', '-q', '--no-ff', '-m', 'Merge side', 'side'], '2026-01-04T10:00:00+02:00');
  await put('README.md', '# Fixture\n\nMore.\n');
  await commitAll('Third commit', '2026-01-05T10:00:00+02:00');
  await gitAt(['tag', '-a', 'v2.0', '-m', 'Release 2.0'], '2026-01-06T10:00:00+02:00');
  fx = {
    c1: await rev('v1.0'),
    side: await rev('side'),
    merge: await rev('main~1'),
    c3: await rev('main'),
    topic: await rev('topic'),
  };
  await gitAt(['clone', '-q', '--bare', work, join(root, 'source.git')]);
  server = await startGitServer(root);
  owner = await createUser();
  const importInto = async (visibility: string) => {
    const created = await api<{ id: number; path: string; web_url: string }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('compare'), visibility, import_url: server.url('source.git') },
    });
    expect(created.status).toBe(201);
    return created.body;
  };
  project = await importInto('public');
  privateProject = await importInto('private');
  await idle();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const base = () => `/projects/${project.id}/repository`;

/** git diff's hunks per path between two commits (the header lines before the first `@@` dropped). */
async function gitHunks(from: string, to: string): Promise<Record<string, string>> {
  const names = (await gitAt(['diff', '--name-only', from, to])).trim().split('\n');
  const hunks: Record<string, string> = {};
  for (const name of names) {
    const text = await gitAt(['diff', '--no-color', '-U3', from, to, '--', name]);
    const at = text.indexOf('\n@@');
    hunks[name] = at < 0 ? (text.match(/^Binary files .*\n/m)?.[0] ?? '') : text.slice(at + 1);
  }
  return hunks;
}

describe('compare', () => {
  it('from main to topic: the topic commit, the diff from the merge base as git diff main...topic', async () => {
    const got = await api<Record<string, unknown> & { diffs: { new_path: string; diff: string }[] }>(
      'GET',
      `${base()}/compare?from=main&to=topic`,
      { token: null },
    );
    expect(got.status).toBe(200);
    const topicCommit = expect.objectContaining({
      id: fx.topic,
      title: 'Topic work',
      author_email: 'bob@example.com',
      web_url: `${project.web_url}/-/commit/${fx.topic}`,
    });
    const hunks = await gitHunks(fx.c1, fx.topic);
    expect(got.body).toEqual({
      commit: topicCommit,
      commits: [topicCommit],
      diffs: [
        {
          diff: hunks['src/app.js'],
          collapsed: false,
          too_large: false,
          new_path: 'src/app.js',
          old_path: 'src/app.js',
          a_mode: '100644',
          b_mode: '100644',
          new_file: false,
          renamed_file: false,
          deleted_file: false,
          generated_file: false,
        },
        {
          diff: hunks['src/lib/topic.js'],
          collapsed: false,
          too_large: false,
          new_path: 'src/lib/topic.js',
          old_path: 'src/lib/topic.js',
          a_mode: '0',
          b_mode: '100644',
          new_file: true,
          renamed_file: false,
          deleted_file: false,
          generated_file: false,
        },
      ],
      compare_timeout: false,
      compare_same_ref: false,
      web_url: `${project.web_url}/-/compare/${fx.c3}...${fx.topic}`,
    });
  });

  it('from v1.0 to main: the commits oldest first as git log --reverse; straight from topic: git diff topic main', async () => {
    const got = await api<{ commits: { id: string }[]; commit: { id: string } }>(
      'GET',
      `${base()}/compare?from=v1.0&to=main`,
      { token: null },
    );
    expect(got.status).toBe(200);
    const logged = (await gitAt(['log', '--reverse', '--format=%H', 'v1.0..main'])).trim().split('\n');
    expect(got.body.commits.map(({ id }) => id)).toEqual(logged);
    expect(got.body.commit.id).toBe(fx.c3);
    const straight = await api<{ diffs: { new_path: string; diff: string; deleted_file: boolean }[] }>(
      'GET',
      `${base()}/compare?from=topic&to=main&straight=true`,
      { token: null },
    );
    expect(straight.status).toBe(200);
    const hunks = await gitHunks('topic', 'main');
    expect(
      straight.body.diffs.map(({ new_path, diff, deleted_file }) => [new_path, diff, deleted_file]),
    ).toEqual(
      Object.keys(hunks)
        .sort()
        .map((name) => [name, hunks[name], name === 'src/lib/topic.js']),
    );
  });

  it('to an ancestor of from: the same ref, nothing listed; an unknown ref → 404 Ref Not Found', async () => {
    const same = await api('GET', `${base()}/compare?from=topic&to=v1.0`, { token: null });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({
      commit: null,
      commits: [],
      diffs: [],
      compare_timeout: false,
      compare_same_ref: true,
      web_url: `${project.web_url}/-/compare/${fx.topic}...${fx.c1}`,
    });
    const missing = await api('GET', `${base()}/compare?from=main&to=nope`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Ref Not Found' });
    const unnamed = await api('GET', `${base()}/compare?from=main`, { token: null });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toEqual({ error: 'to is missing' });
    const hidden = await api('GET', `/projects/${privateProject.id}/repository/compare?from=main&to=topic`, {
      token: null,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('contributors', () => {
  it('the default branch’s authors without merges, by commits ascending; ordered and paged as asked', async () => {
    const got = await api('GET', `${base()}/contributors`, { token: null });
    expect(got.status).toBe(200);
    const bob = { name: 'Bob Builder', email: 'bob@example.com', commits: 1, additions: 0, deletions: 0 };
    const ada = { name: 'Ada Author', email: 'ada@example.com', commits: 2, additions: 0, deletions: 0 };
    expect(got.body).toEqual([bob, ada]);
    const shortlog = (await gitAt(['shortlog', '-sne', '--no-merges', 'main'])).trim().split('\n');
    expect(shortlog.map((line) => line.trim().split('\t')[0])).toEqual(['2', '1']);
    const byName = await api('GET', `${base()}/contributors?order_by=name&sort=desc&per_page=1`, {
      token: null,
    });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([bob]);
    expect(byName.headers.get('x-total')).toBe('2');
    const topic = await api('GET', `${base()}/contributors?ref=topic&order_by=email`, { token: null });
    expect(topic.body).toEqual([
      { ...ada, commits: 1 },
      { ...bob, commits: 1 },
    ]);
    const bad = await api('GET', `${base()}/contributors?order_by=size`, { token: null });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });
});

describe("a commit's refs", () => {
  it('the branches (default) or tags or both whose history holds the commit, as git --contains says', async () => {
    const contains = async (kind: 'branch' | 'tag', sha: string) =>
      (await gitAt([kind, '--contains', sha, '--format=%(refname:short)']))
        .trim()
        .split('\n')
        .filter(Boolean);
    const branches = await api('GET', `${base()}/commits/${fx.c1}/refs`, { token: null });
    expect(branches.status).toBe(200);
    expect(branches.body).toEqual(
      (await contains('branch', fx.c1)).map((name) => ({ type: 'branch', name })),
    );
    expect(branches.body).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'branch', name: 'side' },
      { type: 'branch', name: 'topic' },
    ]);
    const all = await api('GET', `${base()}/commits/${fx.side}/refs?type=all`, { token: null });
    expect(all.body).toEqual([
      { type: 'branch', name: 'main' },
      { type: 'branch', name: 'side' },
      { type: 'tag', name: 'v2.0' },
    ]);
    expect(await contains('tag', fx.side)).toEqual(['v2.0']);
    const tags = await api('GET', `${base()}/commits/topic/refs?type=tag`, { token: null });
    expect(tags.status).toBe(200);
    expect(tags.body).toEqual([]);
    const missing = await api('GET', `${base()}/commits/${'0'.repeat(40)}/refs`, { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Commit Not Found' });
  });
});

describe('archive', () => {
  /** The archive fetched, extracted into a fresh directory, compared with git archive's extracted. */
  async function compareWithGit(query: string, format: 'tar.gz' | 'tar' | 'zip', ref: string, path = '') {
    const response = await fetch(`${apiUrl()}${base()}/archive${query}`);
    expect(response.status).toBe(200);
    const sha = await rev(ref);
    const prefix = [
      project.path,
      ref.replaceAll('/', '-'),
      sha,
      ...(path ? [path.replaceAll('/', '-')] : []),
    ].join('-');
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${prefix}.${format}"; filename*=UTF-8''${prefix}.${format}`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const place = await mkdtemp(join(root, 'archive-'));
    const file = join(place, `ours.${format}`);
    await writeFile(file, bytes);
    const ours = join(place, 'ours');
    const theirs = join(place, 'theirs');
    await mkdir(ours);
    await mkdir(theirs);
    if (format === 'zip') await run('unzip', ['-q', file, '-d', ours], place);
    else await run('tar', [format === 'tar' ? '-xf' : '-xzf', file, '-C', ours], place);
    const treeish = path ? `${ref}:${path}` : ref;
    await run(
      'sh',
      ['-c', `git -C "${work}" archive --prefix="${prefix}/" "${treeish}" | tar -x -C "${theirs}"`],
      place,
    );
    // Same names, types, contents and link targets; the executable bit too.
    await run('diff', ['-r', '--no-dereference', ours, theirs], place);
    const listing = (dir: string) => run('sh', ['-c', 'find . -printf "%y %m %p\\n" | sort'], dir);
    if (format !== 'zip') expect(await listing(ours)).toBe(await listing(theirs));
    return { bytes, ours: join(ours, prefix), sha };
  }

  it('tar.gz by default, of the default branch: what git archive writes, with the commit id in it', async () => {
    const { bytes, sha } = await compareWithGit('', 'tar.gz', 'main');
    const tarFile = join(root, 'commit-id.tar.gz');
    await writeFile(tarFile, bytes);
    expect((await run('sh', ['-c', `gzip -dc "${tarFile}" | git get-tar-commit-id`], root)).trim()).toBe(sha);
  });

  it('tar of a tag, zip of a branch, a subdirectory of a commit', async () => {
    await compareWithGit('?sha=v1.0&format=tar', 'tar', 'v1.0');
    const { ours } = await compareWithGit('?sha=topic&format=zip', 'zip', 'topic');
    expect((await run('sh', ['-c', 'test -x script.sh && readlink readme-link'], ours)).trim()).toBe(
      'README.md',
    );
    await compareWithGit(`?sha=${fx.topic}&path=src`, 'tar.gz', fx.topic, 'src');
  });

  it('an unknown ref or path → 404 File Not Found; bzip2 → 400; private to anonymous → 404', async () => {
    for (const query of ['?sha=nope', '?path=nowhere', '?path=README.md']) {
      const missing = await api('GET', `${base()}/archive${query}`, { token: null });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 File Not Found' });
    }
    const bzip = await api('GET', `${base()}/archive?format=tar.bz2`, { token: null });
    expect(bzip.status).toBe(400);
    expect(bzip.body).toEqual({ error: 'format tar.bz2 is not supported by this API' });
    const hidden = await api('GET', `/projects/${privateProject.id}/repository/archive`, { token: null });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    const owned = await fetch(`${apiUrl()}/projects/${privateProject.id}/repository/archive?format=tar`, {
      headers: { 'PRIVATE-TOKEN': owner.token },
    });
    expect(owned.status).toBe(200);
  });
});
