/**
 * Compare across a fork network (`from_project_id`): `from` read in the other project, whose
 * objects the compare reaches, and GitLab's 400 for a project outside the network, hidden or
 * missing; and the archive routes named by their format (`archive.zip`, `archive.tar.gz`, …).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiUrl, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { addCommits, type GitServer, makeRepository, startGitServer } from '../support/git-server.ts';

let root: string;
let server: GitServer;
let owner: TestUser;
let forker: TestUser;
let source: { id: number; path: string };
let forkId: number;
let unrelatedId: number;
let hiddenId: number;
let oldHead: string;
let newHead: string;

interface CompareBody {
  commit: { id: string } | null;
  commits: { id: string; title: string }[];
  diffs: { new_path: string }[];
  compare_same_ref: boolean;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compare-forks-'));
  const remote = join(root, 'source.git');
  ({ head: oldHead } = await makeRepository(remote, { commits: 5, branch: 'main' }));
  await makeRepository(join(root, 'other.git'), { commits: 2, branch: 'main' });
  server = await startGitServer(root);
  [owner, forker] = await Promise.all([createUser(), createUser()]);
  const created = await must(
    api<{ id: number; path: string }>('POST', '/projects', {
      token: owner.token,
      json: {
        name: unique('upstream'),
        import_url: server.url('source.git'),
        mirror: true,
        visibility: 'public',
      },
    }),
    201,
    'source',
  );
  source = created;
  const unrelated = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('unrelated'), import_url: server.url('other.git'), visibility: 'public' },
    }),
    201,
    'unrelated',
  );
  unrelatedId = unrelated.id;
  const hidden = await must(
    api<{ id: number }>('POST', '/projects', { token: owner.token, json: { name: unique('hidden') } }),
    201,
    'hidden',
  );
  hiddenId = hidden.id;
  await idle();
  const fork = await must(
    api<{ id: number }>('POST', `/projects/${source.id}/fork`, { token: forker.token, json: {} }),
    201,
    'fork',
  );
  forkId = fork.id;
  await idle();
  // The source moves on after the fork: two commits only its packs hold.
  ({ head: newHead } = await addCommits(remote, 2, 'main'));
  await must(api('POST', `/projects/${source.id}/mirror/pull`, { token: owner.token }), 200, 'pull');
  await idle();
});

afterAll(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const compare = (projectId: number, query: string, token: string) =>
  api<CompareBody>('GET', `/projects/${projectId}/repository/compare?${query}`, { token });

describe('compare with from_project_id', () => {
  it("reads `from` in the fork and `to` in the source: the source's two new commits", async () => {
    const answer = await compare(source.id, `from=main&to=main&from_project_id=${forkId}`, forker.token);
    expect(answer.status).toBe(200);
    expect(answer.body.commits.map((commit) => commit.title)).toEqual(['Commit 6', 'Commit 7']);
    expect(answer.body.commit?.id).toBe(newHead);
    expect(answer.body.compare_same_ref).toBe(false);
    expect(answer.body.diffs.map((diff) => diff.new_path)).toEqual(['file-5.txt', 'file-6.txt']);
  });

  it("reads `from` in the source, whose new objects the fork's packs lack", async () => {
    const behind = await compare(forkId, `from=main&to=main&from_project_id=${source.id}`, forker.token);
    expect(behind.status).toBe(200);
    expect(behind.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
    const straight = await compare(
      forkId,
      `from=main&to=main&straight=true&from_project_id=${source.id}`,
      forker.token,
    );
    expect(straight.status).toBe(200);
    expect(straight.body.commits).toEqual([]);
    expect(straight.body.diffs.map((diff) => diff.new_path)).toEqual(['file-5.txt', 'file-6.txt']);
    // Without from_project_id both are the fork's own.
    const own = await compare(forkId, 'from=main&to=main', forker.token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ commits: [], compare_same_ref: true });
    expect(oldHead).not.toBe(newHead);
  });

  it('refuses a project outside the network, one the caller cannot see and one that is not there', async () => {
    for (const other of [unrelatedId, hiddenId, 999_999_999]) {
      const refused = await compare(forkId, `from=main&to=main&from_project_id=${other}`, forker.token);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        message: `Target project id:${other} is not a fork of project id:${forkId}`,
      });
    }
    const unknownRef = await compare(forkId, `from=nope&to=main&from_project_id=${source.id}`, forker.token);
    expect(unknownRef.status).toBe(404);
    expect(unknownRef.body).toEqual({ message: '404 Ref Not Found' });
  });
});

describe('archive.<format>', () => {
  const fetchArchive = (suffix: string, query = '') =>
    fetch(`${apiUrl()}/projects/${source.id}/repository/archive${suffix}${query}`);

  it('serves each format its path names (over `format`), with the archive file name', async () => {
    const cases: [string, string, (bytes: Buffer) => boolean][] = [
      ['.zip', 'zip', (bytes) => bytes.subarray(0, 2).toString('latin1') === 'PK'],
      ['.tar.gz', 'tar.gz', (bytes) => bytes[0] === 0x1f && bytes[1] === 0x8b],
      ['.tgz', 'tar.gz', (bytes) => bytes[0] === 0x1f && bytes[1] === 0x8b],
      ['.gz', 'tar.gz', (bytes) => bytes[0] === 0x1f && bytes[1] === 0x8b],
      ['.tar', 'tar', (bytes) => bytes.subarray(257, 262).toString('latin1') === 'ustar'],
    ];
    for (const [suffix, format, looksRight] of cases) {
      const response = await fetchArchive(suffix, '?format=tar');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain(
        `filename="${source.path}-main-${newHead}.${format}"`,
      );
      expect(looksRight(Buffer.from(await response.arrayBuffer()))).toBe(true);
    }
    const bzip = await api('GET', `/projects/${source.id}/repository/archive.tar.bz2`, { token: null });
    expect(bzip.status).toBe(400);
    expect(bzip.body).toEqual({ error: 'format tar.bz2 is not supported by this API' });
    const missing = await api('GET', `/projects/${source.id}/repository/archive.zip?sha=nope`, {
      token: null,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 File Not Found' });
  });
});
