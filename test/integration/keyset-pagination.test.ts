/**
 * Keyset pagination through the local gateway: `pagination=keyset` walks a list by the cursor in
 * each page's `Link: rel="next"` and finds exactly what offset pages find, in the same order,
 * with no total or page-number headers; cursors are refused (400) when edited, cut, oversized or
 * replayed with other filters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface Named {
  id: number;
  name?: string;
  iid?: number;
}

const OFFSET_HEADERS = ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page', 'x-per-page'];

/** The next page's URL from a Link header, relative to the API root. */
function nextLink(response: ApiResponse): string | undefined {
  const link = response.headers.get('link');
  if (!link) return undefined;
  const match = /<([^>]+)>; rel="next"/.exec(link);
  if (!match?.[1]) return undefined;
  const url = new URL(match[1]);
  return `${url.pathname.replace(/^\/api\/v4/, '')}${url.search}`;
}

/** Every page of a keyset list from `first`, checking each page's status and headers. */
async function walk<T extends Named>(first: string, token?: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let path: string | undefined = first;
  let pages = 0;
  while (path !== undefined) {
    const response: ApiResponse<T[]> = await api<T[]>('GET', path, { token });
    expect(response.status, `${path}: ${response.text.slice(0, 200)}`).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    for (const header of OFFSET_HEADERS) expect(response.headers.get(header)).toBeNull();
    items.push(...response.body);
    pages++;
    if (pages > 1000) throw new Error(`${first} did not end within 1000 pages`);
    path = nextLink(response);
    if (path !== undefined) expect(path).toContain('cursor=');
  }
  return { items, pages };
}

/** Every item of an offset list (per_page 100), to compare a keyset walk with. */
async function offsetAll<T extends Named>(first: string, token?: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= 100; page++) {
    const separator = first.includes('?') ? '&' : '?';
    const response = await api<T[]>('GET', `${first}${separator}per_page=100&page=${page}`, { token });
    expect(response.status).toBe(200);
    items.push(...response.body);
    if (!response.headers.get('x-next-page')) return items;
  }
  throw new Error(`${first} did not end within 100 pages`);
}

const ids = (items: Named[]) => items.map((item) => item.id);

let owner: TestUser;
let groupId: number;
let projectId: number;
const projectNames: string[] = [];

beforeAll(async () => {
  owner = await createUser();
  const group = await must(
    api<{ id: number }>('POST', '/groups', {
      token: owner.token,
      json: { name: unique('keyset'), path: unique('keyset'), visibility: 'public' },
    }),
    201,
    'group',
  );
  groupId = group.id;
  for (let index = 0; index < 5; index++) {
    const name = `${unique('keyset')}-${index}`;
    projectNames.push(name);
    const project = await must(
      api<{ id: number }>('POST', '/projects', {
        token: owner.token,
        json: { name, namespace_id: groupId, visibility: index % 2 ? 'public' : 'private' },
      }),
      201,
      'project',
    );
    projectId ??= project.id;
  }
});

