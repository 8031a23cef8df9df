/**
 * Sweeps bad input over every route of the route table: whatever a client sends, the answer is a
 * 4xx in GitLab's shape (`message` or `error`), never a 500.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { api, apiUrl, createUser, rootToken } from '../support/api.ts';

const concrete = routes.filter((route) => route.path !== '$default');
/** The API description is served to anyone without reading a token (functions/meta/openapi.ts). */
/** The OpenAPI document and the default avatar are served without reading a token. */
// git's route (`/{proxy+}`) answers a path naming no repository file as the catch-all does.
const TOKENLESS = new Set([
  'functions/meta/openapi.ts',
  'functions/avatars/default.ts',
  'functions/repository/git-http.ts',
]);
const tokenRead = concrete.filter((route) => !TOKENLESS.has(route.entry));

/**
 * Routes that act on the credential presented (a token revoking itself): swept with a throwaway
 * admin's token, never root's. They declare no parameters, so a body of wrong types is ignored
 * as GitLab ignores undeclared parameters, and the token is revoked.
 */
const ON_CREDENTIAL = new Set(['DELETE /api/v4/personal_access_tokens/self']);

/** Routes whose `{id}` is a name to test, not a thing to find: any well-formed path is an answer. */
const NAMES_TO_TEST = new Set(['GET /api/v4/namespaces/{id}/exists']);

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

function fill(path: string, value: string): string {
  return path.replace(/^\/api\/v4/, '').replace(/\{[^}]+\}/g, value);
}

function expectGitlabError(response: { status: number; body: unknown; text: string }, label: string) {
  expect(response.status, `${label}: ${response.text}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${label}: ${response.text}`).toBeLessThan(500);
  expect(typeof response.body, label).toBe('object');
  const body = response.body as Record<string, unknown>;
  expect('message' in body || 'error' in body, `${label}: ${response.text}`).toBe(true);
}

const WRONG_TYPES = {
  id: { nested: true },
  user_id: [1, 2],
  email: { a: 1 },
  name: ['x', 'y'],
  username: { b: 2 },
  password: 12,
  admin: 'perhaps',
  can_create_group: 'sometimes',
  projects_limit: 'many',
  scopes: [{ x: 1 }],
  expires_at: 'next tuesday',
  active: 'maybe',
  blocked: 'maybe',
  page: 'first',
  per_page: 'lots',
};

describe('bad input on every route', () => {
  it.each(tokenRead.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: an unknown token is 401 before anything is read or validated',
    async (_label, route) => {
      const response = await api(route.method, fill(route.path, '1'), {
        token: 'glpat-unknown-0000000000',
        ...(route.method === 'GET' ? {} : { json: WRONG_TYPES }),
      });
      expect(response.status, response.text).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
    },
  );

  const withIds = concrete.filter((route) => route.path.includes('{'));
  it.each(withIds.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: unknown and malformed ids',
    async (_label, route) => {
      for (const value of ['999999999', 'abc', '-1', '1.5', '%20']) {
        const response = await api(route.method, fill(route.path, value));
        if (NAMES_TO_TEST.has(keyOf(route)) && response.status === 200) {
          expect(response.body, `${route.method} ${route.path} with ${value}`).toEqual({
            exists: false,
            suggests: [],
          });
          continue;
        }
        expectGitlabError(response, `${route.method} ${route.path} with ${value}`);
      }
    },
  );

  it.each(concrete.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: malformed JSON, wrong types, oversized body',
    async (_label, route) => {
      // An id that exists nowhere: validation must answer before any lookup or write.
      const path = fill(route.path, '999999999');
      if (route.method === 'GET') {
        const query = Object.entries(WRONG_TYPES)
          .map(([key, value]) =>
            typeof value === 'object'
              ? `${key}[x]=${encodeURIComponent(JSON.stringify(value))}`
              : `${key}=${value}`,
          )
          .join('&');
        const response = await api('GET', `${path}?${query}`);
        // Reads ignore parameters they do not declare, as GitLab does; declared ones are checked.
        expect(response.status, `GET ${path} wrong types: ${response.text}`).not.toBe(500);
        if (response.status !== 200) expectGitlabError(response, `GET ${path} wrong types`);
        return;
      }
      const onCredential = ON_CREDENTIAL.has(keyOf(route));
      const token = onCredential ? (await createUser({ admin: true })).token : rootToken();
      const malformed = await api(route.method, path, {
        token,
        body: '{"name": "x", ',
        headers: { 'Content-Type': 'application/json' },
      });
      expectGitlabError(malformed, `${route.method} ${path} malformed JSON`);

      const arrayBody = await api(route.method, path, {
        token,
        body: '[1,2,3]',
        headers: { 'Content-Type': 'application/json' },
      });
      expectGitlabError(arrayBody, `${route.method} ${path} JSON array body`);

      const wrongTypes = await api(route.method, path, { token, json: WRONG_TYPES });
      if (onCredential) {
        expect(wrongTypes.status, `${route.method} ${path} wrong types: ${wrongTypes.text}`).toBe(204);
        expect(wrongTypes.text).toBe('');
      } else {
        expectGitlabError(wrongTypes, `${route.method} ${path} wrong types`);
      }

      const huge = Buffer.alloc(7 * 1024 * 1024, 'a');
      const response = await fetch(`${apiUrl()}${path}`, {
        method: route.method,
        headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
        body: huge,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ message: '413 Request Entity Too Large' });
    },
  );

  it.each(concrete.filter((route) => route.method === 'GET').map((route) => [route.path, route] as const))(
    'GET %s: invalid page and per_page',
    async (_label, route) => {
      const path = fill(route.path, '1');
      const plain = await api('GET', path);
      for (const [query, error] of [
        ['per_page=abc', 'per_page is invalid'],
        ['page=abc', 'page is invalid'],
        ['per_page=0', 'per_page does not have a valid value'],
        ['page=1.5', 'page is invalid'],
      ] as const) {
        const response = await api('GET', `${path}?${query}`);
        // Reads that are not paginated ignore pagination params, as GitLab does (they answer as
        // without them, a refusal of their own included); paginated lists refuse bad ones.
        if (response.status === 200 || (response.status === plain.status && response.text === plain.text)) {
          expect(response.headers.get('x-page'), `${path}?${query} is paginated`).toBeNull();
          continue;
        }
        expectGitlabError(response, `${path}?${query}`);
        // A route with required parameters names those missing first, then the page's (Grape).
        const missing = plain.status === 400 ? (plain.body as { error?: string }).error : undefined;
        if (response.status === 400) {
          expect(response.body).toEqual({ error: missing ? `${missing}, ${error}` : error });
        }
      }
    },
  );
});

describe('framework answers', () => {
  it('answers unknown routes with the catch-all 404', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/nope/deeper'],
      ['DELETE', '/users'],
      ['PATCH', '/user'],
    ] as const) {
      const response = await api(method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ error: '404 Not Found' });
    }
  });

  it('answers the retired v3 API with 410', async () => {
    const response = await fetch(`${apiUrl().replace('/api/v4', '/api/v3')}/user`);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('refuses a 7 MB body before reading it all', async () => {
    const response = await fetch(`${apiUrl()}/users`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(7 * 1024 * 1024, 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: '413 Request Entity Too Large' });
  });
});
