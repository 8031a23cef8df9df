import { describe, expect, it } from 'vitest';
import { pageInfo } from '#domain/pagination.ts';
import { paginationHeaders, toQuery } from '#http/pagination.ts';

const BASE = 'https://gitlab.example.com/api/v4/users';
const url = (query: Record<string, unknown> = {}) => ({ base: BASE, query });
const link = (query: string, rel: string) => `<${BASE}?${query}>; rel="${rel}"`;

describe('toQuery()', () => {
  it('sorts keys like Rails to_query', () => {
    expect(toQuery({ sort: 'desc', order_by: 'id', page: 2, per_page: 20, active: true })).toBe(
      'active=true&order_by=id&page=2&per_page=20&sort=desc',
    );
  });

  it('writes arrays as key[]=v in their own order and maps as key[name]=v with names sorted', () => {
    expect(toQuery({ labels: ['z', 'a'], custom_attributes: { size: 'L', color: 'red' } })).toBe(
      'custom_attributes%5Bcolor%5D=red&custom_attributes%5Bsize%5D=L&labels%5B%5D=z&labels%5B%5D=a',
    );
  });

  it('escapes values, writes null as empty and leaves undefined out', () => {
    expect(toQuery({ search: 'a&b=c/d', none: null, gone: undefined })).toBe('none=&search=a%26b%3Dc%2Fd');
  });

  it('gives an empty string for no params', () => {
    expect(toQuery({})).toBe('');
  });
});

