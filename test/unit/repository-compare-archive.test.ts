/** The pure rules of compare, contributors, a commit's refs and archives (names, formats, tar and zip layout). */
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../shared/domain/projects.ts';
import {
  archiveDownload,
  archiveFormatOf,
  archivePrefix,
  archiveTooLarge,
  COMPARE_MAX_DIFF_BYTES,
  compareEntity,
  contributorsOf,
  type GitCommit,
  refEntity,
} from '../../shared/domain/repository.ts';
import { crc32, tarArchive, zipArchive } from '../../shared/repository/archive.ts';

const project = { id: 7, path: 'app', path_with_namespace: 'group/app' } as Project;
const BASE = 'https://gitlab.example.com';

const commitOf = (id: string, email: string, name: string, parents = ['0'.repeat(40)]): GitCommit => ({
  id: id.repeat(40).slice(0, 40),
  message: `Commit ${id}\n`,
  tree: 'f'.repeat(40),
  parents,
  author: { name, email, timestamp: 1_767_254_400, timezoneOffset: 0 },
  committer: { name, email, timestamp: 1_767_254_400, timezoneOffset: 0 },
});

describe('contributorsOf', () => {
  // Newest first: b by Ada (newest name wins), a merge (not counted), then older commits.
  const history = [
    commitOf('b', 'ada@example.com', 'Ada New'),
    commitOf('m', 'carl@example.com', 'Carl', ['1'.repeat(40), '2'.repeat(40)]),
    commitOf('c', 'bob@example.com', 'Bob'),
    commitOf('d', 'ada@example.com', 'Ada Old'),
    commitOf('e', 'ada@example.com', 'Ada Old'),
  ];
  const ada = { name: 'Ada New', email: 'ada@example.com', commits: 3, additions: 0, deletions: 0 };
  const bob = { name: 'Bob', email: 'bob@example.com', commits: 1, additions: 0, deletions: 0 };

  it('groups by author email, skips merges, names by the newest commit, orders by commits ascending', () => {
    expect(contributorsOf(history, 'commits', 'asc')).toEqual([bob, ada]);
    expect(contributorsOf(history, 'commits', 'desc')).toEqual([ada, bob]);
  });

  it('orders by name or email either way', () => {
    expect(contributorsOf(history, 'name', 'asc')).toEqual([ada, bob]);
    expect(contributorsOf(history, 'email', 'desc')).toEqual([bob, ada]);
    expect(contributorsOf([], 'name', 'asc')).toEqual([]);
  });
});

describe('compareEntity', () => {
  const older = commitOf('a', 'ada@example.com', 'Ada');
  const newer = commitOf('b', 'ada@example.com', 'Ada');
  const change = {
    oldPath: 'a.txt',
    newPath: 'a.txt',
    aMode: '100644',
    bMode: '100644',
    before: Buffer.from('one\n'),
    after: Buffer.from('two\n'),
  };

  it('the newest commit as `commit`, the commits oldest first, diffs, web_url from…to', () => {
    const entity = compareEntity(
      { fromId: 'f'.repeat(40), toId: newer.id, same: false, commits: [older, newer], changes: [change] },
      project,
      BASE,
    );
    expect(entity).toEqual({
      commit: expect.objectContaining({ id: newer.id, title: 'Commit b' }),
      commits: [expect.objectContaining({ id: older.id }), expect.objectContaining({ id: newer.id })],
      diffs: [
        {
          diff: '@@ -1 +1 @@\n-one\n+two\n',
          collapsed: false,
          too_large: false,
          new_path: 'a.txt',
          old_path: 'a.txt',
          a_mode: '100644',
          b_mode: '100644',
          new_file: false,
          renamed_file: false,
          deleted_file: false,
          generated_file: false,
        },
      ],
      compare_timeout: false,
      compare_same_ref: false,
      web_url: `${BASE}/group/app/-/compare/${'f'.repeat(40)}...${newer.id}`,
    });
  });

  it('the same ref: no commit, no commits, no diffs', () => {
    expect(
      compareEntity(
        { fromId: newer.id, toId: newer.id, same: true, commits: [], changes: [] },
        project,
        BASE,
      ),
    ).toEqual({
      commit: null,
      commits: [],
      diffs: [],
      compare_timeout: false,
      compare_same_ref: true,
      web_url: `${BASE}/group/app/-/compare/${newer.id}...${newer.id}`,
    });
  });

  it('past the byte budget, files are listed collapsed without their diff', () => {
    const line = `${'x'.repeat(1023)}\n`;
    const big = {
      ...change,
      before: undefined,
      after: Buffer.from(line.repeat(900)),
      oldPath: 'big',
      newPath: 'big',
    };
    const entity = compareEntity(
      { fromId: older.id, toId: newer.id, same: false, commits: [newer], changes: [big, big, big] },
      project,
      BASE,
    );
    expect(entity.diffs.map(({ diff, collapsed }) => [diff.length, collapsed])).toEqual([
      ['@@ -0,0 +1,900 @@\n'.length + 900 * 1025, false],
      ['@@ -0,0 +1,900 @@\n'.length + 900 * 1025, false],
      [0, true],
    ]);
    expect(2 * ('@@ -0,0 +1,900 @@\n'.length + 900 * 1025)).toBeLessThan(COMPARE_MAX_DIFF_BYTES);
  });
});

