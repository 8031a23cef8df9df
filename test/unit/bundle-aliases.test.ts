/**
 * The module substitutions of lib/bundling.ts: a function bundle built with them runs
 * isomorphic-git (its ESM build, SHA-1 from node:crypto, zlib from node:zlib) to the same
 * objects, pack and index as isomorphic-git unbundled does, and the bundle holds neither the
 * CommonJS build nor sha.js nor pako.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleAliases } from '../../lib/bundling.ts';
import { deployedBundleOptions } from '../bench/b1-bundles.ts';
import { projectRoot } from '../bench/common.ts';

const execNode = promisify(execFile);

/** Runs `script` in a fresh node; a failure says the end of its stderr, not the whole bundle. */
async function runScript(script: string): Promise<string> {
  try {
    return (await execNode(process.execPath, ['--input-type=module', '-e', script])).stdout;
  } catch (error) {
    throw new Error(
      `the script failed: ${String((error as { stderr?: string }).stderr ?? error).slice(-1500)}`,
    );
  }
}
const workDir = mkdtempSync(join(tmpdir(), 'gitlab-api-bundle-aliases-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/**
 * Writes a blob, a tree and a commit into a fresh repository under `dir`, packs them, indexes the
 * pack and reads the commit back from it; prints what it made as one JSON line.
 */
const gitScript = `
import * as git from 'isomorphic-git';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
export async function exercise(dir) {
  await git.init({ fs, dir, defaultBranch: 'main' });
  const blob = await git.writeBlob({ fs, dir, blob: new TextEncoder().encode('hello, bundle\\n') });
  const tree = await git.writeTree({ fs, dir, tree: [{ mode: '100644', path: 'README.md', oid: blob, type: 'blob' }] });
  const author = { name: 'A', email: 'a@example.com', timestamp: 1700000000, timezoneOffset: 0 };
  const commit = await git.writeCommit({ fs, dir, commit: { message: 'first\\n', tree, parent: [], author, committer: author } });
  const { packfile } = await git.packObjects({ fs, dir, oids: [commit, tree, blob] });
  const name = 'pack-' + createHash('sha1').update(packfile.subarray(packfile.length - 20)).digest('hex');
  fs.mkdirSync(dir + '/copy', { recursive: true });
  await git.init({ fs, dir: dir + '/copy' });
  const packPath = '.git/objects/pack/' + name + '.pack';
  fs.writeFileSync(dir + '/copy/' + packPath, packfile);
  const { oids } = await git.indexPack({ fs, dir: dir + '/copy', filepath: packPath });
  const read = await git.readCommit({ fs, dir: dir + '/copy', oid: commit });
  const idx = fs.readFileSync(dir + '/copy/.git/objects/pack/' + name + '.idx');
  return {
    blob, tree, commit,
    pack: createHash('sha256').update(packfile).digest('hex'),
    idx: createHash('sha256').update(idx).digest('hex'),
    indexed: [...oids].sort(),
    message: read.commit.message,
  };
}
`;

describe('bundle aliases', () => {
  it('isomorphic-git bundled with them makes what it makes unbundled', async () => {
    const result = await esbuild.build({
      ...deployedBundleOptions,
      stdin: { contents: gitScript, resolveDir: projectRoot, loader: 'js', sourcefile: 'git-script.mjs' },
      outfile: join(workDir, 'git-script.bundle.mjs'),
      metafile: true,
      minify: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('node_modules/isomorphic-git/index.js');
    expect(
      inputs.filter((input) => /isomorphic-git\/index\.cjs|node_modules\/(sha\.js|pako)\//.test(input)),
    ).toEqual([]);
    expect(Object.keys(bundleAliases)).toEqual([
      'isomorphic-git',
      'sha.js/sha1.js',
      'pako',
      '@aws-sdk/credential-provider-node',
    ]);

    // Unbundled, isomorphic-git as Node resolves it for this project: its CommonJS build, sha.js.
    const resolved = createRequire(join(projectRoot, 'package.json')).resolve('isomorphic-git');
    expect(resolved).toMatch(/index\.cjs$/);
    const source = join(workDir, 'git-script.source.mjs');
    writeFileSync(source, gitScript.replace("from 'isomorphic-git'", `from ${JSON.stringify(resolved)}`));
    const runner = (module: string, dir: string) =>
      `import { exercise } from ${JSON.stringify(module)}; console.log(JSON.stringify(await exercise(${JSON.stringify(dir)})));`;
    const bundled = await runScript(runner(join(workDir, 'git-script.bundle.mjs'), join(workDir, 'bundled')));
    const unbundled = await runScript(runner(source, join(workDir, 'unbundled')));
    const made = JSON.parse(bundled);
    expect(made).toEqual(JSON.parse(unbundled));
    expect(made.message).toBe('first\n');
    expect(made.indexed).toEqual([made.blob, made.commit, made.tree].sort());
  });
});
