/**
 * GET /search, /groups/:id/search and /projects/:id/search over HTTP: each scope at each level,
 * what anonymous callers, non-members, members and admins see, GitLab's 400s and the pagination
 * headers. Names carry a tag unique to this run, so rows of other files never match.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, type TestUser } from '../support/api.ts';

interface Named {
  id: number;
  name?: string;
  title?: string;
  username?: string;
}

const DEVELOPER = 30;
const t = randomBytes(6).toString('hex');

let member: TestUser;
let outsider: TestUser;
let publicGroup: Named;
let privateGroup: Named;
let publicProject: Named;
let privateProject: Named;
let publicIssue: Named;
let confidentialIssue: Named;
let privateIssue: Named;

const search = (path: string, token?: string | null) => api<Named[]>('GET', path, { token });
const ids = (response: ApiResponse<Named[]>) => response.body.map((row) => row.id);

beforeAll(async () => {
  [member, outsider] = await Promise.all([createUser(), createUser()]);
  publicGroup = await must(
    api<Named>('POST', '/groups', { json: { name: `pub-${t}`, path: `pub-${t}`, visibility: 'public' } }),
    201,
  );
  privateGroup = await must(
    api<Named>('POST', '/groups', { json: { name: `hid-${t}`, path: `hid-${t}`, visibility: 'private' } }),
    201,
  );
  publicProject = await must(
    api<Named>('POST', '/projects', {
      json: { name: `alpha-${t}`, namespace_id: publicGroup.id, visibility: 'public' },
    }),
    201,
  );
  privateProject = await must(
    api<Named>('POST', '/projects', {
      json: { name: `bravo-${t}`, namespace_id: publicGroup.id, visibility: 'private' },
    }),
    201,
  );
  await must(
    api('POST', `/projects/${privateProject.id}/members`, {
      json: { user_id: member.id, access_level: DEVELOPER },
    }),
    201,
  );
  publicIssue = await must(
    api<Named>('POST', `/projects/${publicProject.id}/issues`, { json: { title: `open ${t} one` } }),
    201,
  );
  confidentialIssue = await must(
    api<Named>('POST', `/projects/${publicProject.id}/issues`, {
      json: { title: `secret ${t} two`, confidential: true },
    }),
    201,
  );
  privateIssue = await must(
    api<Named>('POST', `/projects/${privateProject.id}/issues`, { json: { title: `inner ${t} three` } }),
    201,
  );
});

describe('GET /search', () => {
  it('refuses anonymous callers as GitLab does (every search call must be authenticated)', async () => {
    const response = await search(`/search?scope=projects&search=${t}`, null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it("answers Grape's sentences for missing and invalid parameters", async () => {
    const missing = await search('/search', outsider.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'search is missing, scope is missing' });
    const invalid = await search(`/search?scope=wiki_blobs&search=${t}`, outsider.token);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'scope does not have a valid value' });
    const state = await search(`/search?scope=issues&search=${t}&state=gone`, outsider.token);
    expect(state.status).toBe(400);
    expect(state.body).toEqual({ error: 'state does not have a valid value' });
  });

  it('finds no snippet titles nor milestones for a caller who has none and reaches no project', async () => {
    const snippets = await search(`/search?scope=snippet_titles&search=${t}`, outsider.token);
    expect([snippets.status, snippets.body, snippets.headers.get('x-total')]).toEqual([200, [], '0']);
    const milestones = await search(`/search?scope=milestones&search=${t}`, outsider.token);
    expect(milestones.status).toBe(200);
    expect(milestones.body).toEqual([]);
    expect(milestones.headers.get('x-total')).toBe('0');
  });

  it("project milestones: a project's own, by title or description, newest first; a private project's → 404 to outsiders", async () => {
    const first = await must(
      api<Named>('POST', `/projects/${publicProject.id}/milestones`, { json: { title: `Release ${t}` } }),
      201,
    );
    const second = await must(
      api<Named>('POST', `/projects/${publicProject.id}/milestones`, {
        json: { title: 'sprint', description: `the RELEASE ${t} train` },
      }),
      201,
    );
    await must(
      api('POST', `/projects/${publicProject.id}/milestones`, { json: { title: 'unrelated' } }),
      201,
    );
    const found = await search(
      `/projects/${publicProject.id}/search?scope=milestones&search=release%20${t}`,
      outsider.token,
    );
    expect([found.status, ids(found), found.headers.get('x-total')]).toEqual([
      200,
      [second.id, first.id],
      '2',
    ]);
    expect(found.body[1]).toMatchObject({
      id: first.id,
      title: `Release ${t}`,
      project_id: publicProject.id,
      state: 'active',
    });
    const hidden = await search(
      `/projects/${privateProject.id}/search?scope=milestones&search=${t}`,
      outsider.token,
    );
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('projects: each caller sees exactly the projects the list shows them, newest first', async () => {
    const path = `/search?scope=projects&search=${t}`;
    const [asOutsider, asMember, asAdmin] = await Promise.all([
      search(path, outsider.token),
      search(path, member.token),
      search(path),
    ]);
    expect(asOutsider.status).toBe(200);
    expect(ids(asOutsider)).toEqual([publicProject.id]);
    expect(ids(asMember)).toEqual([privateProject.id, publicProject.id]);
    expect(ids(asAdmin)).toEqual([privateProject.id, publicProject.id]);
    // BasicProjectDetails, as GitLab's search answers.
    expect(Object.keys(asOutsider.body[0] as object)).not.toContain('permissions');
    expect(asOutsider.body[0]).toMatchObject({ id: publicProject.id, name: `alpha-${t}` });
    const ascending = await search(`${path}&order_by=created_at&sort=asc`, member.token);
    expect(ids(ascending)).toEqual([publicProject.id, privateProject.id]);
  });

  it('pages with the X-* headers', async () => {
    const response = await search(`/search?scope=projects&search=${t}&per_page=1`, member.token);
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([privateProject.id]);
    expect(response.headers.get('x-total')).toBe('2');
    expect(response.headers.get('x-total-pages')).toBe('2');
    expect(response.headers.get('x-page')).toBe('1');
    expect(response.headers.get('x-per-page')).toBe('1');
    expect(response.headers.get('x-next-page')).toBe('2');
    const second = await search(`/search?scope=projects&search=${t}&per_page=1&page=2`, member.token);
    expect(ids(second)).toEqual([publicProject.id]);
    expect(second.headers.get('x-next-page')).toBe('');
  });

  it('users: the basic user entity of each match', async () => {
    const response = await search(`/search?scope=users&search=${member.username}`, outsider.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: member.id,
        username: member.username,
        name: member.username,
        state: 'active',
        avatar_url: expect.stringMatching(/\/assets\/no_avatar\.png$/),
        web_url: expect.stringMatching(new RegExp(`/${member.username}$`)),
      },
    ]);
  });

  it('groups: the groups each caller may see, by name', async () => {
    const path = `/search?scope=groups&search=${t}`;
    const [asOutsider, asAdmin] = await Promise.all([search(path, outsider.token), search(path)]);
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body).toEqual([
      { id: publicGroup.id, name: `pub-${t}`, path: `pub-${t}`, description: '' },
    ]);
    expect(ids(asAdmin)).toEqual([privateGroup.id, publicGroup.id]);
  });

  it('issues: within the projects the caller is a member of, confidential ones to reporters and up', async () => {
    const path = `/search?scope=issues&search=${t}`;
    const [asOutsider, asMember, asAdmin] = await Promise.all([
      search(path, outsider.token),
      search(path, member.token),
      search(path),
    ]);
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body).toEqual([]);
    expect(ids(asMember)).toEqual([privateIssue.id]);
    // The admin created the group, so is a member of both projects.
    expect(ids(asAdmin)).toEqual([privateIssue.id, confidentialIssue.id, publicIssue.id]);
    const closed = await search(`${path}&state=closed`);
    expect(closed.body).toEqual([]);
    const confidential = await search(`${path}&confidential=true`);
    expect(ids(confidential)).toEqual([confidentialIssue.id]);
  });
});

describe('GET /groups/:id/search', () => {
  it('searches the group as each caller sees it; 404 for a group they may not see', async () => {
    const path = `/groups/${publicGroup.id}/search?scope=projects&search=${t}`;
    const [asOutsider, asMember, asAdmin] = await Promise.all([
      search(path, outsider.token),
      search(path, member.token),
      search(path),
    ]);
    expect(ids(asOutsider)).toEqual([publicProject.id]);
    expect(ids(asMember)).toEqual([privateProject.id, publicProject.id]);
    expect(ids(asAdmin)).toEqual([privateProject.id, publicProject.id]);
    const hidden = await search(
      `/groups/${privateGroup.id}/search?scope=projects&search=${t}`,
      outsider.token,
    );
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
  });

  it('issues of the readable projects under the group; users among its members', async () => {
    const issues = `/groups/${publicGroup.id}/search?scope=issues&search=${t}`;
    const [asOutsider, asMember] = await Promise.all([
      search(issues, outsider.token),
      search(issues, member.token),
    ]);
    expect(ids(asOutsider)).toEqual([publicIssue.id]);
    expect(ids(asMember)).toEqual([privateIssue.id, publicIssue.id]);
    const users = await search(`/groups/${publicGroup.id}/search?scope=users&search=${member.username}`);
    expect(users.status).toBe(200);
    // The member belongs to a project, not to the group.
    expect(users.body).toEqual([]);
  });

  it('refuses a scope GitLab does not offer for groups', async () => {
    const response = await search(`/groups/${publicGroup.id}/search?scope=groups&search=${t}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'scope does not have a valid value' });
  });
});

describe('GET /projects/:id/search', () => {
  it('issues: confidential ones only to reporters and up; 404 for a project the caller may not see', async () => {
    const path = `/projects/${publicProject.id}/search?scope=issues&search=${t}`;
    const [asOutsider, asAdmin] = await Promise.all([search(path, outsider.token), search(path)]);
    expect(asOutsider.status).toBe(200);
    expect(ids(asOutsider)).toEqual([publicIssue.id]);
    expect(asOutsider.body[0]).toMatchObject({ title: `open ${t} one`, project_id: publicProject.id });
    expect(asOutsider.headers.get('x-total')).toBe('1');
    expect(ids(asAdmin)).toEqual([confidentialIssue.id, publicIssue.id]);
    const hidden = await search(
      `/projects/${privateProject.id}/search?scope=issues&search=${t}`,
      outsider.token,
    );
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    const asMember = await search(
      `/projects/${privateProject.id}/search?scope=issues&search=${t}`,
      member.token,
    );
    expect(ids(asMember)).toEqual([privateIssue.id]);
  });

  it('users: everyone with access whose name matches', async () => {
    const response = await search(
      `/projects/${privateProject.id}/search?scope=users&search=${member.username}`,
    );
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([member.id]);
  });

  it('answers the scopes without a feature here: empty, or refused when unindexed', async () => {
    const wiki = await search(`/projects/${publicProject.id}/search?scope=wiki_blobs&search=${t}`);
    expect(wiki.status).toBe(200);
    expect(wiki.body).toEqual([]);
    const commits = await search(`/projects/${publicProject.id}/search?scope=commits&search=${t}`);
    expect(commits.status).toBe(400);
    expect(commits.body).toEqual({ error: 'Scope not supported without Elasticsearch!' });
    const projects = await search(`/projects/${publicProject.id}/search?scope=projects&search=${t}`);
    expect(projects.status).toBe(400);
    expect(projects.body).toEqual({ error: 'scope does not have a valid value' });
  });
});
