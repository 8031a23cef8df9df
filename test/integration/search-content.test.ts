/**
 * The search scopes over what hangs on projects, over HTTP: a project's notes, milestones in a
 * group and globally, and snippet titles globally — what non-members, members, admins and
 * anonymous callers find, and GitLab's 400 for a scope a level does not offer. Texts carry a tag
 * unique to this run, so rows of other files never match.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, type TestUser } from '../support/api.ts';

interface Row {
  id: number;
  iid?: number;
  title?: string;
  body?: string;
  path_with_namespace?: string;
}

const DEVELOPER = 30;
const t = randomBytes(6).toString('hex');

let member: TestUser;
let outsider: TestUser;
let group: Row;
let publicProject: Row;
let privateProject: Row;
let openIssue: Row;
let publicIssueNote: Row;
let confidentialIssueNote: Row;
let mergeRequestNote: Row;
let publicSnippetNote: Row;
let privateSnippetNote: Row;
let privateProjectNote: Row;

const search = (path: string, token?: string | null) => api<Row[]>('GET', path, { token });
const ids = (response: ApiResponse<Row[]>) => response.body.map((row) => row.id);
const post = <T = Row>(path: string, json: Record<string, unknown>, token?: string) =>
  must(api<T>('POST', path, { json, token }), 201, path);

beforeAll(async () => {
  [member, outsider] = await Promise.all([createUser(), createUser()]);
  group = await post('/groups', { name: `cs-${t}`, path: `cs-${t}`, visibility: 'public' });
  [publicProject, privateProject] = await Promise.all([
    post('/projects', { name: `open-${t}`, namespace_id: group.id, visibility: 'public' }),
    post('/projects', { name: `closed-${t}`, namespace_id: group.id, visibility: 'private' }),
  ]);
  await post(`/projects/${privateProject.id}/members`, { user_id: member.id, access_level: DEVELOPER });
  const base = `/projects/${publicProject.id}`;
  openIssue = await post(`${base}/issues`, { title: 'an open issue' });
  const secret = await post(`${base}/issues`, { title: 'a secret issue', confidential: true });
  const mergeRequest = await post(`${base}/merge_requests`, {
    source_branch: `feature-${t}`,
    target_branch: 'master',
    title: 'a change',
  });
  const publicSnippet = await post(`${base}/snippets`, {
    title: 'open snippet',
    file_name: 'a.rb',
    content: 'a',
    visibility: 'public',
  });
  const privateSnippet = await post(`${base}/snippets`, {
    title: 'closed snippet',
    file_name: 'b.rb',
    content: 'b',
    visibility: 'private',
  });
  const privateIssue = await post(`/projects/${privateProject.id}/issues`, { title: 'inner issue' });
  // One after another, so their updated times order them.
  publicIssueNote = await post(`${base}/issues/${openIssue.iid}/notes`, { body: `Needle-${t} on an issue` });
  confidentialIssueNote = await post(`${base}/issues/${secret.iid}/notes`, {
    body: `needle-${t} kept secret`,
  });
  mergeRequestNote = await post(`${base}/merge_requests/${mergeRequest.iid}/notes`, {
    body: `a NEEDLE-${t} in review`,
  });
  publicSnippetNote = await post(`${base}/snippets/${publicSnippet.id}/notes`, {
    body: `needle-${t} on code`,
  });
  privateSnippetNote = await post(`${base}/snippets/${privateSnippet.id}/notes`, {
    body: `needle-${t} on hidden code`,
  });
  await post(`${base}/issues/${openIssue.iid}/notes`, { body: 'nothing to find here' });
  privateProjectNote = await post(`/projects/${privateProject.id}/issues/${privateIssue.iid}/notes`, {
    body: `needle-${t} inside`,
  });
});

describe('GET /projects/:id/search?scope=notes', () => {
  it('finds the notes whose body holds the term, last updated first, as GitLab’s Note', async () => {
    const found = await search(`/projects/${publicProject.id}/search?scope=notes&search=needle-${t}`);
    expect([found.status, ids(found), found.headers.get('x-total')]).toEqual([
      200,
      [
        privateSnippetNote.id,
        publicSnippetNote.id,
        mergeRequestNote.id,
        confidentialIssueNote.id,
        publicIssueNote.id,
      ],
      '5',
    ]);
    expect(found.body[4]).toEqual({
      id: publicIssueNote.id,
      type: null,
      body: `Needle-${t} on an issue`,
      attachment: null,
      author: expect.objectContaining({ username: 'root' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      system: false,
      noteable_id: expect.any(Number),
      noteable_type: 'Issue',
      noteable_iid: openIssue.iid,
      resolvable: false,
    });
  });

  it('shows a non-member only what they may read: no confidential issue, no private snippet', async () => {
    const found = await search(
      `/projects/${publicProject.id}/search?scope=notes&search=needle-${t}`,
      outsider.token,
    );
    expect([found.status, ids(found), found.headers.get('x-total')]).toEqual([
      200,
      [publicSnippetNote.id, mergeRequestNote.id, publicIssueNote.id],
      '3',
    ]);
  });

  it('finds nothing for a term no note holds, nor in system notes', async () => {
    const none = await search(`/projects/${publicProject.id}/search?scope=notes&search=absent-${t}`);
    expect([none.status, none.body, none.headers.get('x-total')]).toEqual([200, [], '0']);
    await must(
      api('PUT', `/projects/${publicProject.id}/issues/${openIssue.iid}`, { json: { state_event: 'close' } }),
      200,
    );
    const system = await search(`/projects/${publicProject.id}/search?scope=notes&search=closed`);
    expect([system.status, system.body]).toEqual([200, []]);
  });

  it("keeps a private project's notes from non-members (404) and anonymous callers (401)", async () => {
    const path = `/projects/${privateProject.id}/search?scope=notes&search=needle-${t}`;
    const hidden = await search(path, outsider.token);
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const anonymous = await search(path, null);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const found = await search(path, member.token);
    expect([found.status, ids(found)]).toEqual([200, [privateProjectNote.id]]);
  });

  it('answers 400 for a scope a level does not offer', async () => {
    const refused = { error: 'scope does not have a valid value' };
    const inGroup = await search(`/groups/${group.id}/search?scope=notes&search=needle-${t}`);
    expect([inGroup.status, inGroup.body]).toEqual([400, refused]);
    const global = await search(`/search?scope=notes&search=needle-${t}`);
    expect([global.status, global.body]).toEqual([400, refused]);
    const snippets = await search(`/projects/${publicProject.id}/search?scope=snippet_titles&search=${t}`);
    expect([snippets.status, snippets.body]).toEqual([400, refused]);
  });
});

describe('scope=milestones in a group and globally', () => {
  let publicMilestone: Row;
  let privateMilestone: Row;

  beforeAll(async () => {
    publicMilestone = await post(`/projects/${publicProject.id}/milestones`, { title: `ms-${t} one` });
    privateMilestone = await post(`/projects/${privateProject.id}/milestones`, {
      title: 'two',
      description: `the MS-${t} plan`,
    });
    await post(`/projects/${publicProject.id}/milestones`, { title: `other-${t}` });
    await post(`/groups/${group.id}/milestones`, { title: `ms-${t} of the group` });
  });

  it("finds the milestones of the group's projects each caller sees, last updated first", async () => {
    const path = `/groups/${group.id}/search?scope=milestones&search=ms-${t}`;
    const byMember = await search(path, member.token);
    expect([byMember.status, ids(byMember), byMember.headers.get('x-total')]).toEqual([
      200,
      [privateMilestone.id, publicMilestone.id],
      '2',
    ]);
    expect(byMember.body[1]).toMatchObject({
      id: publicMilestone.id,
      iid: publicMilestone.iid,
      project_id: publicProject.id,
      title: `ms-${t} one`,
      state: 'active',
      expired: false,
      web_url: expect.stringMatching(new RegExp(`/cs-${t}/open-${t}/-/milestones/${publicMilestone.iid}$`)),
    });
    const byOutsider = await search(path, outsider.token);
    expect([byOutsider.status, ids(byOutsider)]).toEqual([200, [publicMilestone.id]]);
    const none = await search(`/groups/${group.id}/search?scope=milestones&search=absent-${t}`);
    expect([none.status, none.body, none.headers.get('x-total')]).toEqual([200, [], '0']);
  });

  it('finds globally the milestones of the projects the caller is a member of', async () => {
    const path = `/search?scope=milestones&search=ms-${t}`;
    const byAdmin = await search(path);
    expect([byAdmin.status, ids(byAdmin)]).toEqual([200, [privateMilestone.id, publicMilestone.id]]);
    const byMember = await search(path, member.token);
    expect([byMember.status, ids(byMember)]).toEqual([200, [privateMilestone.id]]);
    const byOutsider = await search(path, outsider.token);
    expect([byOutsider.status, byOutsider.body, byOutsider.headers.get('x-total')]).toEqual([200, [], '0']);
  });
});

describe('GET /search?scope=snippet_titles', () => {
  let openPersonal: Row;
  let ownPrivate: Row;
  let othersPrivate: Row;
  let inPrivateProject: Row;

  beforeAll(async () => {
    const snippet = (title: string, visibility: string, extra: Record<string, unknown> = {}) => ({
      title,
      file_name: 'x.txt',
      content: 'x',
      visibility,
      ...extra,
    });
    openPersonal = await post('/snippets', snippet(`snip-${t} alpha`, 'public'), member.token);
    ownPrivate = await post(
      '/snippets',
      snippet('bravo', 'private', { description: `SNIP-${t}` }),
      member.token,
    );
    othersPrivate = await post('/snippets', snippet(`snip-${t} charlie`, 'private'), outsider.token);
    inPrivateProject = await post(
      `/projects/${privateProject.id}/snippets`,
      snippet(`snip-${t} delta`, 'private'),
    );
    await post('/snippets', snippet(`other-${t}`, 'public'), member.token);
  });

  it('finds the personal snippets a caller may read and the snippets of their projects, last updated first', async () => {
    const byMember = await search(`/search?scope=snippet_titles&search=snip-${t}`, member.token);
    expect([byMember.status, ids(byMember), byMember.headers.get('x-total')]).toEqual([
      200,
      [inPrivateProject.id, ownPrivate.id, openPersonal.id],
      '3',
    ]);
    expect(byMember.body[2]).toMatchObject({
      id: openPersonal.id,
      title: `snip-${t} alpha`,
      visibility: 'public',
      project_id: null,
      author: expect.objectContaining({ id: member.id }),
      file_name: 'x.txt',
    });
    expect(byMember.body[0]).toMatchObject({
      id: inPrivateProject.id,
      project_id: privateProject.id,
      web_url: expect.stringMatching(new RegExp(`/cs-${t}/closed-${t}/snippets/${inPrivateProject.id}$`)),
    });
  });

  it("never shows another user's private snippet nor a project's the caller is no member of", async () => {
    const byOutsider = await search(`/search?scope=snippet_titles&search=snip-${t}`, outsider.token);
    expect([byOutsider.status, ids(byOutsider)]).toEqual([200, [othersPrivate.id, openPersonal.id]]);
    const none = await search(`/search?scope=snippet_titles&search=absent-${t}`, outsider.token);
    expect([none.status, none.body, none.headers.get('x-total')]).toEqual([200, [], '0']);
    const anonymous = await search(`/search?scope=snippet_titles&search=snip-${t}`, null);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});