describe('GET /projects with pagination=keyset', () => {
  it('walks every project by id ascending, two at a time, with no repeat or gap', async () => {
    const { items, pages } = await walk<Named>(
      '/projects?pagination=keyset&order_by=id&sort=asc&per_page=2',
      owner.token,
    );
    const walked = ids(items);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual([...walked].sort((a, b) => a - b));
    expect(walked).toEqual(ids(await offsetAll('/projects?order_by=id&sort=asc', owner.token)));
    expect(pages).toBe(Math.ceil(walked.length / 2));
  });

  it('walks by name descending as offset pages order them', async () => {
    const { items } = await walk<Named>(
      '/projects?pagination=keyset&order_by=name&sort=desc&per_page=2',
      owner.token,
    );
    expect(ids(items)).toEqual(ids(await offsetAll('/projects?order_by=name&sort=desc', owner.token)));
    const mine = items.filter((item) => projectNames.includes(String(item.name))).map((item) => item.name);
    expect(mine).toEqual([...projectNames].sort().reverse());
  });

  it('walks a group’s projects', async () => {
    const { items } = await walk<Named>(
      `/groups/${groupId}/projects?pagination=keyset&per_page=2&order_by=id&sort=asc`,
      owner.token,
    );
    expect(items).toHaveLength(5);
    expect(ids(items)).toEqual(
      ids(await offsetAll(`/groups/${groupId}/projects?order_by=id&sort=asc`, owner.token)),
    );
  });

  it('answers an empty first page with no Link', async () => {
    const stranger = await createUser();
    const response = await api('GET', `/groups/${groupId}/projects?pagination=keyset`, {
      token: owner.token,
    });
    expect(response.status).toBe(200);
    const none = await api('GET', `/users/${stranger.id}/projects?pagination=keyset&per_page=2`, {
      token: stranger.token,
    });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers.get('link')).toBeNull();
  });

  it('keeps offset pagination as it was with pagination=offset', async () => {
    const response = await api('GET', '/projects?pagination=offset&per_page=2', { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(response.headers.get('x-page')).toBe('1');
    expect(response.headers.get('x-total')).not.toBeNull();
  });

  it('refuses an unknown pagination', async () => {
    const response = await api('GET', '/projects?pagination=pages', { token: owner.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'pagination does not have a valid value' });
  });
});

describe('issues with a filter', () => {
  beforeAll(async () => {
    for (let index = 0; index < 7; index++) {
      await must(
        api('POST', `/projects/${projectId}/issues`, {
          token: owner.token,
          json: { title: `issue ${index}` },
        }),
        201,
        'issue',
      );
    }
    for (const iid of [2, 5]) {
      await must(
        api('PUT', `/projects/${projectId}/issues/${iid}`, {
          token: owner.token,
          json: { state_event: 'close' },
        }),
        200,
        'close',
      );
    }
  });

  it('walks the opened issues by cursor', async () => {
    const { items } = await walk<Named>(
      `/projects/${projectId}/issues?pagination=keyset&state=opened&per_page=2`,
      owner.token,
    );
    expect(items.map((issue) => issue.iid)).toEqual([7, 6, 4, 3, 1]);
  });

  it('walks issues filtered by a search, in created_at ascending order', async () => {
    const { items } = await walk<Named>(
      `/projects/${projectId}/issues?pagination=keyset&search=issue&order_by=created_at&sort=asc&per_page=3`,
      owner.token,
    );
    expect(items.map((issue) => issue.iid)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses a cursor replayed with another filter', async () => {
    const first = await api(
      'GET',
      `/projects/${projectId}/issues?pagination=keyset&state=opened&per_page=2`,
      { token: owner.token },
    );
    expect(first.status).toBe(200);
    const next = nextLink(first);
    expect(next).toBeDefined();
    const replayed = await api('GET', String(next).replace('state=opened', 'state=closed'), {
      token: owner.token,
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual({ error: 'cursor is invalid' });
    // The page size is not a filter: the same cursor with another per_page goes on.
    const resized = await api('GET', String(next).replace('per_page=2', 'per_page=3'), {
      token: owner.token,
    });
    expect(resized.status).toBe(200);
    expect((resized.body as Named[]).map((issue) => issue.iid)).toEqual([4, 3, 1]);
  });

  it('refuses a cursor edited, cut short or too long', async () => {
    const first = await api('GET', `/projects/${projectId}/issues?pagination=keyset&per_page=2`, {
      token: owner.token,
    });
    expect(first.status).toBe(200);
    const next = String(nextLink(first));
    const cursor = decodeURIComponent(/cursor=([^&]+)/.exec(next)?.[1] ?? '');
    const base = `/projects/${projectId}/issues?pagination=keyset&per_page=2&cursor=`;
    const edited = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    for (const bad of [edited, cursor.slice(0, -2), 'garbage', '.', 'x'.repeat(3000)]) {
      const response = await api('GET', `${base}${encodeURIComponent(bad)}`, { token: owner.token });
      expect(response.status, bad.slice(0, 40)).toBe(400);
      expect(response.body).toEqual({ error: 'cursor is invalid' });
    }
  });
});

describe('a list held in memory', () => {
  it('walks a project’s hooks by cursor', async () => {
    for (let index = 0; index < 5; index++) {
      await must(
        api('POST', `/projects/${projectId}/hooks`, {
          token: owner.token,
          json: { url: `https://hooks.example.com/${index}` },
        }),
        201,
        'hook',
      );
    }
    const { items, pages } = await walk<Named>(
      `/projects/${projectId}/hooks?pagination=keyset&per_page=2`,
      owner.token,
    );
    expect(pages).toBe(3);
    expect(ids(items)).toEqual(ids(await offsetAll(`/projects/${projectId}/hooks`, owner.token)));
    expect(items).toHaveLength(5);
  });
});
