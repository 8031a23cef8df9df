/**
 * The small reads around an issue over HTTP: its participants (author, assignees, authors of its
 * notes, each once, paginated), the merge requests that close it or are related to it (none yet:
 * an empty page for a readable issue), and the client that created an issue or a project snippet
 * (`user_agent_detail`, admins only), with the same 404s as reading the issue itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

interface UserBasic {
  id: number;
  username: string;
}

interface IssueBody {
  iid: number;
  author: UserBasic;
  assignees: UserBasic[];
}

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const DETAIL_NOT_FOUND = { message: '404 UserAgentDetail Not Found' };

/** The local gateway's source address of a request from this machine. */
const LOOPBACK = expect.stringMatching(/^(?:::ffff:)?127\.0\.0\.1$|^::1$/);

let author: TestUser;
let assignee: TestUser;
let commenter: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;

/** What a test reads of an answer: its status and body (and pagination totals for lists). */
const answer = (response: ApiResponse) => ({ status: response.status, body: response.body });
const pageOf = (response: ApiResponse) => ({
  status: response.status,
  body: response.body,
  total: response.headers.get('x-total'),
  totalPages: response.headers.get('x-total-pages'),
});

async function newProject(visibility: string): Promise<number> {
  const project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: author.token,
      json: { name: unique('Reads'), visibility },
    }),
    201,
    'project',
  );
  for (const [member, level] of [
    [reporter, 20],
    [guest, 10],
    [assignee, 10],
    [commenter, 10],
  ] as const) {
    await must(
      api('POST', `/projects/${project.id}/members`, { json: { user_id: member.id, access_level: level } }),
      201,
      'member',
    );
  }
  return project.id;
}

/** The UserBasic fields of a user, as an issue shows its author. */
async function basicOf(user: TestUser): Promise<Record<string, unknown>> {
  const full = await must(api<Record<string, unknown>>('GET', `/users/${user.id}`), 200, 'user');
  const { id, name, username, state, avatar_url, web_url } = full;
  return { id, name, username, state, avatar_url, web_url };
}

