import { describe, expect, it } from 'vitest';
import { searchKeysForTerm, searchKeysOf } from '#domain/search.ts';

describe('searchKeysOf()', () => {
  it('lists every three-character window of a column, lower-cased', () => {
    expect(searchKeysOf(['AbCdE'])).toEqual(['~abc', '~bcd', '~cde']);
    expect(searchKeysOf(['abc'])).toEqual(['~abc']);
  });

  it('takes the windows of every column', () => {
    expect(searchKeysOf(['Web App', 'web-app', 'The UI'])).toEqual([
      '~web',
      '~eb ',
      '~b a',
      '~ ap',
      '~app',
      '~eb-',
      '~b-a',
      '~-ap',
      '~the',
      '~he ',
      '~e u',
      '~ ui',
    ]);
  });

  it('lists a column of one or two characters whole, as an `=` key', () => {
    expect(searchKeysOf(['Q7'])).toEqual(['=q7']);
    expect(searchKeysOf(['x'])).toEqual(['=x']);
    expect(searchKeysOf(['Project', 'p3', 'Z'])).toEqual([
      '~pro',
      '~roj',
      '~oje',
      '~jec',
      '~ect',
      '=p3',
      '=z',
    ]);
  });

  it('gives nothing for an empty column (a project without description)', () => {
    expect(searchKeysOf([''])).toEqual([]);
    expect(searchKeysOf([])).toEqual([]);
    expect(searchKeysOf(['abcd', '', ''])).toEqual(['~abc', '~bcd']);
  });

  it('lists each key once, across windows and across columns', () => {
    expect(searchKeysOf(['aaaa'])).toEqual(['~aaa']);
    expect(searchKeysOf(['Alpha', 'alpha', 'ALPHA'])).toEqual(['~alp', '~lph', '~pha']);
    expect(searchKeysOf(['ab', 'AB'])).toEqual(['=ab']);
    expect(searchKeysOf(['abab'])).toEqual(['~aba', '~bab']);
  });

  it('cuts windows by code points, so no key holds half a character', () => {
    // '😀' is two UTF-16 units but one code point; short columns are still measured in units.
    expect(searchKeysOf(['😀ab'])).toEqual(['~😀ab']);
    expect(searchKeysOf(['😀a'])).toEqual([]);
    expect(searchKeysOf(['😀'])).toEqual(['=😀']);
    expect(searchKeysForTerm('😀a')).toEqual([]);
    expect(searchKeysForTerm('X😀AB')).toEqual(['~x😀a', '~😀ab']);
  });
});

describe('searchKeysForTerm()', () => {
  it('gives nothing for an empty term', () => {
    expect(searchKeysForTerm('')).toEqual([]);
  });

  it('looks a term of one or two characters up whole, lower-cased', () => {
    expect(searchKeysForTerm('Q7')).toEqual(['=q7']);
    expect(searchKeysForTerm('p')).toEqual(['=p']);
  });

  it('looks a longer term up under its windows, lower-cased', () => {
    expect(searchKeysForTerm('ABC')).toEqual(['~abc']);
    expect(searchKeysForTerm('GitLab')).toEqual(['~git', '~itl', '~tla', '~lab']);
  });

  it('lists each window once', () => {
    expect(searchKeysForTerm('aaaaaa')).toEqual(['~aaa']);
    expect(searchKeysForTerm('ababab')).toEqual(['~aba', '~bab']);
  });
});

describe('a column that contains a term holds every key of the term', () => {
  const matching: [string, string][] = [
    ['My Project', 'project'],
    ['gitlab-api-server', 'API-SERV'],
    ['The Quick Brown Fox', 'quick'],
    ['abc', 'ABC'],
    ['x-srch-1f2e3d4c5b-y', 'srch-1f2e3d4c5b'],
    ['Ünïcödé Name', 'ÏCÖ'],
    ['aaaaaaa', 'aaaa'],
  ];

  for (const [column, term] of matching) {
    it(`${JSON.stringify(column)} contains ${JSON.stringify(term)}`, () => {
      expect(term.length).toBeGreaterThanOrEqual(3);
      expect(column.toLowerCase().includes(term.toLowerCase())).toBe(true);
      const columnKeys = new Set(searchKeysOf([column]));
      const termKeys = searchKeysForTerm(term);
      expect(termKeys.length).toBeGreaterThan(0);
      expect(termKeys.filter((key) => !columnKeys.has(key))).toEqual([]);
      // Also when the column is only one of the project's columns.
      const projectKeys = new Set(searchKeysOf(['other name', column, '']));
      expect(termKeys.filter((key) => !projectKeys.has(key))).toEqual([]);
    });
  }

  it('a column that does not contain the term misses one of its keys', () => {
    const column = 'My Project';
    const term = 'projects';
    expect(column.toLowerCase().includes(term.toLowerCase())).toBe(false);
    const columnKeys = new Set(searchKeysOf([column]));
    expect(searchKeysForTerm(term).filter((key) => !columnKeys.has(key))).toEqual(['~cts']);
  });

  it('a short term is found under a column equal to it, not under one that merely contains it', () => {
    const [key] = searchKeysForTerm('Q7');
    expect(searchKeysOf(['q7'])).toContain(key);
    expect(searchKeysOf(['aq7b'])).not.toContain(key);
  });
});
