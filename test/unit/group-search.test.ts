import { describe, expect, it } from 'vitest';
import type { Group } from '#domain/groups.ts';
import { groupMatchesSearch } from '#domain/groups.ts';
import {
  groupSearchColumns,
  groupSearchTextChanged,
  searchKeysForTerm,
  searchKeysOf,
  touchesGroupSearchText,
} from '#domain/search.ts';

const group = (name: string, path: string, description = '') =>
  ({ name, path, description, full_path: `parent/${path}` }) as Group;

describe('groupSearchColumns()', () => {
  it('is the name and the path, as Group.search matches them (not the description or full path)', () => {
    expect(groupSearchColumns(group('Mobile Apps', 'mobile', 'phones'))).toEqual(['Mobile Apps', 'mobile']);
  });
});

describe('groupSearchTextChanged() and touchesGroupSearchText()', () => {
  it('a new name or path changes the searched text; a new description does not', () => {
    const before = group('Mobile', 'mobile', 'old');
    expect(groupSearchTextChanged(before, group('Phones', 'mobile', 'old'))).toBe(true);
    expect(groupSearchTextChanged(before, group('Mobile', 'phones', 'old'))).toBe(true);
    expect(groupSearchTextChanged(before, group('Mobile', 'mobile', 'new'))).toBe(false);
    expect(touchesGroupSearchText({ name: 'x' })).toBe(true);
    expect(touchesGroupSearchText({ path: 'x' })).toBe(true);
    expect(touchesGroupSearchText({})).toBe(false);
  });
});

describe('every group the search matches is listed under a key of the term', () => {
  const groups = [
    group('Platform', 'platform'),
    group('QA', 'qa'),
    group('Ünïcödé Team', 'unicode-team'),
    group('x', 'grp-tree-7'),
    group('Backend', 'be', 'mentions platform'),
  ];
  const terms = ['plat', 'PLATFORM', 'qa', 'QA', 'q', 'ïcö', 'tree', 'tree-7', 'be', 'x', 'form', 'ment'];

  for (const term of terms) {
    it(`for ${JSON.stringify(term)} the keys decide exactly as groupMatchesSearch may`, () => {
      const termKeys = searchKeysForTerm(term);
      expect(termKeys.length).toBeGreaterThan(0);
      for (const candidate of groups) {
        const listed = new Set(searchKeysOf(groupSearchColumns(candidate)));
        // A match is listed under every key of the term; a group under none is no match.
        if (groupMatchesSearch(candidate, term)) expect(termKeys.every((key) => listed.has(key))).toBe(true);
        if (!termKeys.some((key) => listed.has(key))) expect(groupMatchesSearch(candidate, term)).toBe(false);
      }
    });
  }

  it('the description is not searched: a term only in it finds no posting of the group', () => {
    const backend = group('Backend', 'be', 'mentions platform');
    expect(groupMatchesSearch(backend, 'plat')).toBe(false);
    const listed = new Set(searchKeysOf(groupSearchColumns(backend)));
    expect(searchKeysForTerm('plat').some((key) => listed.has(key))).toBe(false);
  });
});