async function openIssue(
  projectId: number,
  json: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<IssueBody> {
  return must(
    api<IssueBody>('POST', `/projects/${projectId}/issues`, { token: author.token, json, headers }),
    201,
    'issue',
  );
}

beforeAll(async () => {
  [author, assignee, commenter, reporter, guest, stranger] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
}, 60_000);

describe('GET /projects/:id/issues/:issue_iid/participants', () => {
  let projectId: number;
  let issue: IssueBody;
  let expected: Record<string, unknown>[];

  beforeAll(async () => {
    projectId = await newProject('public');
    issue = await openIssue(projectId, { title: 'who takes part', assignee_ids: [assignee.id] });
    const notes = `/projects/${projectId}/issues/${issue.iid}/notes`;
    for (const writer of [commenter, author, commenter]) {
      await must(api('POST', notes, { token: writer.token, json: { body: 'a thought' } }), 201, 'note');
    }
    // Closing leaves a system note by the reporter, who takes no other part.
    await must(
      api('PUT', `/projects/${projectId}/issues/${issue.iid}`, {
        token: reporter.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    expected = await Promise.all([basicOf(author), basicOf(assignee), basicOf(commenter)]);
  });

  it('the author, the assignees, then the authors of its notes, each once (system notes left out)', async () => {
    const path = `/projects/${projectId}/issues/${issue.iid}/participants`;
    expect(pageOf(await api('GET', path, { token: guest.token }))).toEqual({
      status: 200,
      body: expected,
      total: '3',
      totalPages: '1',
    });
    expect(pageOf(await api('GET', `${path}?per_page=2&page=2`, { token: guest.token }))).toEqual({
      status: 200,
      body: expected.slice(2),
      total: '3',
      totalPages: '2',
    });
  });

  it('anonymous callers read a public project’s participants', async () => {
    const path = `/projects/${projectId}/issues/${issue.iid}/participants`;
    expect(pageOf(await api('GET', path, { token: null }))).toEqual({
      status: 200,
      body: expected,
      total: '3',
      totalPages: '1',
    });
  });

  it('404 as for the issue: unknown, confidential to a guest, a private project to outsiders', async () => {
    const unknown = await api('GET', `/projects/${projectId}/issues/999/participants`, {
      token: guest.token,
    });
    expect(answer(unknown)).toEqual({ status: 404, body: NOT_FOUND });
    const secret = await openIssue(projectId, { title: 'secret', confidential: true });
    const path = `/projects/${projectId}/issues/${secret.iid}/participants`;
    expect(answer(await api('GET', path, { token: guest.token }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(answer(await api('GET', path, { token: null }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(answer(await api('GET', path, { token: reporter.token }))).toEqual({
      status: 200,
      body: [await basicOf(author)],
    });
    const hidden = await newProject('private');
    const inside = await openIssue(hidden, { title: 'inside' });
    const privatePath = `/projects/${hidden}/issues/${inside.iid}/participants`;
    expect(answer(await api('GET', privatePath, { token: stranger.token }))).toEqual({
      status: 404,
      body: PROJECT_NOT_FOUND,
    });
    expect(answer(await api('GET', privatePath, { token: null }))).toEqual({
      status: 404,
      body: PROJECT_NOT_FOUND,
    });
  });
});

describe.each(['closed_by', 'related_merge_requests'])('GET /projects/:id/issues/:issue_iid/%s', (read) => {
  it('an empty page for a readable issue, anonymous callers included (public project)', async () => {
    const projectId = await newProject('public');
    const issue = await openIssue(projectId, { title: 'closed by nothing yet' });
    const path = `/projects/${projectId}/issues/${issue.iid}/${read}`;
    const empty = { status: 200, body: [], total: '0', totalPages: '1' };
    expect(pageOf(await api('GET', path, { token: stranger.token }))).toEqual(empty);
    expect(pageOf(await api('GET', path, { token: null }))).toEqual(empty);
  });

  it('404 as for the issue: unknown, confidential to a guest and anonymous, a private project', async () => {
    const projectId = await newProject('public');
    const secret = await openIssue(projectId, { title: 'secret', confidential: true });
    const unknown = await api('GET', `/projects/${projectId}/issues/999/${read}`, { token: guest.token });
    expect(answer(unknown)).toEqual({ status: 404, body: NOT_FOUND });
    const path = `/projects/${projectId}/issues/${secret.iid}/${read}`;
    expect(answer(await api('GET', path, { token: guest.token }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(answer(await api('GET', path, { token: null }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(answer(await api('GET', path, { token: reporter.token }))).toEqual({ status: 200, body: [] });
    const hidden = await newProject('internal');
    const inside = await openIssue(hidden, { title: 'inside' });
    const internalPath = `/projects/${hidden}/issues/${inside.iid}/${read}`;
    expect(answer(await api('GET', internalPath, { token: null }))).toEqual({
      status: 404,
      body: PROJECT_NOT_FOUND,
    });
    expect(answer(await api('GET', internalPath, { token: stranger.token }))).toEqual({
      status: 200,
      body: [],
    });
  });
});

describe('GET /projects/:id/issues/:issue_iid/user_agent_detail', () => {
  it('an admin reads the creating request’s User-Agent and address', async () => {
    const projectId = await newProject('public');
    const issue = await openIssue(projectId, { title: 'from a client' }, { 'User-Agent': 'issue-reads/1.0' });
    const path = `/projects/${projectId}/issues/${issue.iid}/user_agent_detail`;
    expect(answer(await api('GET', path, { token: rootToken() }))).toEqual({
      status: 200,
      body: { user_agent: 'issue-reads/1.0', ip_address: LOOPBACK, akismet_submitted: false },
    });
  });

  it('a User-Agent longer than 1024 characters is kept cut to 1024', async () => {
    const projectId = await newProject('public');
    const long = `agent/${'x'.repeat(2000)}`;
    const issue = await openIssue(projectId, { title: 'long agent' }, { 'User-Agent': long });
    const detail = await api('GET', `/projects/${projectId}/issues/${issue.iid}/user_agent_detail`, {
      token: rootToken(),
    });
    expect(answer(detail)).toEqual({
      status: 200,
      body: { user_agent: long.slice(0, 1024), ip_address: LOOPBACK, akismet_submitted: false },
    });
  });

  it('others are refused before the issue is looked at: owner 403, anonymous 401', async () => {
    const projectId = await newProject('public');
    const issue = await openIssue(projectId, { title: 'mine' });
    for (const path of [
      `/projects/${projectId}/issues/${issue.iid}/user_agent_detail`,
      `/projects/${projectId}/issues/999/user_agent_detail`,
    ]) {
      expect(answer(await api('GET', path, { token: author.token }))).toEqual({
        status: 403,
        body: FORBIDDEN,
      });
      expect(answer(await api('GET', path, { token: null }))).toEqual({ status: 401, body: UNAUTHORIZED });
    }
    const unknown = await api('GET', `/projects/${projectId}/issues/999/user_agent_detail`, {
      token: rootToken(),
    });
    expect(answer(unknown)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('an issue whose creating request named no client → 404 UserAgentDetail Not Found', async () => {
    const projectId = await newProject('public');
    const issue = await openIssue(projectId, { title: 'no agent' }, { 'User-Agent': '' });
    const detail = await api('GET', `/projects/${projectId}/issues/${issue.iid}/user_agent_detail`, {
      token: rootToken(),
    });
    expect(answer(detail)).toEqual({ status: 404, body: DETAIL_NOT_FOUND });
  });
});

describe('GET /projects/:id/snippets/:snippet_id/user_agent_detail', () => {
  async function newSnippet(projectId: number, headers: Record<string, string>): Promise<number> {
    const snippet = await must(
      api<{ id: number }>('POST', `/projects/${projectId}/snippets`, {
        token: author.token,
        headers,
        json: { title: 'snip', file_name: 'a.txt', content: 'a', visibility: 'private' },
      }),
      201,
      'snippet',
    );
    return snippet.id;
  }

  it('an admin reads the creating request’s client, whatever the snippet’s visibility', async () => {
    const projectId = await newProject('private');
    const snippetId = await newSnippet(projectId, { 'User-Agent': 'snippet-reads/2.0' });
    const path = `/projects/${projectId}/snippets/${snippetId}/user_agent_detail`;
    expect(answer(await api('GET', path, { token: rootToken() }))).toEqual({
      status: 200,
      body: { user_agent: 'snippet-reads/2.0', ip_address: LOOPBACK, akismet_submitted: false },
    });
    expect(answer(await api('GET', path, { token: author.token }))).toEqual({ status: 403, body: FORBIDDEN });
    expect(answer(await api('GET', path, { token: null }))).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it('a snippet of another project → 404 Not found; none kept → 404 UserAgentDetail Not Found', async () => {
    const [one, other] = await Promise.all([newProject('public'), newProject('public')]);
    const snippetId = await newSnippet(one, { 'User-Agent': 'snippet-reads/2.0' });
    const elsewhere = await api('GET', `/projects/${other}/snippets/${snippetId}/user_agent_detail`, {
      token: rootToken(),
    });
    expect(answer(elsewhere)).toEqual({ status: 404, body: NOT_FOUND });
    const bare = await newSnippet(one, { 'User-Agent': '' });
    const none = await api('GET', `/projects/${one}/snippets/${bare}/user_agent_detail`, {
      token: rootToken(),
    });
    expect(answer(none)).toEqual({ status: 404, body: DETAIL_NOT_FOUND });
  });
});
