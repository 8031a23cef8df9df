/** The pure rules of repository reads: paths, refs, search, times, titles, entities, line counts. */
import { describe, expect, it } from 'vitest';
import type { Project } from '../../shared/domain/projects.ts';
import {
  BLOB_MAX_BYTES,
  blobEntity,
  branchEntity,
  branchSearchMatches,
  canPushCode,
  canReadRepository,
  commitDetailEntity,
  commitEntity,
  commitTitle,
  diffEntity,
  fileEntity,
  fileHeaders,
  filePathOf,
  foundBlob,
  foundFile,
  foundTree,
  type GitCommit,
  type GitFile,
  gitTime,
  historyPathOf,
  isObjectIdPrefix,
  isValidRefName,
  lineChanges,
  rawBlobType,
  rawFile,
  refOf,
  repositoryPath,
  tagEntity,
  treePathOf,
  unifiedDiff,
} from '../../shared/domain/repository.ts';

const project = {
  id: 7,
  path_with_namespace: 'group/app',
  visibility: 'private',
  archived: false,
} as Project;
const BASE = 'https://gitlab.example.com';
const none = { project: 0, group: 0, shared: 0, namespaceOwner: false };
const user = { id: 3, admin: false } as never;

const commit: GitCommit = {
  id: 'a'.repeat(40),
  message: 'Title line\n\nBody.\n',
  tree: 'b'.repeat(40),
  parents: ['c'.repeat(40)],
  author: { name: 'Ada', email: 'ada@example.com', timestamp: 1_767_254_400, timezoneOffset: -120 },
  committer: { name: 'Carl', email: 'carl@example.com', timestamp: 1_767_258_000, timezoneOffset: 300 },
};

const file: GitFile = {
  name: 'util.js',
  path: 'src/util.js',
  size: 3,
  blobId: 'd'.repeat(40),
  commitId: 'e'.repeat(40),
  lastCommitId: 'f'.repeat(40),
  mode: '100755',
  content: Buffer.from('hi\n'),
};

describe('paths', () => {
  it.each(['README.md', 'src/lib/util.js', 'dir/', 'a b/ü.txt', '.gitignore', 'a/.b/c'])(
    'accepts %s',
    (path) => {
      expect(repositoryPath(path)).toBe(path.replace(/\/$/, ''));
    },
  );

  it.each(['', '/etc/passwd', '../x', 'a/../../b', 'a/./b', 'a//b', 'a\0b', 'x'.repeat(4097), '.', '..'])(
    'refuses %j',
    (path) => {
      expect(repositoryPath(path)).toBeUndefined();
    },
  );

  it('takes 4,096 bytes, counted in UTF-8, not 4,097', () => {
    expect(repositoryPath('x'.repeat(4096))).toBe('x'.repeat(4096));
    expect(repositoryPath('ü'.repeat(2049))).toBeUndefined();
  });

  it('lets one leading slash through on the raw route only', () => {
    expect(repositoryPath('/README.md', { leadingSlash: true })).toBe('README.md');
    expect(repositoryPath('//README.md', { leadingSlash: true })).toBeUndefined();
  });

  it('refuses with the validator sentence of the parameter', () => {
    expect(filePathOf('src/a.js')).toBe('src/a.js');
    expect(() => filePathOf('../a')).toThrow(
      expect.objectContaining({ status: 400, body: { error: 'file_path should be a valid file path' } }),
    );
    expect(() => treePathOf('a/..')).toThrow(
      expect.objectContaining({ status: 400, body: { error: 'path should be a valid file path' } }),
    );
    expect(treePathOf(undefined)).toBe('');
    expect(treePathOf('/')).toBe('');
    expect(treePathOf('src/')).toBe('src');
    expect(historyPathOf(undefined)).toBeUndefined();
    expect(historyPathOf('/src/a.js')).toBe('src/a.js');
  });

  it('refuses a blank ref as Grape does', () => {
    expect(refOf('main')).toBe('main');
    expect(() => refOf(' ')).toThrow(
      expect.objectContaining({ status: 400, body: { error: 'ref is empty' } }),
    );
  });
});

