import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import { type KeysetRequest, nextOffsetPosition, offsetOf, slicePage } from '#domain/pagination.ts';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH } from '#http/cursor.ts';
import { cursorBinding, keysetRequest, paginationHeaders } from '#http/pagination.ts';

const KEY = 'unit-test-key';
const BINDING = cursorBinding('/api/v4/projects', { pagination: 'keyset', order_by: 'id', sort: 'asc' });
const ITEM = { after: { sort: '00000000000042', pk: 'PROJECT#42', sk: 'PROJECT' } };

/** The 400 a refused cursor is, or a failure naming what was thrown instead. */
function refusal(run: () => unknown): { status: number; body: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('the cursor was accepted');
}

describe('keyset cursors', () => {
  it('round-trip an item position and an offset', () => {
    expect(decodeCursor(encodeCursor(ITEM, BINDING, KEY), BINDING, KEY)).toEqual(ITEM);
    expect(decodeCursor(encodeCursor({ offset: 40 }, BINDING, KEY), BINDING, KEY)).toEqual({ offset: 40 });
  });

  it('are URL-safe and opaque', () => {
    const cursor = encodeCursor(ITEM, BINDING, KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(cursor).not.toContain('PROJECT');
  });

  it('are refused when any character is changed', () => {
    const cursor = encodeCursor(ITEM, BINDING, KEY);
    for (let index = 0; index < cursor.length; index++) {
      const swapped = cursor[index] === 'A' ? 'B' : 'A';
      const tampered = `${cursor.slice(0, index)}${swapped}${cursor.slice(index + 1)}`;
      expect(refusal(() => decodeCursor(tampered, BINDING, KEY))).toEqual({
        status: 400,
        body: { error: 'cursor is invalid' },
      });
    }
  });

  it('are refused with a forged payload, cut short, empty or malformed', () => {
    const cursor = encodeCursor(ITEM, BINDING, KEY);
    const [, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ o: 0 })).toString('base64url')}.${signature}`;
    for (const bad of [
      forged,
      cursor.slice(0, -1),
      cursor.split('.')[0] ?? '',
      '',
      '.',
      'a.b.c',
      `${cursor}.x`,
    ]) {
      expect(refusal(() => decodeCursor(bad, BINDING, KEY))).toEqual({
        status: 400,
        body: { error: 'cursor is invalid' },
      });
    }
  });

  it('are refused past the length bound, before any MAC is computed', () => {
    expect(refusal(() => decodeCursor('a'.repeat(MAX_CURSOR_LENGTH + 1), BINDING, KEY))).toEqual({
      status: 400,
      body: { error: 'cursor is invalid' },
    });
  });

  it('are refused under another key', () => {
    const cursor = encodeCursor(ITEM, BINDING, KEY);
    expect(refusal(() => decodeCursor(cursor, BINDING, 'another-key')).status).toBe(400);
  });

  it('are bound to the path and every filter, not to page, per_page, cursor or credentials', () => {
    const cursor = encodeCursor(ITEM, BINDING, KEY);
    const query = { pagination: 'keyset', order_by: 'id', sort: 'asc' };
    const same = cursorBinding('/api/v4/projects', {
      ...query,
      per_page: '5',
      page: '3',
      cursor: 'x',
      private_token: 'secret',
    });
    expect(decodeCursor(cursor, same, KEY)).toEqual(ITEM);
    for (const other of [
      cursorBinding('/api/v4/groups/1/projects', query),
      cursorBinding('/api/v4/projects', { ...query, sort: 'desc' }),
      cursorBinding('/api/v4/projects', { ...query, search: 'a' }),
      cursorBinding('/api/v4/projects', { ...query, 'labels[]': ['a'] }),
      cursorBinding('/api/v4/projects', { order_by: 'id', sort: 'asc' }),
    ]) {
      expect(refusal(() => decodeCursor(cursor, other, KEY)).status).toBe(400);
    }
  });
});

describe('keysetRequest()', () => {
  const url = { path: '/api/v4/projects', query: { pagination: 'keyset' } };

  it('is undefined without pagination=keyset, and starts at the list head without a cursor', () => {
    expect(keysetRequest({}, url)).toBeUndefined();
    expect(keysetRequest({ pagination: 'offset', cursor: 'ignored' }, url)).toBeUndefined();
    expect(keysetRequest({ pagination: 'keyset' }, url)).toEqual({ from: undefined });
  });
});

describe('keyset pages of lists held in memory', () => {
  const keysetAt = (offset?: number): KeysetRequest => ({
    from: offset === undefined ? undefined : { offset },
  });

  it('start at the cursor offset and follow it by the page size', () => {
    const keyset = keysetAt(4);
    const page = { page: 1, perPage: 2, keyset };
    expect(slicePage([1, 2, 3, 4, 5, 6, 7], page).items).toEqual([5, 6]);
    expect(keyset.servedBy).toBe('offset');
    expect(nextOffsetPosition(keyset, 2, 7, 2)).toEqual({ offset: 6 });
    expect(nextOffsetPosition({ ...keyset, offset: 6 }, 2, 7, 1)).toBeUndefined();
  });

  it('refuse an item position', () => {
    const page = { page: 1, perPage: 2, keyset: { from: ITEM } };
    expect(refusal(() => offsetOf(page))).toEqual({ status: 400, body: { error: 'cursor is invalid' } });
  });
});

describe('keyset headers', () => {
  const base = 'https://gitlab.example.com/api/v4/projects';
  const query = { pagination: 'keyset', per_page: '2', private_token: 'secret' };

  it('are a Link with rel="next" only, carrying the request with the next cursor', () => {
    const keyset: KeysetRequest = { from: undefined, servedBy: 'item', next: ITEM };
    const headers = paginationHeaders({ page: 1, perPage: 2, keyset }, undefined, 2, {
      base,
      path: '/api/v4/projects',
      query,
    });
    expect(Object.keys(headers)).toEqual(['Link']);
    const match = /^<(.+)>; rel="next"$/.exec(headers.Link ?? '');
    const next = new URL(match?.[1] ?? 'http://invalid');
    expect(`${next.origin}${next.pathname}`).toBe(base);
    expect(next.searchParams.get('pagination')).toBe('keyset');
    expect(next.searchParams.get('per_page')).toBe('2');
    expect(next.searchParams.has('private_token')).toBe(false);
    expect(next.searchParams.has('page')).toBe(false);
    const cursor = next.searchParams.get('cursor') ?? '';
    expect(keysetRequest({ pagination: 'keyset', cursor }, { path: '/api/v4/projects', query })).toEqual({
      from: ITEM,
    });
  });

  it('are none on the last page', () => {
    const keyset: KeysetRequest = { from: undefined, servedBy: 'item' };
    expect(paginationHeaders({ page: 1, perPage: 2, keyset }, undefined, 1, { base, query })).toEqual({});
  });
});
