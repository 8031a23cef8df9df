/**
 * Anonymous reads over HTTP, as current GitLab serves them (`authenticate_non_get!` on issues and
 * merge requests): a caller with no token reads a public project's issues and merge requests (list
 * and single), its public snippets (single and raw) and a public group's epics (list and single),
 * seeing exactly what a signed-in reader sees of them; confidential issues and non-public snippets
 * stay hidden, a switched-off feature answers as it does to anyone, an internal or private project
 * (group) is `404 Project Not Found` (`404 Group Not Found`), and everything else (notes, the
 * snippet list, every write) is still 401.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

type Visibility = 'public' | 'internal' | 'private';
const VISIBILITIES: readonly Visibility[] = ['public', 'internal', 'private'];

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const GROUP_NOT_FOUND = { message: '404 Group Not Found' };
const SNIPPET_NOT_FOUND = { message: '404 Snippet Not Found' };

interface Place {
  groupId: number;
  projectId: number;
  issueIid: number;
  confidentialIid: number;
  mergeRequestIid: number;
  snippetId: number;
  privateSnippetId: number;
  epicIid: number;
}

let owner: TestUser;
const places = {} as Record<Visibility, Place>;

const anonymously = (path: string) => api('GET', path, { token: null });
const asOwner = (path: string) => api('GET', path, { token: owner.token });

async function created<T extends { id: number; iid?: number }>(
  path: string,
  json: Record<string, unknown>,
): Promise<T> {
  return must(api<T>('POST', path, { token: owner.token, json }), 201, `POST ${path}`);
}

async function buildPlace(visibility: Visibility): Promise<Place> {
  const path = unique(`anon-${visibility}`);
  const group = await created<{ id: number }>('/groups', { name: path, path, visibility });
  const project = await created<{ id: number }>('/projects', {
    name: unique('Readable'),
    namespace_id: group.id,
    visibility,
  });
  const base = `/projects/${project.id}`;
  const issue = await created<{ id: number; iid: number }>(`${base}/issues`, { title: 'an open issue' });
  const confidential = await created<{ id: number; iid: number }>(`${base}/issues`, {
    title: 'a confidential issue',
    confidential: true,
  });
  const mergeRequest = await created<{ id: number; iid: number }>(`${base}/merge_requests`, {
    title: 'a merge request',
    source_branch: unique('feature'),
    target_branch: 'master',
  });
  const snippet = await created<{ id: number }>(`${base}/snippets`, {
    title: 'shared',
    file_name: 'hello.rb',
    content: 'puts "hello"\n',
    visibility,
  });
  const privateSnippet = await created<{ id: number }>(`${base}/snippets`, {
    title: 'secret',
    file_name: 'secret.rb',
    content: 'puts "secret"\n',
    visibility: 'private',
  });
  const epic = await created<{ id: number; iid: number }>(`/groups/${group.id}/epics`, { title: 'an epic' });
  return {
    groupId: group.id,
    projectId: project.id,
    issueIid: issue.iid,
    confidentialIid: confidential.iid,
    mergeRequestIid: mergeRequest.iid,
    snippetId: snippet.id,
    privateSnippetId: privateSnippet.id,
    epicIid: epic.iid as number,
  };
}

beforeAll(async () => {
  owner = await createUser();
  await Promise.all(
    VISIBILITIES.map(async (visibility) => {
      places[visibility] = await buildPlace(visibility);
    }),
  );
}, 120_000);

const project = (visibility: Visibility) => `/projects/${places[visibility].projectId}`;
const group = (visibility: Visibility) => `/groups/${places[visibility].groupId}`;

describe('a public project and group, to a caller with no token', () => {
  it('lists the issues a signed-in reader sees, less the confidential one', async () => {
    const place = places.public;
    const list = await anonymously(`${project('public')}/issues`);
    expect(list.status).toBe(200);
    const owners = await asOwner(`${project('public')}/issues`);
    const shown = (owners.body as { iid: number }[]).filter((issue) => issue.iid !== place.confidentialIid);
    expect(list.body).toEqual(shown);
    expect((list.body as { iid: number }[]).map((issue) => issue.iid)).toEqual([place.issueIid]);
    expect(list.headers.get('x-total')).toBe('1');
  });

  it('reads an issue as a signed-in reader does; the confidential one → 404 Not found', async () => {
    const place = places.public;
    const one = await anonymously(`${project('public')}/issues/${place.issueIid}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await asOwner(`${project('public')}/issues/${place.issueIid}`)).body);
    const hidden = await anonymously(`${project('public')}/issues/${place.confidentialIid}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(NOT_FOUND);
    const confidentialOnly = await anonymously(`${project('public')}/issues?confidential=true`);
    expect(confidentialOnly.status).toBe(200);
    expect(confidentialOnly.body).toEqual([]);
  });

  it('lists and reads merge requests (not subscribed to any)', async () => {
    const place = places.public;
    const list = await anonymously(`${project('public')}/merge_requests`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual((await asOwner(`${project('public')}/merge_requests`)).body);
    expect((list.body as { iid: number }[]).map((mr) => mr.iid)).toEqual([place.mergeRequestIid]);
    const one = await anonymously(`${project('public')}/merge_requests/${place.mergeRequestIid}`);
    expect(one.status).toBe(200);
    const ownersView = (await asOwner(`${project('public')}/merge_requests/${place.mergeRequestIid}`))
      .body as Record<string, unknown>;
    expect(ownersView.subscribed).toBe(true);
    expect(one.body).toEqual({ ...ownersView, subscribed: false });
    const scoped = await anonymously(`${project('public')}/merge_requests?scope=created_by_me`);
    expect(scoped.status).toBe(200);
    expect(scoped.body).toEqual([]);
  });

  it('reads a public snippet and its raw content; a private snippet → 404', async () => {
    const place = places.public;
    const one = await anonymously(`${project('public')}/snippets/${place.snippetId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await asOwner(`${project('public')}/snippets/${place.snippetId}`)).body);
    const raw = await anonymously(`${project('public')}/snippets/${place.snippetId}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.text).toBe('puts "hello"\n');
    const secret = await anonymously(`${project('public')}/snippets/${place.privateSnippetId}`);
    expect(secret.status).toBe(404);
    expect(secret.body).toEqual(NOT_FOUND);
    const secretRaw = await anonymously(`${project('public')}/snippets/${place.privateSnippetId}/raw`);
    expect(secretRaw.status).toBe(404);
    expect(secretRaw.body).toEqual(SNIPPET_NOT_FOUND);
  });

  it('lists and reads the group’s epics', async () => {
    const place = places.public;
    const list = await anonymously(`${group('public')}/epics`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual((await asOwner(`${group('public')}/epics`)).body);
    expect((list.body as { iid: number }[]).map((epic) => epic.iid)).toEqual([place.epicIid]);
    const one = await anonymously(`${group('public')}/epics/${place.epicIid}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await asOwner(`${group('public')}/epics/${place.epicIid}`)).body);
  });

  it('everything else still asks for a token: notes, the snippet list, writes → 401', async () => {
    const place = places.public;
    const base = project('public');
    for (const [method, path] of [
      ['GET', `${base}/issues/${place.issueIid}/notes`],
      ['GET', `${base}/merge_requests/${place.mergeRequestIid}/notes`],
      ['GET', `${base}/snippets/${place.snippetId}/notes`],
      ['GET', `${group('public')}/epics/${place.epicIid}/notes`],
      ['GET', `${base}/snippets`],
      ['POST', `${base}/issues`],
      ['PUT', `${base}/issues/${place.issueIid}`],
      ['DELETE', `${base}/issues/${place.issueIid}`],
      ['POST', `${base}/merge_requests`],
      ['PUT', `${base}/merge_requests/${place.mergeRequestIid}`],
      ['POST', `${base}/snippets`],
      ['PUT', `${base}/snippets/${place.snippetId}`],
      ['POST', `${group('public')}/epics`],
      ['POST', `${base}/issues/${place.issueIid}/notes`],
    ] as const) {
      const json = method === 'GET' ? undefined : { title: 'x', body: 'x' };
      const response = await api(method, path, { token: null, json });
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 401,
        body: UNAUTHORIZED,
      });
    }
  });
});

describe('internal and private projects and groups, to a caller with no token', () => {
  it.each(['internal', 'private'] as const)(
    '%s: 404 Project Not Found / Group Not Found',
    async (visibility) => {
      const place = places[visibility];
      const base = project(visibility);
      for (const path of [
        `${base}/issues`,
        `${base}/issues/${place.issueIid}`,
        `${base}/merge_requests`,
        `${base}/merge_requests/${place.mergeRequestIid}`,
        `${base}/snippets/${place.snippetId}`,
        `${base}/snippets/${place.snippetId}/raw`,
      ]) {
        const response = await anonymously(path);
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 404,
          body: PROJECT_NOT_FOUND,
        });
      }
      for (const path of [`${group(visibility)}/epics`, `${group(visibility)}/epics/${place.epicIid}`]) {
        const response = await anonymously(path);
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 404,
          body: GROUP_NOT_FOUND,
        });
      }
    },
  );
});

describe('a public project with its features switched off, to a caller with no token', () => {
  it('issues: none listed, none read; merge requests: 403; snippets: 404', async () => {
    const place = await buildPlace('public');
    const base = `/projects/${place.projectId}`;
    await must(
      api('PUT', base, {
        token: owner.token,
        json: { issues_enabled: false, merge_requests_enabled: false, snippets_enabled: false },
      }),
      200,
      'switch features off',
    );
    const answers = await Promise.all(
      [
        `${base}/issues`,
        `${base}/issues/${place.issueIid}`,
        `${base}/merge_requests`,
        `${base}/merge_requests/${place.mergeRequestIid}`,
        `${base}/snippets/${place.snippetId}`,
        `${base}/snippets/${place.snippetId}/raw`,
      ].map(async (path) => {
        const response = await anonymously(path);
        return { path, status: response.status, body: response.body };
      }),
    );
    expect(answers).toEqual([
      { path: `${base}/issues`, status: 200, body: [] },
      { path: `${base}/issues/${place.issueIid}`, status: 404, body: NOT_FOUND },
      { path: `${base}/merge_requests`, status: 403, body: FORBIDDEN },
      { path: `${base}/merge_requests/${place.mergeRequestIid}`, status: 403, body: FORBIDDEN },
      { path: `${base}/snippets/${place.snippetId}`, status: 404, body: NOT_FOUND },
      { path: `${base}/snippets/${place.snippetId}/raw`, status: 404, body: SNIPPET_NOT_FOUND },
    ]);
  });
});