describe('refs', () => {
  it.each(['main', 'feature/x', 'v1.0', 'ünï', 'refs/heads/main', 'a-b_c'])('takes %s', (name) => {
    expect(isValidRefName(name)).toBe(true);
  });

  it.each([
    '',
    'a..b',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[',
    'a\\b',
    '/a',
    'a/',
    'a.',
    'a.lock',
    '.a',
    'a//b',
    '@',
    'a@{1}',
    '-a',
    'a\0',
  ])('refuses %j', (name) => {
    expect(isValidRefName(name)).toBe(false);
  });

  it('takes 4 to 40 hex digits as an object id', () => {
    expect(isObjectIdPrefix('abcd')).toBe(true);
    expect(isObjectIdPrefix('ABCDEF0123')).toBe(true);
    expect(isObjectIdPrefix('abc')).toBe(false);
    expect(isObjectIdPrefix('a'.repeat(41))).toBe(false);
    expect(isObjectIdPrefix('not-hex')).toBe(false);
  });

  it('searches branches by substring, ^prefix, suffix$ and ^exact$, in any case', () => {
    const names = ['main', 'feature/main-fix', 'Maintenance', 'remain'];
    const hits = (search: string) => names.filter((name) => branchSearchMatches(search, name));
    expect(hits('main')).toEqual(names);
    expect(hits('^main')).toEqual(['main', 'Maintenance']);
    expect(hits('main$')).toEqual(['main', 'remain']);
    expect(hits('^main$')).toEqual(['main']);
    expect(hits('')).toEqual(names);
  });
});

describe('who reads and pushes', () => {
  it('private: reporters and admins read, guests do not; public and internal: anyone who sees them', () => {
    expect(canReadRepository({ project, access: { ...none, project: 20 }, caller: user })).toBe(true);
    expect(canReadRepository({ project, access: { ...none, project: 10 }, caller: user })).toBe(false);
    expect(canReadRepository({ project, access: none, caller: { id: 1, admin: true } as never })).toBe(true);
    expect(
      canReadRepository({ project: { ...project, visibility: 'public' }, access: none, caller: undefined }),
    ).toBe(true);
    expect(
      canReadRepository({ project: { ...project, visibility: 'internal' }, access: none, caller: user }),
    ).toBe(true);
  });

  it('developers push unless the project is archived; anonymous readers never', () => {
    expect(canPushCode({ project, access: { ...none, project: 30 }, caller: user })).toBe(true);
    expect(canPushCode({ project, access: { ...none, project: 20 }, caller: user })).toBe(false);
    expect(
      canPushCode({
        project: { ...project, archived: true },
        access: { ...none, project: 40 },
        caller: user,
      }),
    ).toBe(false);
    expect(canPushCode({ project, access: none, caller: undefined })).toBe(false);
  });
});

describe('entities', () => {
  it('writes git times in their own offset with milliseconds', () => {
    expect(gitTime(commit.author)).toBe('2026-01-01T10:00:00.000+02:00');
    expect(gitTime(commit.committer)).toBe('2026-01-01T04:00:00.000-05:00');
    expect(gitTime({ ...commit.author, timezoneOffset: 0 })).toBe('2026-01-01T08:00:00.000+00:00');
    expect(gitTime({ ...commit.author, timezoneOffset: -330 })).toBe('2026-01-01T13:30:00.000+05:30');
  });

  it('titles a commit by its first line, cutting one of 100 characters or more at a word', () => {
    expect(commitTitle('Short\n\nbody')).toBe('Short');
    expect(commitTitle('x'.repeat(99))).toBe('x'.repeat(99));
    const long = `${'word '.repeat(30)}end`;
    expect(commitTitle(long)).toBe(`${'word '.repeat(15).trimEnd()} word…`.replace(/ word…$/, ' word…'));
    expect(commitTitle(long).length).toBeLessThanOrEqual(81);
    expect(commitTitle('y'.repeat(120))).toBe(`${'y'.repeat(80)}…`);
  });

  it('presents a commit, a commit with stats and a branch', () => {
    const shown = {
      id: commit.id,
      short_id: 'aaaaaaaa',
      created_at: '2026-01-01T04:00:00.000-05:00',
      parent_ids: commit.parents,
      title: 'Title line',
      message: commit.message,
      author_name: 'Ada',
      author_email: 'ada@example.com',
      authored_date: '2026-01-01T10:00:00.000+02:00',
      committer_name: 'Carl',
      committer_email: 'carl@example.com',
      committed_date: '2026-01-01T04:00:00.000-05:00',
      trailers: {},
      extended_trailers: {},
      web_url: `${BASE}/group/app/-/commit/${commit.id}`,
    };
    expect(commitEntity(commit, project, BASE)).toEqual(shown);
    const stats = { additions: 1, deletions: 2, total: 3 };
    expect(commitDetailEntity(commit, stats, project, BASE)).toEqual({
      ...shown,
      stats,
      status: null,
      project_id: 7,
      last_pipeline: null,
    });
    expect(commitDetailEntity(commit, undefined, project, BASE)).not.toHaveProperty('stats');
    expect(
      branchEntity({ name: 'feature/x y', commit, merged: true, default: false }, project, true, BASE),
    ).toEqual({
      name: 'feature/x y',
      commit: shown,
      merged: true,
      protected: false,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: true,
      default: false,
      web_url: `${BASE}/group/app/-/tree/feature/x%20y`,
    });
  });

  it('presents an annotated and a lightweight tag', () => {
    const tagger = { ...commit.author, timestamp: commit.author.timestamp + 60 };
    expect(
      tagEntity(
        { name: 'v1', target: 'f'.repeat(40), annotation: { message: 'Rel\n', tagger }, commit },
        project,
        BASE,
      ),
    ).toEqual({
      name: 'v1',
      message: 'Rel\n',
      target: 'f'.repeat(40),
      commit: commitEntity(commit, project, BASE),
      release: null,
      protected: false,
      created_at: '2026-01-01T10:01:00.000+02:00',
    });
    expect(tagEntity({ name: 'v0', target: commit.id, commit: null }, project, BASE)).toEqual({
      name: 'v0',
      message: '',
      target: commit.id,
      commit: null,
      release: null,
      protected: false,
      created_at: null,
    });
  });

  it('presents a file, its headers and its raw answer; a blob', () => {
    const facts = {
      file_name: 'util.js',
      file_path: 'src/util.js',
      size: 3,
      encoding: 'base64',
      content_sha256: '98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4',
      ref: 'main',
      blob_id: file.blobId,
      commit_id: file.commitId,
      last_commit_id: file.lastCommitId,
      execute_filemode: true,
    };
    expect(fileEntity(file, 'main')).toEqual({ ...facts, content: 'aGkK' });
    expect(fileHeaders(file, 'main')).toEqual({
      'X-Gitlab-File-Name': 'util.js',
      'X-Gitlab-File-Path': 'src/util.js',
      'X-Gitlab-Size': '3',
      'X-Gitlab-Encoding': 'base64',
      'X-Gitlab-Content-Sha256': facts.content_sha256,
      'X-Gitlab-Ref': 'main',
      'X-Gitlab-Blob-Id': file.blobId,
      'X-Gitlab-Commit-Id': file.commitId,
      'X-Gitlab-Last-Commit-Id': file.lastCommitId,
      'X-Gitlab-Execute-Filemode': 'true',
    });
    const raw = rawFile(file, undefined);
    expect('body' in raw && raw.contentType).toBe('text/plain; charset=utf-8');
    expect('body' in raw && raw.headers['Content-Disposition']).toBe(
      'inline; filename="util.js"; filename*=UTF-8\'\'util.js',
    );
    expect(blobEntity({ id: 'a'.repeat(40), content: Buffer.from('hi\n') })).toEqual({
      size: 3,
      encoding: 'base64',
      content: 'aGkK',
      sha: 'a'.repeat(40),
    });
  });

  it('types raw content: UTF-8 text as text, NUL or invalid UTF-8 as opaque', () => {
    expect(rawBlobType(Buffer.from('héllo\n'))).toBe('text/plain; charset=utf-8');
    expect(rawBlobType(Buffer.alloc(0))).toBe('text/plain; charset=utf-8');
    expect(rawBlobType(Buffer.from([0x61, 0x00, 0x62]))).toBe('application/octet-stream');
    expect(rawBlobType(Buffer.from([0xff, 0xfe, 0x41]))).toBe('application/octet-stream');
  });

  it('answers what a read found, or GitLab’s 404 for what was missing and 413 past the limit', () => {
    expect(foundFile({ found: file })).toBe(file);
    expect(() => foundFile({ commit: 'missing' })).toThrow(
      expect.objectContaining({ status: 404, body: { message: '404 Commit Not Found' } }),
    );
    expect(() => foundFile({ file: 'missing' })).toThrow(
      expect.objectContaining({ status: 404, body: { message: '404 File Not Found' } }),
    );
    expect(() => foundFile({ file: 'too large' })).toThrow(expect.objectContaining({ status: 413 }));
    const entries = [{ id: 'a'.repeat(40), name: 'x', type: 'blob' as const, path: 'x', mode: '100644' }];
    expect(foundTree({ entries })).toBe(entries);
    expect(foundTree({ entries: [] })).toEqual([]);
    expect(() => foundTree({ commit: 'missing' })).toThrow(
      expect.objectContaining({ status: 404, body: { message: '404 Tree Not Found' } }),
    );
    expect(() => foundTree({ path: 'missing' })).toThrow(
      expect.objectContaining({ status: 404, body: { message: '404 invalid revision or path Not Found' } }),
    );
    expect(() => foundBlob({ blob: 'missing' })).toThrow(
      expect.objectContaining({ status: 404, body: { message: '404 Blob Not Found' } }),
    );
    expect(() => foundBlob({ blob: 'too large' })).toThrow(
      expect.objectContaining({
        status: 413,
        body: {
          message: `413 Blob larger than ${BLOB_MAX_BYTES / 1048576} MiB cannot be served by this API`,
        },
      }),
    );
  });
});

describe('line changes (git numstat)', () => {
  const lines = (...values: string[]) => Buffer.from(values.map((value) => `${value}\n`).join(''));

  it('counts added, removed and changed lines by the shortest edit', () => {
    expect(lineChanges(Buffer.alloc(0), lines('a', 'b'))).toEqual({ additions: 2, deletions: 0 });
    expect(lineChanges(lines('a', 'b'), Buffer.alloc(0))).toEqual({ additions: 0, deletions: 2 });
    expect(lineChanges(lines('a', 'b', 'c'), lines('a', 'x', 'c'))).toEqual({ additions: 1, deletions: 1 });
    expect(lineChanges(lines('a', 'b', 'c', 'd'), lines('b', 'c', 'd', 'e'))).toEqual({
      additions: 1,
      deletions: 1,
    });
    expect(lineChanges(lines('a'), lines('a'))).toEqual({ additions: 0, deletions: 0 });
    expect(lineChanges(Buffer.from('a'), Buffer.from('a\n'))).toEqual({ additions: 1, deletions: 1 });
  });

  it('counts nothing for binary content, everything once the edits pass the bound', () => {
    expect(lineChanges(Buffer.from([0, 1]), Buffer.from([0, 2]))).toEqual({ additions: 0, deletions: 0 });
    const before = lines(...Array.from({ length: 50 }, (_, index) => `a${index}`));
    const after = lines(...Array.from({ length: 40 }, (_, index) => `b${index}`));
    expect(lineChanges(before, after, 10)).toEqual({ additions: 40, deletions: 50 });
    expect(lineChanges(before, after)).toEqual({ additions: 40, deletions: 50 });
  });
});

describe('unified diffs', () => {
  const lines = (...values: string[]) => Buffer.from(values.map((value) => `${value}\n`).join(''));

  it('writes hunks with three lines of context and git’s ranges', () => {
    expect(unifiedDiff(Buffer.alloc(0), lines('a', 'b'))).toBe('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedDiff(lines('a'), Buffer.alloc(0))).toBe('@@ -1 +0,0 @@\n-a\n');
    expect(unifiedDiff(lines('a', 'b', 'c'), lines('a', 'x', 'c'))).toBe('@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n');
    expect(unifiedDiff(lines('a'), lines('a'))).toBe('');
    const many = Array.from({ length: 20 }, (_, index) => `l${index}`);
    const changed = [...many];
    changed[1] = 'one';
    changed[18] = 'eighteen';
    expect(unifiedDiff(lines(...many), lines(...changed))).toBe(
      '@@ -1,5 +1,5 @@\n l0\n-l1\n+one\n l2\n l3\n l4\n@@ -16,5 +16,5 @@\n l15\n l16\n l17\n-l18\n+eighteen\n l19\n',
    );
  });

  it('marks a last line without its end, and gives up past the bound', () => {
    expect(unifiedDiff(Buffer.from('a'), Buffer.from('a\n'))).toBe(
      '@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n',
    );
    expect(unifiedDiff(lines('a', 'b', 'c'), lines('x', 'y', 'z'), 2)).toBeUndefined();
  });

  it('presents a changed file as GitLab’s Diff', () => {
    expect(
      diffEntity({
        oldPath: 'a.txt',
        newPath: 'a.txt',
        aMode: '0',
        bMode: '100644',
        before: undefined,
        after: lines('a'),
      }),
    ).toEqual({
      diff: '@@ -0,0 +1 @@\n+a\n',
      collapsed: false,
      too_large: false,
      new_path: 'a.txt',
      old_path: 'a.txt',
      a_mode: '0',
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
      generated_file: false,
    });
  });
});
