/**
 * Project issues over HTTP: creating (what each caller may set), listing with filters and orders,
 * reading (confidential ones only for those who may), closing and reopening with their system
 * notes, deleting with the notes, projects with issues switched off, the exact open_issues_count,
 * and no 5xx for anything a client sends.
 */
import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiResponse, api, createUser, idle, must, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, localDatabase } from '../support/db.ts';

interface UserBasic {
  id: number;
  name: string;
  username: string;
  state: string;
  avatar_url: string;
  web_url: string;
}

interface IssueBody {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: UserBasic | null;
  labels: string[];
  assignees: UserBasic[];
  author: UserBasic;
  assignee: UserBasic | null;
  user_notes_count: number;
  confidential: boolean;
  due_date: string | null;
  discussion_locked: boolean | null;
}

interface NoteBody {
  id: number;
  body: string;
  system: boolean;
  author: { id: number; username: string };
  created_at: string;
  updated_at: string;
  noteable_id: number;
  noteable_iid: number;
  noteable_type: string;
}

interface ProjectBody {
  id: number;
  path_with_namespace: string;
  open_issues_count: number;
}

interface Person {
  id: number;
  username: string;
  name: string;
  token: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let baseUrl: string;
let root: Person;

const person = (user: TestUser): Person => ({ ...user, name: user.username });

const basic = (user: { id: number; username: string; name: string }): UserBasic => ({
  id: user.id,
  name: user.name,
  username: user.username,
  state: 'active',
  avatar_url: `${baseUrl}/assets/no_avatar.png`,
  web_url: `${baseUrl}/${user.username}`,
});

/** The whole Issue entity GitLab answers with. */
function issueView(
  project: ProjectBody,
  fields: {
    id: number;
    iid: number;
    title: string;
    author: Person;
    created_at: string;
    updated_at: string;
    description?: string | null;
    state?: 'opened' | 'closed';
    closed_at?: string | null;
    closed_by?: Person | null;
    labels?: string[];
    assignees?: Person[];
    user_notes_count?: number;
    due_date?: string | null;
    confidential?: boolean;
    discussion_locked?: boolean | null;
  },
) {
  const self = `${baseUrl}/api/v4/projects/${project.id}/issues/${fields.iid}`;
  const assignees = (fields.assignees ?? []).map(basic);
  return {
    id: fields.id,
    iid: fields.iid,
    project_id: project.id,
    title: fields.title,
    description: fields.description ?? null,
    state: fields.state ?? 'opened',
    created_at: fields.created_at,
    updated_at: fields.updated_at,
    closed_at: fields.closed_at ?? null,
    closed_by: fields.closed_by ? basic(fields.closed_by) : null,
    labels: fields.labels ?? [],
    milestone: null,
    assignees,
    author: basic(fields.author),
    assignee: assignees[0] ?? null,
    user_notes_count: fields.user_notes_count ?? 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: fields.due_date ?? null,
    confidential: fields.confidential ?? false,
    discussion_locked: fields.discussion_locked ?? null,
    web_url: `${baseUrl}/${project.path_with_namespace}/issues/${fields.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    weight: null,
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${baseUrl}/api/v4/projects/${project.id}`,
    },
    subscribed: false,
  };
}

/** A time the server stamped between `since` and now. */
function expectRecent(value: string, since: number) {
  expect(value).toMatch(ISO);
  const at = Date.parse(value);
  expect(at).toBeGreaterThanOrEqual(since - 5);
  expect(at).toBeLessThanOrEqual(Date.now() + 5);
}

async function createProject(owner: Person, fields: Record<string, unknown> = {}): Promise<ProjectBody> {
  return must(
    api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Tracker'), visibility: 'public', ...fields },
    }),
    201,
    'project',
  );
}

async function addMember(projectId: number, user: Person, level: number) {
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'member',
  );
}

async function openIssue(
  projectId: number,
  token: string,
  json: Record<string, unknown>,
): Promise<IssueBody> {
  return must(api<IssueBody>('POST', `/projects/${projectId}/issues`, { token, json }), 201, 'issue');
}

const openIssuesCount = async (projectId: number) =>
  (await must(api<ProjectBody>('GET', `/projects/${projectId}`), 200, 'project')).open_issues_count;