describe('paginationHeaders()', () => {
  it('page 1 of 3 items by 2: next but no prev, first and last', () => {
    expect(paginationHeaders({ page: 1, perPage: 2 }, 3, 2, url({ per_page: '2' }))).toEqual({
      'X-Total': '3',
      'X-Total-Pages': '2',
      'X-Per-Page': '2',
      'X-Page': '1',
      'X-Next-Page': '2',
      'X-Prev-Page': '',
      Link: [
        link('page=2&per_page=2', 'next'),
        link('page=1&per_page=2', 'first'),
        link('page=2&per_page=2', 'last'),
      ].join(', '),
    });
  });

  it('last page: prev but no next', () => {
    expect(paginationHeaders({ page: 2, perPage: 2 }, 3, 1, url({ page: '2', per_page: '2' }))).toEqual({
      'X-Total': '3',
      'X-Total-Pages': '2',
      'X-Per-Page': '2',
      'X-Page': '2',
      'X-Next-Page': '',
      'X-Prev-Page': '1',
      Link: [
        link('page=1&per_page=2', 'prev'),
        link('page=1&per_page=2', 'first'),
        link('page=2&per_page=2', 'last'),
      ].join(', '),
    });
  });

  it('a middle page has prev, next, first and last in that order', () => {
    expect(paginationHeaders({ page: 2, perPage: 10 }, 35, 10, url()).Link).toBe(
      [
        link('page=1&per_page=10', 'prev'),
        link('page=3&per_page=10', 'next'),
        link('page=1&per_page=10', 'first'),
        link('page=4&per_page=10', 'last'),
      ].join(', '),
    );
  });

  it('an empty collection still has one page and never links to page 0', () => {
    expect(paginationHeaders({ page: 1, perPage: 20 }, 0, 0, url())).toEqual({
      'X-Total': '0',
      'X-Total-Pages': '1',
      'X-Per-Page': '20',
      'X-Page': '1',
      'X-Next-Page': '',
      'X-Prev-Page': '',
      Link: [link('page=1&per_page=20', 'first'), link('page=1&per_page=20', 'last')].join(', '),
    });
  });

  it('X-Total-Pages is ceil(total / per_page)', () => {
    expect(paginationHeaders({ page: 1, perPage: 20 }, 20, 20, url())['X-Total-Pages']).toBe('1');
    expect(paginationHeaders({ page: 1, perPage: 20 }, 21, 20, url())['X-Total-Pages']).toBe('2');
    expect(paginationHeaders({ page: 1, perPage: 100 }, 10_000, 100, url())['X-Total-Pages']).toBe('100');
  });

  it('past the last page: no prev, no next, X-Page as requested', () => {
    expect(paginationHeaders({ page: 5, perPage: 2 }, 3, 0, url({ page: '5', per_page: '2' }))).toEqual({
      'X-Total': '3',
      'X-Total-Pages': '2',
      'X-Per-Page': '2',
      'X-Page': '5',
      'X-Next-Page': '',
      'X-Prev-Page': '',
      Link: [link('page=1&per_page=2', 'first'), link('page=2&per_page=2', 'last')].join(', '),
    });
  });

  it('re-serialises the request params with keys sorted, page and per_page overwritten', () => {
    const headers = paginationHeaders(
      { page: 1, perPage: 100 },
      150,
      100,
      url({ search: 'john', per_page: '500', active: 'true', page: '0', order_by: 'id' }),
    );
    expect(headers.Link).toBe(
      [
        link('active=true&order_by=id&page=2&per_page=100&search=john', 'next'),
        link('active=true&order_by=id&page=1&per_page=100&search=john', 'first'),
        link('active=true&order_by=id&page=2&per_page=100&search=john', 'last'),
      ].join(', '),
    );
    expect(headers['X-Per-Page']).toBe('100');
  });

  it('never echoes private_token or access_token into links', () => {
    const headers = paginationHeaders(
      { page: 1, perPage: 1 },
      2,
      1,
      url({ private_token: 'glpat-secret', access_token: 'oauth-secret', search: 'x' }),
    );
    expect(headers.Link).toBe(
      [
        link('page=2&per_page=1&search=x', 'next'),
        link('page=1&per_page=1&search=x', 'first'),
        link('page=2&per_page=1&search=x', 'last'),
      ].join(', '),
    );
    expect(JSON.stringify(headers)).not.toContain('secret');
  });

  it('keeps array and map params in links', () => {
    const headers = paginationHeaders(
      { page: 1, perPage: 20 },
      1,
      1,
      url({ scopes: ['api', 'sudo'], attrs: { k: 'v' } }),
    );
    expect(headers.Link).toBe(
      [
        link('attrs%5Bk%5D=v&page=1&per_page=20&scopes%5B%5D=api&scopes%5B%5D=sudo', 'first'),
        link('attrs%5Bk%5D=v&page=1&per_page=20&scopes%5B%5D=api&scopes%5B%5D=sudo', 'last'),
      ].join(', '),
    );
  });

  describe('when the total is unknown (over the counting limit)', () => {
    it('leaves out X-Total, X-Total-Pages and rel="last"; a full page has a next page', () => {
      expect(paginationHeaders({ page: 3, perPage: 20 }, undefined, 20, url())).toEqual({
        'X-Per-Page': '20',
        'X-Page': '3',
        'X-Next-Page': '4',
        'X-Prev-Page': '2',
        Link: [
          link('page=2&per_page=20', 'prev'),
          link('page=4&per_page=20', 'next'),
          link('page=1&per_page=20', 'first'),
        ].join(', '),
      });
    });

    it('a short page has no next page', () => {
      expect(paginationHeaders({ page: 1, perPage: 20 }, undefined, 7, url())).toEqual({
        'X-Per-Page': '20',
        'X-Page': '1',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: link('page=1&per_page=20', 'first'),
      });
    });

    it('an empty page past the end has neither prev nor next', () => {
      expect(paginationHeaders({ page: 9, perPage: 20 }, undefined, 0, url())).toEqual({
        'X-Per-Page': '20',
        'X-Page': '9',
        'X-Next-Page': '',
        'X-Prev-Page': '',
        Link: link('page=1&per_page=20', 'first'),
      });
    });
  });
});

describe('pageInfo()', () => {
  it('follows Kaminari', () => {
    expect(pageInfo({ page: 1, perPage: 2 }, 3, 2)).toEqual({
      page: 1,
      perPage: 2,
      total: 3,
      totalPages: 2,
      nextPage: 2,
      prevPage: undefined,
    });
    expect(pageInfo({ page: 2, perPage: 2 }, 3, 1)).toEqual({
      page: 2,
      perPage: 2,
      total: 3,
      totalPages: 2,
      nextPage: undefined,
      prevPage: 1,
    });
    expect(pageInfo({ page: 3, perPage: 2 }, 3, 0)).toEqual({
      page: 3,
      perPage: 2,
      total: 3,
      totalPages: 2,
      nextPage: undefined,
      prevPage: undefined,
    });
  });
});
