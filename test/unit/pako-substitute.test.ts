/**
 * The bundles' substitute for pako (shared/repository/pako-substitute.ts): it inflates and
 * deflates as pako does, its streaming Inflate reports where a stream ends inside a chunk as
 * pako's does, and isomorphic-git bundled with it indexes and reads git's own packs and writes
 * objects git reads.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bundleAliases } from '../../lib/bundling.ts';
import substitute, { deflate, Inflate, inflate } from '../../shared/repository/pako-substitute.ts';
import { projectRoot } from '../bench/common.ts';
import { git, makeRepository } from '../support/git-server.ts';

/** The pako isomorphic-git depends on (not a dependency of this project, and without types). */
const fromProject = createRequire(join(projectRoot, 'package.json'));
const pako = createRequire(fromProject.resolve('isomorphic-git'))('pako') as typeof substitute;

const workDir = mkdtempSync(join(tmpdir(), 'gitlab-api-pako-substitute-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const repetitive = new TextEncoder().encode('tree 4b825dc642cb6eb9a060e54bf8d69288fbc4904\n'.repeat(2000));
const inputs: Record<string, Uint8Array> = {
  empty: new Uint8Array(0),
  random: new Uint8Array(randomBytes(40_000)),
  repetitive,
};

/** Bytes as a short comparable string: toEqual walks large typed arrays element by element. */
function digest(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined
    ? undefined
    : `${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * Feeds `input` to `inflater` in pieces split at `cuts` until it has a result, as listpack does;
 * returns where the last chunk pushed ends in `input`.
 */
function pushUntilResult(
  inflater: { push(chunk: Uint8Array, final: boolean): unknown; result: unknown; err: number },
  input: Uint8Array,
  cuts: number[],
): number | undefined {
  const bounds = [0, ...cuts, input.length];
  for (let piece = 0; piece + 1 < bounds.length; piece++) {
    const end = bounds[piece + 1] ?? input.length;
    inflater.push(input.subarray(bounds[piece], end), false);
    if (inflater.err || inflater.result) return end;
  }
  return undefined;
}

describe('pako substitute', () => {
  it('inflates what pako deflates and pako inflates what it deflates', () => {
    for (const [name, input] of Object.entries(inputs)) {
      expect(digest(inflate(pako.deflate(input))), name).toBe(digest(input));
      expect(digest(pako.inflate(deflate(input))), name).toBe(digest(input));
      // Bytes after the stream are ignored, as pako ignores them.
      const trailed = Buffer.concat([pako.deflate(input), Buffer.from('PACK trailing bytes')]);
      expect(digest(inflate(trailed)), name).toBe(digest(pako.inflate(trailed)));
    }
    expect(substitute).toEqual({ inflate, deflate, Inflate });
  });

  it('results are plain Uint8Arrays, as pako gives', () => {
    const inflated = inflate(pako.deflate(repetitive));
    expect(Object.getPrototypeOf(inflated)).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(deflate(repetitive))).toBe(Uint8Array.prototype);
  });

  it('throws a corrupt stream’s message as a string, as pako does', () => {
    let thrown: unknown;
    try {
      inflate(new TextEncoder().encode('not a zlib stream'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe('incorrect header check');
    expect(() => pako.inflate(new TextEncoder().encode('not a zlib stream'))).toThrow(
      'incorrect header check',
    );
  });

  it('streams: the stream ending inside a chunk leaves avail_in of that chunk, as pako’s Inflate does', () => {
    for (const [name, input] of Object.entries(inputs)) {
      const deflated = pako.deflate(input);
      const trailer = new Uint8Array(randomBytes(37));
      const pack = Buffer.concat([deflated, trailer]);
      const splits: number[][] = [
        [],
        [1],
        [2],
        [deflated.length - 1],
        [deflated.length],
        [Math.floor(deflated.length / 3), Math.floor((2 * deflated.length) / 3)],
        [5, 6, 7, deflated.length + 3],
      ];
      for (const cuts of splits.map((split) => split.filter((cut) => cut > 0 && cut < pack.length))) {
        const ours = new Inflate();
        const theirs = new pako.Inflate();
        const ourEnd = pushUntilResult(ours, pack, cuts);
        const theirEnd = pushUntilResult(theirs, pack, cuts);
        const label = `${name} cut at ${cuts.join(',')}`;
        expect(ours.err, label).toBe(0);
        expect(theirs.err, label).toBe(0);
        expect(ourEnd, label).toBe(theirEnd);
        expect(digest(ours.result), label).toBe(digest(input));
        expect(digest(ours.result), label).toBe(digest(theirs.result));
        expect(ours.strm.avail_in, label).toBe(theirs.strm.avail_in);
        // listpack rereads the last chunk up to avail_in before its end: where the stream ends.
        expect((ourEnd ?? 0) - ours.strm.avail_in, label).toBe(deflated.length);
      }
    }
  });

  it('streams: a stream not yet complete has no result and no error', () => {
    const deflated = pako.deflate(repetitive);
    const inflater = new Inflate();
    inflater.push(deflated.subarray(0, 10), false);
    expect(inflater.result).toBeUndefined();
    expect(inflater.err).toBe(0);
    inflater.push(deflated.subarray(10), false);
    expect(digest(inflater.result)).toBe(digest(repetitive));
    expect(inflater.strm.avail_in).toBe(0);
  });

  it('streams: corrupt input sets err and msg, as pako’s Inflate does', () => {
    const corrupt = pako.deflate(repetitive).slice();
    corrupt[0] = 0x12;
    const ours = new Inflate();
    const theirs = new pako.Inflate();
    ours.push(corrupt, false);
    theirs.push(corrupt, false);
    expect(theirs.err).not.toBe(0);
    expect(ours.err).toBe(theirs.err);
    expect(ours.msg).toBe('incorrect header check');
    expect(ours.msg).toBe(theirs.msg);
    expect(ours.result).toBeUndefined();
    // A bad block after a good header: zlib and pako both stop with a data error.
    const badBlock = pako.deflate(repetitive).slice();
    badBlock[2] = 0xff;
    const later = new Inflate();
    later.push(badBlock, false);
    expect(later.err).toBe(-3);
    expect(later.msg).not.toBe('');
  });
});

/**
 * isomorphic-git as the bundles carry it: its ESM build with the bundle aliases, so pako is the
 * substitute. (vi.mock cannot reach it here: vitest leaves node_modules to Node, whose
 * isomorphic-git build requires pako itself.)
 */
const gitEntry = `
export * from 'isomorphic-git';
export { default as pakoInUse } from 'pako';
`;

describe('isomorphic-git with the pako substitute', () => {
  it('indexes and reads a pack git made, and writes objects git reads', async () => {
    const outfile = join(workDir, 'isomorphic-git.bundle.mjs');
    const built = await esbuild.build({
      stdin: { contents: gitEntry, resolveDir: projectRoot, loader: 'js', sourcefile: 'git-entry.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      alias: { ...bundleAliases },
      outfile,
      metafile: true,
      logLevel: 'silent',
    });
    const bundled = Object.keys(built.metafile.inputs);
    expect(bundled).toContain('shared/repository/pako-substitute.ts');
    expect(bundled.filter((input) => input.includes('node_modules/pako/'))).toEqual([]);
    const isogit = (await import(pathToFileURL(outfile).href)) as typeof import('isomorphic-git') & {
      pakoInUse: unknown;
    };
    const pakoInUse = isogit.pakoInUse as typeof substitute;
    expect(Object.keys(pakoInUse).sort()).toEqual(['Inflate', 'deflate', 'inflate']);
    const inflating = vi.spyOn(pakoInUse, 'inflate');
    const deflating = vi.spyOn(pakoInUse, 'deflate');
    const fs = await import('node:fs');

    // git's own pack of a repository with deltas (gc) and an annotated tag.
    const source = join(workDir, 'source.git');
    const { head, count } = await makeRepository(source, { commits: 6, tag: 'v1.0' });
    const packHash = await git(
      ['--git-dir', source, 'pack-objects', '--revs', '--all', join(workDir, 'all')],
      undefined,
      '',
    );
    const packFile = join(workDir, `all-${packHash}.pack`);
    const verify = await git(['verify-pack', '-v', packFile]);
    const gitOids = verify
      .split('\n')
      .map((line) => line.split(' ')[0] ?? '')
      .filter((word) => /^[0-9a-f]{40}$/.test(word))
      .sort();
    expect(gitOids.length).toBeGreaterThan(3 * count);
    expect(verify).toMatch(/chain length = 1/);
    const packBytes = readFileSync(packFile);

    const dir = join(workDir, 'copy');
    await isogit.init({ fs, dir });
    mkdirSync(join(dir, '.git/objects/pack'), { recursive: true });
    const packPath = '.git/objects/pack/pack-all.pack';
    writeFileSync(join(dir, packPath), packBytes);
    const { oids } = await isogit.indexPack({ fs, dir, filepath: packPath });
    expect([...oids].sort()).toEqual(gitOids);
    expect(readFileSync(join(dir, '.git/objects/pack/pack-all.idx')).length).toBeGreaterThan(0);

    // Every object reads back whole (its oid is the hash of what was read, as git hashes it); deltified ones go
    // through their inflated bases.
    for (const oid of gitOids) {
      const { type, object } = await isogit.readObject({ fs, dir, oid, format: 'content' });
      const content = object as Uint8Array;
      const hash = createHash('sha1').update(`${type} ${content.length}\0`).update(content);
      expect(hash.digest('hex')).toBe(oid);
    }
    const log = await isogit.log({ fs, dir, ref: head });
    expect(log.map((entry) => entry.oid)).toEqual(
      (await git(['--git-dir', source, 'rev-list', head])).split('\n'),
    );

    // A loose object written through the substitute's deflate, read by git. isomorphic-git
    // deflates with CompressionStream where there is one (Node has it); pako only without.
    vi.stubGlobal('CompressionStream', undefined);
    const content = new TextEncoder().encode('written through node:zlib\n'.repeat(50));
    const blob = await isogit.writeBlob({ fs, dir, blob: content }).finally(() => vi.unstubAllGlobals());
    expect(await git(['--git-dir', join(dir, '.git'), 'cat-file', '-p', blob])).toBe(
      'written through node:zlib\n'.repeat(50).trim(),
    );
    expect(deflating).toHaveBeenCalled();
    expect(inflating).toHaveBeenCalled();
    expect(await git(['--git-dir', join(dir, '.git'), 'fsck', '--no-dangling'])).toBe('');
  }, 120_000);
});