const NOT_FOUND = { message: '404 Not found' };
const FORBIDDEN = { message: '403 Forbidden' };

let owner: Person;
let reporter: Person;
let guest: Person;
let stranger: Person;
let project: ProjectBody;

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  const me = await must(api<{ id: number; username: string; name: string }>('GET', '/user'), 200, 'root');
  root = { id: me.id, username: me.username, name: me.name, token: inject('rootToken') };
  [owner, reporter, guest, stranger] = (
    await Promise.all([createUser(), createUser(), createUser(), createUser()])
  ).map(person) as [Person, Person, Person, Person];
  project = await createProject(owner);
  await addMember(project.id, reporter, 20);
  await addMember(project.id, guest, 10);
});

describe('POST /projects/:id/issues', () => {
  it('title is required, not blank, at most 255 characters; nothing is created', async () => {
    const fresh = await createProject(owner);
    const path = `/projects/${fresh.id}/issues`;
    const missing = await api('POST', path, { token: owner.token, json: { description: 'no title' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });
    const blank = await api('POST', path, { token: owner.token, json: { title: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { title: ["can't be blank"] } });
    const long = await api('POST', path, { token: owner.token, json: { title: 't'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
    const list = await api('GET', path, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(list.headers.get('x-total')).toBe('0');
    expect(await openIssuesCount(fresh.id)).toBe(0);
  });

  it('the owner sets every field, created_at included; GET shows the same issue', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    const created = await api<IssueBody>('POST', `/projects/${fresh.id}/issues`, {
      token: owner.token,
      json: {
        title: 'Login page crashes',
        description: 'Open /login in Safari',
        confidential: true,
        labels: 'bug, frontend,bug',
        assignee_ids: [reporter.id, owner.id],
        due_date: '2031-05-01',
        created_at: '2020-02-03T04:05:06Z',
      },
    });
    expect(created.status).toBe(201);
    const expected = issueView(fresh, {
      id: created.body.id,
      iid: 1,
      title: 'Login page crashes',
      description: 'Open /login in Safari',
      confidential: true,
      labels: ['bug', 'frontend'],
      assignees: [reporter, owner],
      due_date: '2031-05-01',
      author: owner,
      created_at: '2020-02-03T04:05:06.000Z',
      updated_at: '2020-02-03T04:05:06.000Z',
    });
    expect(created.body).toEqual(expected);
    expect(created.body.id).toBeGreaterThan(0);
    const read = await api<IssueBody>('GET', `/projects/${fresh.id}/issues/1`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
  });

  it('an admin backdates; a reporter, a guest and a signed-in non-member do not (silently)', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    await addMember(fresh.id, guest, 10);
    const byAdmin = await openIssue(fresh.id, root.token, {
      title: 'old',
      created_at: '2019-01-01T00:00:00Z',
    });
    expect(byAdmin).toEqual(
      issueView(fresh, {
        id: byAdmin.id,
        iid: 1,
        title: 'old',
        author: root,
        created_at: '2019-01-01T00:00:00.000Z',
        updated_at: '2019-01-01T00:00:00.000Z',
      }),
    );
    let iid = 1;
    for (const who of [reporter, guest, stranger]) {
      const since = Date.now();
      const made = await openIssue(fresh.id, who.token, {
        title: `by ${who.username}`,
        description: 'kept',
        created_at: '2001-01-01T00:00:00Z',
      });
      iid += 1;
      expectRecent(made.created_at, since);
      expect(made).toEqual(
        issueView(fresh, {
          id: made.id,
          iid,
          title: `by ${who.username}`,
          description: 'kept',
          author: who,
          created_at: made.created_at,
          updated_at: made.created_at,
        }),
      );
    }
    expect(await openIssuesCount(fresh.id)).toBe(4);
  });

  it('a private project: non-members get 404 Project Not Found; anonymous callers may not create (401)', async () => {
    const hidden = await createProject(owner, { visibility: 'private' });
    const refused = await api('POST', `/projects/${hidden.id}/issues`, {
      token: stranger.token,
      json: { title: 'x' },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: '404 Project Not Found' });
    const anonymous = await api('POST', `/projects/${project.id}/issues`, {
      token: null,
      json: { title: 'x' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    const hiddenList = await api('GET', `/projects/${hidden.id}/issues`, { token: null });
    expect(hiddenList.status).toBe(404);
    expect(hiddenList.body).toEqual({ message: '404 Project Not Found' });
  });

  it('an archived project takes no changes to its issues', async () => {
    const archived = await createProject(owner);
    const issue = await openIssue(archived.id, owner.token, { title: 'before archiving' });
    await must(api('POST', `/projects/${archived.id}/archive`, { token: owner.token }), 201, 'archive');
    const change = await api('PUT', `/projects/${archived.id}/issues/${issue.iid}`, {
      token: owner.token,
      json: { state_event: 'close' },
    });
    expect(change.status).toBe(403);
    expect(change.body).toEqual(FORBIDDEN);
    const removal = await api('DELETE', `/projects/${archived.id}/issues/${issue.iid}`, {
      token: owner.token,
    });
    expect(removal.status).toBe(403);
    expect(removal.body).toEqual(FORBIDDEN);
    const read = await api<IssueBody>('GET', `/projects/${archived.id}/issues/${issue.iid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(issue);
  });
});

describe('GET /projects/:id/issues', () => {
  let tracker: ProjectBody;
  /** iid → issue as created; created times 2021-01-0<iid>, so created order is iid order. */
  const made = new Map<number, IssueBody>();

  const iidsOf = (response: ApiResponse<IssueBody[]>) => response.body.map((issue) => issue.iid);

  async function list(query: string, token = owner.token) {
    const response = await api<IssueBody[]>('GET', `/projects/${tracker.id}/issues${query}`, { token });
    expect(response.status, response.text).toBe(200);
    return response;
  }

  beforeAll(async () => {
    tracker = await createProject(owner);
    await addMember(tracker.id, reporter, 20);
    await addMember(tracker.id, guest, 10);
    const specs: Record<string, unknown>[] = [
      { title: 'Crash on login', labels: ['bug', 'ui'], description: 'Safari only' },
      { title: 'Slow search', labels: ['performance'] },
      { title: 'Secret leak', labels: ['bug', 'security'], confidential: true },
      { title: 'Dark mode', labels: ['ui', 'feature'], description: 'Users ask for a DARK theme' },
      { title: 'Typo in footer', labels: [] },
      { title: 'Guest secret', confidential: true, labels: ['bug'] },
    ];
    for (const [index, spec] of specs.entries()) {
      // The sixth is the guest's own confidential issue; the owner backdates the rest.
      const author = index === 5 ? guest : owner;
      const issue = await openIssue(tracker.id, author.token, {
        ...spec,
        created_at: `2021-01-0${index + 1}T00:00:00Z`,
      });
      made.set(issue.iid, issue);
    }
    for (const iid of [2, 5]) {
      await must(
        api('PUT', `/projects/${tracker.id}/issues/${iid}`, {
          token: owner.token,
          json: { state_event: 'close' },
        }),
        200,
        'close',
      );
    }
  });

  it('newest first by default, with pagination headers; sort=asc is the reverse', async () => {
    const all = await list('');
    expect(iidsOf(all)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(all.headers.get('x-total')).toBe('6');
    expect(all.headers.get('x-total-pages')).toBe('1');
    expect(all.headers.get('x-per-page')).toBe('20');
    const asc = await list('?sort=asc');
    expect(iidsOf(asc)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(asc.body).toEqual([...all.body].reverse());
    // Each item is the issue as GET shows it.
    for (const item of all.body) {
      const one = await api<IssueBody>('GET', `/projects/${tracker.id}/issues/${item.iid}`, {
        token: owner.token,
      });
      expect(one.status).toBe(200);
      expect(item).toEqual(one.body);
    }
  });

  it('pages: per_page=4 gives two pages with GitLab headers', async () => {
    const first = await list('?per_page=4');
    expect(iidsOf(first)).toEqual([6, 5, 4, 3]);
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await list('?per_page=4&page=2');
    expect(iidsOf(second)).toEqual([2, 1]);
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('state=opened, closed and all, each with its own X-Total', async () => {
    const opened = await list('?state=opened');
    expect(iidsOf(opened)).toEqual([6, 4, 3, 1]);
    expect(opened.headers.get('x-total')).toBe('4');
    expect(opened.body.every((issue) => issue.state === 'opened')).toBe(true);
    const closed = await list('?state=closed');
    expect(iidsOf(closed)).toEqual([5, 2]);
    expect(closed.headers.get('x-total')).toBe('2');
    for (const issue of closed.body) {
      expect(issue.state).toBe('closed');
      expect(issue.closed_by).toEqual(basic(owner));
      expect(issue.closed_at).toMatch(ISO);
    }
    const all = await list('?state=all');
    expect(iidsOf(all)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('labels: every label named must be on the issue; state and labels combine', async () => {
    // The guest's labels on issue 6 were dropped: only reporters and up set them.
    expect(made.get(6)?.labels).toEqual([]);
    expect(iidsOf(await list('?labels=bug'))).toEqual([3, 1]);
    expect(iidsOf(await list('?labels=bug,ui'))).toEqual([1]);
    expect(iidsOf(await list('?labels[]=ui&labels[]=feature'))).toEqual([4]);
    expect(iidsOf(await list('?labels=nope'))).toEqual([]);
    const closedPerformance = await list('?labels=performance&state=closed');
    expect(iidsOf(closedPerformance)).toEqual([2]);
    expect(closedPerformance.headers.get('x-total')).toBe('1');
  });

  it('search: case-insensitive, in titles and descriptions', async () => {
    expect(iidsOf(await list('?search=SECRET'))).toEqual([6, 3]);
    expect(iidsOf(await list('?search=dark%20theme'))).toEqual([4]);
    expect(iidsOf(await list('?search=safari&state=opened'))).toEqual([1]);
    const none = await list('?search=nothing-like-this');
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total')).toBe('0');
  });

  it('confidential=true and false', async () => {
    const secret = await list('?confidential=true');
    expect(iidsOf(secret)).toEqual([6, 3]);
    expect(secret.headers.get('x-total')).toBe('2');
    expect(iidsOf(await list('?confidential=false'))).toEqual([5, 4, 2, 1]);
  });

  it('order_by=updated_at follows changes; created_at order does not move', async () => {
    expect(iidsOf(await list('?order_by=updated_at'))).toEqual([5, 2, 6, 4, 3, 1]);
    await must(
      api('PUT', `/projects/${tracker.id}/issues/3`, { token: owner.token, json: { title: 'Secret leak!' } }),
      200,
      'edit',
    );
    expect(iidsOf(await list('?order_by=updated_at'))).toEqual([3, 5, 2, 6, 4, 1]);
    expect(iidsOf(await list('?order_by=updated_at&sort=asc'))).toEqual([1, 4, 6, 2, 5, 3]);
    expect(iidsOf(await list('?order_by=created_at'))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('confidential issues are hidden from guests and non-members, except their own', async () => {
    const forGuest = await list('', guest.token);
    expect(iidsOf(forGuest)).toEqual([6, 5, 4, 2, 1]);
    expect(forGuest.headers.get('x-total')).toBe('5');
    const forStranger = await list('', stranger.token);
    expect(iidsOf(forStranger)).toEqual([5, 4, 2, 1]);
    expect(forStranger.headers.get('x-total')).toBe('4');
    expect(iidsOf(await list('?confidential=true', stranger.token))).toEqual([]);
    expect(iidsOf(await list('', reporter.token))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(iidsOf(await list('', root.token))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('bad list parameters are 400 in Grape’s words', async () => {
    const cases: [string, unknown][] = [
      ['?state=merged', { error: 'state does not have a valid value' }],
      ['?order_by=title', { error: 'order_by does not have a valid value' }],
      ['?sort=sideways', { error: 'sort does not have a valid value' }],
      ['?confidential=maybe', { error: 'confidential is invalid' }],
      ['?page=first', { error: 'page is invalid' }],
      ['?iids[]=x', { error: 'iids is invalid' }],
      [`?search=${'s'.repeat(256)}`, { message: { search: ['is too long (maximum is 255 characters)'] } }],
    ];
    for (const [query, body] of cases) {
      const response = await api('GET', `/projects/${tracker.id}/issues${query}`, { token: owner.token });
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual(body);
    }
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('unknown iid → 404 Not found; a confidential issue → 404 for guests and non-members', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    await addMember(fresh.id, guest, 10);
    const assignee = person(await createUser());
    const secret = await openIssue(fresh.id, owner.token, {
      title: 'hidden',
      confidential: true,
      assignee_ids: [assignee.id],
    });
    const unknown = await api('GET', `/projects/${fresh.id}/issues/99`, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    for (const who of [guest, stranger]) {
      const hidden = await api('GET', `/projects/${fresh.id}/issues/${secret.iid}`, { token: who.token });
      expect(hidden.status, who.username).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
    }
    for (const who of [reporter, assignee, root]) {
      const shown = await api<IssueBody>('GET', `/projects/${fresh.id}/issues/${secret.iid}`, {
        token: who.token,
      });
      expect(shown.status, who.username).toBe(200);
      expect(shown.body).toEqual(secret);
    }
  });
});

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('close and reopen record "closed" and "reopened" system notes; a repeated event changes nothing', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    const issue = await openIssue(fresh.id, owner.token, { title: 'Flaky test' });
    const path = `/projects/${fresh.id}/issues/${issue.iid}`;

    const since = Date.now();
    const closed = await api<IssueBody>('PUT', path, {
      token: reporter.token,
      json: { state_event: 'close' },
    });
    expect(closed.status).toBe(200);
    expectRecent(closed.body.closed_at as string, since);
    expect(closed.body).toEqual(
      issueView(fresh, {
        id: issue.id,
        iid: issue.iid,
        title: 'Flaky test',
        author: owner,
        created_at: issue.created_at,
        updated_at: closed.body.closed_at as string,
        state: 'closed',
        closed_at: closed.body.closed_at,
        closed_by: reporter,
      }),
    );
    expect(await openIssuesCount(fresh.id)).toBe(0);

    const again = await api<IssueBody>('PUT', path, { token: owner.token, json: { state_event: 'close' } });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('closed');
    expect(again.body.closed_by).toEqual(basic(reporter));
    expect(again.body.closed_at).toBe(closed.body.closed_at);

    const reopened = await api<IssueBody>('PUT', path, {
      token: owner.token,
      json: { state_event: 'reopen', title: 'Flaky test (again)' },
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual(
      issueView(fresh, {
        id: issue.id,
        iid: issue.iid,
        title: 'Flaky test (again)',
        author: owner,
        created_at: issue.created_at,
        updated_at: reopened.body.updated_at,
      }),
    );
    expectRecent(reopened.body.updated_at, since);
    expect(await openIssuesCount(fresh.id)).toBe(1);

    const notes = await api<NoteBody[]>('GET', `${path}/notes?sort=asc`, { token: owner.token });
    expect(notes.status).toBe(200);
    expect(notes.headers.get('x-total')).toBe('2');
    const author = (user: Person) => ({
      ...basic(user),
      email: expect.stringContaining('@'),
      created_at: expect.stringMatching(ISO),
    });
    expect(notes.body).toEqual([
      {
        id: expect.any(Number),
        type: null,
        body: 'closed',
        attachment: null,
        author: author(reporter),
        created_at: closed.body.closed_at,
        updated_at: closed.body.closed_at,
        system: true,
        noteable_id: issue.id,
        noteable_type: 'Issue',
        noteable_iid: issue.iid,
        resolvable: false,
      },
      {
        id: expect.any(Number),
        type: null,
        body: 'reopened',
        attachment: null,
        author: author(owner),
        created_at: reopened.body.updated_at,
        updated_at: reopened.body.updated_at,
        system: true,
        noteable_id: issue.id,
        noteable_type: 'Issue',
        noteable_iid: issue.iid,
        resolvable: false,
      },
    ]);
    // System notes are not the users' notes.
    const read = await api<IssueBody>('GET', path, { token: owner.token });
    expect(read.body.user_notes_count).toBe(0);
    expect(read.body).toEqual(reopened.body);
  });

  it('changes only the fields sent; assignee_ids [] clears the assignees', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    const issue = await openIssue(fresh.id, owner.token, {
      title: 'Old',
      description: 'old text',
      labels: ['a'],
      assignee_ids: [reporter.id],
    });
    const changed = await api<IssueBody>('PUT', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
      json: { labels: 'b,c', description: 'new text', assignee_ids: [], confidential: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual(
      issueView(fresh, {
        id: issue.id,
        iid: issue.iid,
        title: 'Old',
        description: 'new text',
        labels: ['b', 'c'],
        confidential: true,
        author: owner,
        created_at: issue.created_at,
        updated_at: changed.body.updated_at,
      }),
    );
    expect(changed.body.updated_at > issue.updated_at).toBe(true);
  });

  it('reporters, the author and assignees change an issue; other guests and non-members get 403', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, guest, 10);
    const otherGuest = person(await createUser());
    await addMember(fresh.id, otherGuest, 10);
    const issue = await openIssue(fresh.id, guest.token, { title: 'mine' });
    for (const who of [otherGuest, stranger]) {
      const refused = await api('PUT', `/projects/${fresh.id}/issues/${issue.iid}`, {
        token: who.token,
        json: { title: 'theirs' },
      });
      expect(refused.status, who.username).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    const byAuthor = await api<IssueBody>('PUT', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: guest.token,
      json: { state_event: 'close' },
    });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body.state).toBe('closed');
    const unknown = await api('PUT', `/projects/${fresh.id}/issues/404`, {
      token: owner.token,
      json: { title: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('owners and admins only; the issue and its notes are gone', async () => {
    const fresh = await createProject(owner);
    await addMember(fresh.id, reporter, 20);
    await addMember(fresh.id, { ...stranger }, 40);
    const issue = await openIssue(fresh.id, reporter.token, { title: 'to delete' });
    const path = `/projects/${fresh.id}/issues/${issue.iid}`;
    for (const body of ['one', 'two', 'three'])
      await must(api('POST', `${path}/notes`, { token: reporter.token, json: { body } }), 201, 'note');
    await must(api('PUT', path, { token: reporter.token, json: { state_event: 'close' } }), 200, 'close');
    await must(api('PUT', path, { token: reporter.token, json: { state_event: 'reopen' } }), 200, 'reopen');
    const { db, table } = localDatabase();
    const partition = async () =>
      (
        await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `ISSUE#${fresh.id}#${issue.iid}` },
            ConsistentRead: true,
          }),
        )
      ).Items ?? [];
    // The issue and its five notes (two system notes), beside its counter shards and rollup.
    const notCounters = async () =>
      (await partition()).filter((item) => !String(item.sk).startsWith('COUNT'));
    expect((await notCounters()).length).toBe(6);

    // The author (a reporter) and a maintainer may not.
    for (const who of [reporter, stranger]) {
      const refused = await api('DELETE', path, { token: who.token });
      expect(refused.status, who.username).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    expect(await openIssuesCount(fresh.id)).toBe(1);

    const removed = await api('DELETE', path, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    // Only the deletion marks stay (they refuse a late note until TTL ends them): on the counter
    // shards at once, on the rollup once the stream has reached its consumer.
    await idle();
    expect(await itemsLeft(`ISSUE#${fresh.id}#${issue.iid}`)).toEqual([]);
    const gone = await api('GET', path, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
    const notes = await api('GET', `${path}/notes`, { token: owner.token });
    expect(notes.status).toBe(404);
    expect(notes.body).toEqual(NOT_FOUND);
    const twice = await api('DELETE', path, { token: owner.token });
    expect(twice.status).toBe(404);
    expect(twice.body).toEqual(NOT_FOUND);
    expect(await openIssuesCount(fresh.id)).toBe(0);
    const list = await api('GET', `/projects/${fresh.id}/issues`, { token: owner.token });
    expect(list.body).toEqual([]);
    expect(list.headers.get('x-total')).toBe('0');

    // An admin deletes too; the next issue still takes the next iid.
    const next = await openIssue(fresh.id, owner.token, { title: 'next' });
    expect(next.iid).toBe(2);
    const byAdmin = await api('DELETE', `/projects/${fresh.id}/issues/2`);
    expect(byAdmin.status).toBe(204);
  });
});

describe('a project with issues switched off', () => {
  it('lists none, reads none (404), creates none (403), and its notes are 404', async () => {
    const fresh = await createProject(owner);
    const issue = await openIssue(fresh.id, owner.token, { title: 'before' });
    await must(
      api('PUT', `/projects/${fresh.id}`, { token: owner.token, json: { issues_enabled: false } }),
      200,
      'disable',
    );
    for (const who of [owner, root]) {
      const list = await api('GET', `/projects/${fresh.id}/issues`, { token: who.token });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      expect(list.headers.get('x-total')).toBe('0');
      const one = await api('GET', `/projects/${fresh.id}/issues/${issue.iid}`, { token: who.token });
      expect(one.status).toBe(404);
      expect(one.body).toEqual(NOT_FOUND);
      const create = await api('POST', `/projects/${fresh.id}/issues`, {
        token: who.token,
        json: { title: 'x' },
      });
      expect(create.status).toBe(403);
      expect(create.body).toEqual(FORBIDDEN);
      const notes = await api('GET', `/projects/${fresh.id}/issues/${issue.iid}/notes`, { token: who.token });
      expect(notes.status).toBe(404);
      expect(notes.body).toEqual(NOT_FOUND);
      const note = await api('POST', `/projects/${fresh.id}/issues/${issue.iid}/notes`, {
        token: who.token,
        json: { body: 'x' },
      });
      expect(note.status).toBe(404);
      expect(note.body).toEqual(NOT_FOUND);
    }
    await must(
      api('PUT', `/projects/${fresh.id}`, { token: owner.token, json: { issues_enabled: true } }),
      200,
      'enable',
    );
    const back = await api<IssueBody>('GET', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
    });
    expect(back.status).toBe(200);
    expect(back.body).toEqual(issue);
  });
});

describe('open_issues_count on GET /projects/:id', () => {
  it('is exact through creating, closing, reopening and deleting', async () => {
    const fresh = await createProject(owner);
    expect(await openIssuesCount(fresh.id)).toBe(0);
    for (const title of ['a', 'b', 'c', 'd']) await openIssue(fresh.id, owner.token, { title });
    expect(await openIssuesCount(fresh.id)).toBe(4);
    const put = (iid: number, state_event: string) =>
      must(
        api('PUT', `/projects/${fresh.id}/issues/${iid}`, { token: owner.token, json: { state_event } }),
        200,
        state_event,
      );
    await put(1, 'close');
    await put(2, 'close');
    expect(await openIssuesCount(fresh.id)).toBe(2);
    await put(2, 'close');
    await put(3, 'reopen');
    expect(await openIssuesCount(fresh.id)).toBe(2);
    await put(2, 'reopen');
    expect(await openIssuesCount(fresh.id)).toBe(3);
    // Deleting a closed issue leaves the count; deleting an open one lowers it.
    await must(api('DELETE', `/projects/${fresh.id}/issues/1`, { token: owner.token }), 204, 'delete closed');
    expect(await openIssuesCount(fresh.id)).toBe(3);
    await must(api('DELETE', `/projects/${fresh.id}/issues/4`, { token: owner.token }), 204, 'delete open');
    expect(await openIssuesCount(fresh.id)).toBe(2);
    const opened = await api('GET', `/projects/${fresh.id}/issues?state=opened`, { token: owner.token });
    expect(opened.headers.get('x-total')).toBe('2');
    const closed = await api('GET', `/projects/${fresh.id}/issues?state=closed`, { token: owner.token });
    expect(closed.headers.get('x-total')).toBe('0');
  });
});

describe('nothing a client sends gives a 5xx', () => {
  it('junk parameters, huge ids, wrong types and oversized fields get 4xx in GitLab’s shapes', async () => {
    const fresh = await createProject(owner);
    const issue = await openIssue(fresh.id, owner.token, { title: 'target' });
    const p = `/projects/${fresh.id}/issues`;
    const cases: [string, string, Record<string, unknown> | undefined, number, unknown][] = [
      ['GET', `${p}/abc`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `${p}/0`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `${p}/-3`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `${p}/1.5`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `${p}/99999999999999999999999`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `${p}/999999999999999`, undefined, 404, NOT_FOUND],
      ['GET', '/projects/999999999999999/issues/1', undefined, 404, { message: '404 Project Not Found' }],
      ['GET', `/projects/${'x'.repeat(3000)}/issues`, undefined, 404, { message: '404 Project Not Found' }],
      [
        'PUT',
        `${p}/${issue.iid}`,
        { state_event: 'merge' },
        400,
        { error: 'state_event does not have a valid value' },
      ],
      ['PUT', `${p}/${issue.iid}`, { title: '' }, 400, { message: { title: ["can't be blank"] } }],
      ['PUT', `${p}/${issue.iid}`, { title: ['a'] }, 400, { error: 'title is invalid' }],
      ['PUT', `${p}/${issue.iid}`, { due_date: '2021-02-30' }, 400, { error: 'due_date is invalid' }],
      ['PUT', `${p}/${issue.iid}`, { confidential: 'perhaps' }, 400, { error: 'confidential is invalid' }],
      ['PUT', `${p}/${issue.iid}`, { assignee_ids: 'me' }, 400, { error: 'assignee_ids is invalid' }],
      ['POST', p, { title: { nested: true } }, 400, { error: 'title is invalid' }],
      ['POST', p, { title: 'x', created_at: 'yesterday' }, 400, { error: 'created_at is invalid' }],
      ['POST', p, { title: 'x', created_at: 12 }, 400, { error: 'created_at is invalid' }],
      ['POST', p, { title: 'x', labels: { a: 1 } }, 400, { error: 'labels is invalid' }],
      [
        'POST',
        p,
        { title: 'x', description: 'd'.repeat(1_000_001) },
        400,
        { message: { description: ['is too long (maximum is 1000000 characters)'] } },
      ],
      [
        'POST',
        p,
        { title: 'x', assignee_ids: Array.from({ length: 201 }, (_, index) => index + 1) },
        400,
        { message: { assignees: ['total must be less than or equal to 200'] } },
      ],
      [
        'POST',
        p,
        { title: 'x', labels: Array.from({ length: 2000 }, (_, index) => `${index}`.padEnd(255, 'l')) },
        400,
        { message: { labels: ['is too long (maximum is 100 labels)'] } },
      ],
      ['DELETE', `${p}/abc`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['DELETE', `${p}/424242`, undefined, 404, NOT_FOUND],
    ];
    for (const [method, path, json, status, body] of cases) {
      const response = await api(method, path, { token: owner.token, json });
      expect(response.status, `${method} ${path.slice(0, 80)} ${JSON.stringify(json)?.slice(0, 80)}`).toBe(
        status,
      );
      expect(response.body).toEqual(body);
    }
    // Nothing refused was written.
    expect(await openIssuesCount(fresh.id)).toBe(1);
  });

  it('a description of 1,000,000 characters is stored whole, on create and on change', async () => {
    const fresh = await createProject(owner);
    const text = 'Lorem ipsum dolor sit amet. '.repeat(40_000).slice(0, 1_000_000);
    const issue = await openIssue(fresh.id, owner.token, { title: 'long', description: text });
    expect(issue.description).toBe(text);
    const read = await api<IssueBody>('GET', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
    });
    expect(read.status).toBe(200);
    expect(read.body.description).toBe(text);
    const emoji = '🐛'.repeat(1_000_000);
    const changed = await api<IssueBody>('PUT', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
      json: { description: emoji, state_event: 'close' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.description).toBe(emoji);
    const listed = await api<IssueBody[]>(
      'GET',
      `/projects/${fresh.id}/issues?search=${encodeURIComponent('🐛🐛')}`,
      {
        token: owner.token,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.map((item) => item.description)).toEqual([emoji]);
    const short = await api<IssueBody>('PUT', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
      json: { description: 'short again' },
    });
    expect(short.status).toBe(200);
    const again = await api<IssueBody>('GET', `/projects/${fresh.id}/issues/${issue.iid}`, {
      token: owner.token,
    });
    expect(again.body.description).toBe('short again');
    expect(again.body.state).toBe('closed');
  });

  it('a description too large to store even compressed is refused with 400, not a 5xx', async () => {
    const fresh = await createProject(owner);
    // Random CJK text does not compress below what an item holds.
    const bytes = randomBytes(800_000);
    const random = Array.from({ length: 400_000 }, (_, index) =>
      String.fromCharCode(0x4e00 + (bytes.readUInt16LE(index * 2) % 20000)),
    ).join('');
    const refused = await api('POST', `/projects/${fresh.id}/issues`, {
      token: owner.token,
      json: { title: 'random', description: random },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { description: ['is too long'] } });
    expect(await openIssuesCount(fresh.id)).toBe(0);
  });
});