describe('refs and archive rules', () => {
  it('BasicRef is type and name', () => {
    expect(refEntity({ type: 'tag', name: 'v1' })).toEqual({ type: 'tag', name: 'v1' });
  });

  it('formats: GitLab aliases, anything else tar.gz, bzip2 refused with 400', () => {
    expect(archiveFormatOf(undefined)).toBe('tar.gz');
    expect(archiveFormatOf('tgz')).toBe('tar.gz');
    expect(archiveFormatOf('nonsense')).toBe('tar.gz');
    expect(archiveFormatOf('TAR')).toBe('tar');
    expect(archiveFormatOf('zip')).toBe('zip');
    expect(() => archiveFormatOf('tbz2')).toThrow(
      expect.objectContaining({
        status: 400,
        body: { error: 'format tar.bz2 is not supported by this API' },
      }),
    );
    expect(archiveTooLarge()).toMatchObject({
      status: 413,
      body: { message: '413 Archive larger than 4 MiB cannot be served by this API' },
    });
  });

  it('the prefix: project path, ref with dashes, commit id, then the path with dashes', () => {
    expect(archivePrefix('app', 'feature/x', 'abc', '')).toBe('app-feature-x-abc');
    expect(archivePrefix('app', 'main', 'abc', 'src/lib')).toBe('app-main-abc-src-lib');
    expect(archiveDownload(Buffer.from('x'), 'app-main-abc', 'tar.gz')).toEqual({
      body: Buffer.from('x'),
      contentType: 'application/octet-stream',
      headers: {
        'Content-Disposition': `attachment; filename="app-main-abc.tar.gz"; filename*=UTF-8''app-main-abc.tar.gz`,
      },
    });
  });
});

/** The entries of a tar: name (pax path when given), type, mode, size, content; checksums verified. */
function readTar(tar: Buffer) {
  const entries: { name: string; type: string; mode: number; content: string; link: string }[] = [];
  let offset = 0;
  let pax: Record<string, string> = {};
  while (offset < tar.length) {
    const block = tar.subarray(offset, offset + 512);
    if (block.every((byte) => byte === 0)) break;
    const text = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    let sum = 0;
    for (let index = 0; index < 512; index++)
      sum += index >= 148 && index < 156 ? 0x20 : (block[index] as number);
    expect(Number.parseInt(text(148, 8), 8)).toBe(sum);
    const size = Number.parseInt(text(124, 12), 8);
    const content = tar.subarray(offset + 512, offset + 512 + size).toString('utf8');
    const type = text(156, 1);
    const prefix = text(345, 155);
    const name = pax.path ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    if (type === 'x' || type === 'g') {
      const records = Object.fromEntries(
        content
          .split('\n')
          .filter(Boolean)
          .map((record) => record.slice(record.indexOf(' ') + 1).split('=') as [string, string]),
      );
      if (type === 'x') pax = records;
      entries.push({ name: text(0, 100), type, mode: 0, content, link: '' });
    } else {
      entries.push({ name, type, mode: Number.parseInt(text(100, 8), 8), content, link: text(157, 100) });
      pax = {};
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

describe('tarArchive', () => {
  const long = `${'d'.repeat(120)}/${'f'.repeat(120)}.txt`;
  const tar = tarArchive('app-main-abc', 'c'.repeat(40), 1_767_254_400, [
    { kind: 'dir', path: 'src' },
    { kind: 'file', path: 'src/a.txt', executable: false, content: Buffer.from('hello\n') },
    { kind: 'file', path: 'run.sh', executable: true, content: Buffer.from('#!/bin/sh\n') },
    { kind: 'symlink', path: 'link', target: 'src/a.txt' },
    { kind: 'file', path: long, executable: false, content: Buffer.from('') },
  ]);

  it('a pax global header with the commit, the prefix directory, then every entry; long names in pax', () => {
    expect(tar.length % 512).toBe(0);
    expect(readTar(tar)).toEqual([
      { name: 'pax_global_header', type: 'g', mode: 0, content: `52 comment=${'c'.repeat(40)}\n`, link: '' },
      { name: 'app-main-abc/', type: '5', mode: 0o775, content: '', link: '' },
      { name: 'app-main-abc/src/', type: '5', mode: 0o775, content: '', link: '' },
      { name: 'app-main-abc/src/a.txt', type: '0', mode: 0o664, content: 'hello\n', link: '' },
      { name: 'app-main-abc/run.sh', type: '0', mode: 0o775, content: '#!/bin/sh\n', link: '' },
      { name: 'app-main-abc/link', type: '2', mode: 0o777, content: '', link: 'src/a.txt' },
      {
        name: 'pax_extended_header',
        type: 'x',
        mode: 0,
        content: `268 path=app-main-abc/${long}\n`,
        link: '',
      },
      { name: `app-main-abc/${long}`, type: '0', mode: 0o664, content: '', link: '' },
    ]);
  });
});

describe('zipArchive', () => {
  it('crc32 is the standard one', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('local entries, a central directory naming each, an end record with the commit as comment', () => {
    const text = Buffer.from('hello hello hello hello\n');
    const zip = zipArchive('p', 'c'.repeat(40), 1_767_254_400, [
      { kind: 'file', path: 'a.txt', executable: false, content: text },
    ]);
    const end = zip.length - 22 - 40;
    expect(zip.readUInt32LE(end)).toBe(0x06054b50);
    expect(zip.readUInt16LE(end + 10)).toBe(2);
    expect(zip.subarray(end + 22).toString()).toBe('c'.repeat(40));
    const second = 30 + 2;
    expect(zip.readUInt32LE(second)).toBe(0x04034b50);
    expect(zip.readUInt16LE(second + 8)).toBe(8);
    const nameLength = zip.readUInt16LE(second + 26);
    expect(zip.subarray(second + 30, second + 30 + nameLength).toString()).toBe('p/a.txt');
    const size = zip.readUInt32LE(second + 18);
    const data = zip.subarray(second + 30 + nameLength, second + 30 + nameLength + size);
    expect(inflateRawSync(data)).toEqual(text);
    expect(zip.readUInt32LE(second + 14)).toBe(crc32(text));
  });
});
