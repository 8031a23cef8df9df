/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: merge
 * requests between real branches of a repository imported from `git http-backend` (changes,
 * commits, a refused merge, rebase, merge closing an issue). Skipped, never passed, without the
 * package.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, git, startGitServer } from '../support/git-server.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

let root: string;
let server: GitServer;
let shas: { main: string; base: string; feature: string };

const IDENTITY = ['-c', 'user.name=Ada Author', '-c', 'user.email=ada@example.com'];
const LINES = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'py-mrs-'));
  const work = join(root, 'work');
  const commit = async (message: string, files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) await writeFile(join(work, path), content);
    await git(['add', '-A'], work);
    await git([...IDENTITY, 'commit', '-q', '-m', message], work);
    return git(['rev-parse', 'HEAD'], work);
  };
  await git(['init', '-q', '-b', 'main', work]);
  const base = await commit('First commit', { 'f.txt': LINES });
  await git(['checkout', '-q', '-b', 'feature'], work);
  await commit('Capital A', { 'f.txt': LINES.replace('a\n', 'A\n') });
  const feature = await commit('Add n\n\nFixes #1', { 'n.txt': 'new\n' });
  await git(['checkout', '-q', '-b', 'clash', base], work);
  await commit('Other j', { 'f.txt': LINES.replace('j\n', 'Z\n') });
  await git(['checkout', '-q', 'main'], work);
  const main = await commit('Capital J', { 'f.txt': LINES.replace('j\n', 'J\n') });
  shas = { main, base, feature };
  await git(['clone', '-q', '--bare', work, join(root, 'source.git')]);
  server = await startGitServer(root);
});

afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('python-gitlab merge requests', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'changes(), commits(), merge_ref(), a refused merge() and merge_ref(), rebase(), merge() closing "Fixes #1"',
    async () => {
      expect(
        await runCheck('check_merge_requests.py', [
          server.url('source.git'),
          shas.main,
          shas.base,
          shas.feature,
        ]),
      ).toEqual(PASSED);
    },
    120_000,
  );
});
