/** The bucket layout of a repository and the refs document that commits its state. */
import { describe, expect, it } from 'vitest';
import {
  defaultBranchOf,
  isStorableRefName,
  mergeRequestRef,
  mergeRequestRefsOf,
  packKey,
  parseStoredRefs,
  refsKey,
  repositoryPrefix,
  withoutMergeRequestRefs,
} from '../../shared/repository/layout.ts';

const oid = 'a'.repeat(40);
const pack = `pack-${'b'.repeat(40)}`;

describe('keys', () => {
  it('keeps each project under its own prefix, with a slash so that 1 never reaches 10', () => {
    expect(repositoryPrefix(1)).toBe('repositories/1/');
    expect(refsKey(1)).toBe('repositories/1/refs.json');
    expect(packKey(1, pack, 'pack')).toBe(`repositories/1/objects/pack/${pack}.pack`);
    expect(packKey(1, pack, 'idx')).toBe(`repositories/1/objects/pack/${pack}.idx`);
  });
});

describe('ref names', () => {
  it.each(['refs/heads/main', 'refs/heads/feature/login', 'refs/tags/v1.0', 'refs/heads/ünïcode'])(
    'stores %s',
    (name) => {
      expect(isStorableRefName(name)).toBe(true);
    },
  );

  it.each([
    'HEAD',
    'refs/remotes/origin/main',
    'refs/heads/',
    'refs/heads/../../config',
    'refs/heads/a/../b',
    'refs/heads/.hidden',
    'refs/heads/x.lock',
    'refs/heads/a//b',
    'refs/heads/with space',
    'refs/heads/tab\there',
    'refs/heads/a~1',
    'refs/heads/a^',
    'refs/heads/a:b',
    'refs/heads/a?',
    'refs/heads/a*',
    'refs/heads/a[b',
    'refs/heads/a\\b',
    'refs/heads/a@{1}',
    'refs/heads/end.',
  ])('refuses %j', (name) => {
    expect(isStorableRefName(name)).toBe(false);
  });
});

describe('the refs document', () => {
  const valid = { version: 1, head: 'refs/heads/main', refs: { 'refs/heads/main': oid }, packs: [pack] };

  it('reads back what is written, and gives the default branch', () => {
    const stored = parseStoredRefs(JSON.stringify(valid));
    expect(stored).toEqual(valid);
    expect(defaultBranchOf(stored)).toBe('main');
    expect(defaultBranchOf({ ...stored, head: null })).toBeNull();
  });

  it.each([
    ['an unknown version', { ...valid, version: 2 }, /unknown version 2/],
    ['a ref name that leaves the directory', { ...valid, refs: { 'refs/heads/../x': oid } }, /ref name/],
    ['an object id that is not one', { ...valid, refs: { 'refs/heads/main': 'main' } }, /object id/],
    ['HEAD on a branch it does not store', { ...valid, head: 'refs/heads/other' }, /HEAD/],
    ['a pack name that is a path', { ...valid, packs: ['../pack-x'] }, /packs/],
    ['no refs', { ...valid, refs: [] }, /refs is not an object/],
  ])('refuses %s', (_case, document, why) => {
    expect(() => parseStoredRefs(JSON.stringify(document))).toThrow(why);
  });
});

describe('merge request refs', () => {
  it.each(['refs/merge-requests/1/head', 'refs/merge-requests/42/merge'])('stores %s', (name) => {
    expect(isStorableRefName(name)).toBe(true);
  });

  it.each([
    'refs/merge-requests/0/head',
    'refs/merge-requests/01/head',
    'refs/merge-requests/1/other',
    'refs/merge-requests/1/head/x',
    'refs/merge-requests/x/head',
    'refs/merge-requests/../heads/head',
    'refs/merge-requests/1',
  ])('refuses %j', (name) => {
    expect(isStorableRefName(name)).toBe(false);
  });

  it('are named by iid; a mirror keeps them, a fork leaves them', () => {
    expect(mergeRequestRef(3, 'head')).toBe('refs/merge-requests/3/head');
    expect(mergeRequestRef(3, 'merge')).toBe('refs/merge-requests/3/merge');
    const stored = {
      version: 1 as const,
      head: 'refs/heads/main',
      refs: { 'refs/heads/main': oid, 'refs/tags/v1': oid, 'refs/merge-requests/3/head': oid },
      packs: [pack],
    };
    expect(parseStoredRefs(JSON.stringify(stored))).toEqual(stored);
    expect(mergeRequestRefsOf(stored)).toEqual({ 'refs/merge-requests/3/head': oid });
    expect(mergeRequestRefsOf(undefined)).toEqual({});
    expect(withoutMergeRequestRefs(stored).refs).toEqual({ 'refs/heads/main': oid, 'refs/tags/v1': oid });
  });
});
