/**
 * Project merge requests and their notes over HTTP, with GitLab's (10.x–11.x) statuses and bodies:
 * creating (required parameters, one open merge request per pair of branches, gapless iids under
 * concurrent creation), listing with filters, orders and pages, reading, changing (state events
 * with their system notes, retargeting), deleting with the notes, the notes' five operations,
 * merge requests switched off, who may do what on a private and a public project, and bad input.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';
import { listSize, partitionItems } from '../support/db.ts';

interface UserBasic {
  id: number;
  name: string;
  username: string;
  state: string;
  avatar_url: string;
  web_url: string;
}

interface MergeRequestBody {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: UserBasic | null;
  source_branch: string;
  target_branch: string;
  labels: string[];
  assignee: UserBasic | null;
  assignees: UserBasic[];
  author: UserBasic;
  user_notes_count: number;
  discussion_locked: boolean | null;
  work_in_progress: boolean;
  force_remove_source_branch: boolean | null;
  squash: boolean;
  subscribed?: boolean;
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
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const FORBIDDEN = { message: '403 Forbidden' };

let baseUrl: string;

const basic = (user: TestUser) => ({
  id: user.id,
  name: user.username,
  username: user.username,
  state: 'active',
  avatar_url: `${baseUrl}/assets/no_avatar.png`,
  web_url: `${baseUrl}/${user.username}`,
});

/** What a note shows of its author (the spec's User with GitLab's avatar_url and web_url). */
const noteAuthor = (user: TestUser) => ({
  ...basic(user),
  email: user.email,
  created_at: expect.stringMatching(ISO),
});

async function newProject(owner: TestUser, visibility: 'private' | 'public' | 'internal', extra = {}) {
  return must(
    api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('MRs'), visibility, ...extra },
    }),
    201,
    'project',
  );
}

async function addMember(projectId: number, user: TestUser, level: number) {
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'member',
  );
}

const createMr = (projectId: number | string, token: string, json: Record<string, unknown>) =>
  api<MergeRequestBody>('POST', `/projects/${projectId}/merge_requests`, { token, json });

/** A new merge request from a branch of its own. */
async function mrIn(projectId: number, token: string, json: Record<string, unknown> = {}) {
  return must(
    createMr(projectId, token, {
      source_branch: unique('feature'),
      target_branch: 'master',
      title: 'MR',
      ...json,
    }),
    201,
    'merge request',
  );
}

let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let developer: TestUser;
let maintainer: TestUser;
let stranger: TestUser;
let admin: TestUser;

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  [owner, guest, reporter, developer, maintainer, stranger, admin] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser({ admin: true }),
  ]);
});

describe('POST /projects/:id/merge_requests', () => {
  it('opens a merge request → 201 with the whole MergeRequest entity', async () => {
    const project = await newProject(owner, 'private');
    await addMember(project.id, developer, 30);
    const created = await createMr(project.id, owner.token, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'WIP: First MR',
      description: 'Adds the thing',
      labels: 'backend, bug,bug',
      assignee_id: developer.id,
      remove_source_branch: true,
      squash: 'true',
      milestone_id: 5,
    });
    expect(created.status, created.text).toBe(201);
    const web = `${baseUrl}/${project.path_with_namespace}/merge_requests/1`;
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      title: 'WIP: First MR',
      description: 'Adds the thing',
      state: 'opened',
      created_at: expect.stringMatching(ISO),
      updated_at: created.body.created_at,
      merged_by: null,
      merged_at: null,
      closed_by: null,
      closed_at: null,
      target_branch: 'master',
      source_branch: 'feature',
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      author: basic(owner),
      assignee: basic(developer),
      assignees: [basic(developer)],
      source_project_id: project.id,
      target_project_id: project.id,
      labels: ['backend', 'bug'],
      work_in_progress: true,
      milestone: null,
      merge_when_pipeline_succeeds: false,
      merge_status: 'can_be_merged',
      // Its WIP: title makes it a draft.
      detailed_merge_status: 'draft_status',
      has_conflicts: false,
      sha: null,
      squash_commit_sha: null,
      merge_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: true,
      web_url: web,
      time_stats: {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      },
      squash: true,
      approvals_before_merge: null,
      subscribed: true,
      changes_count: null,
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      diff_refs: null,
    });
    // The single read answers the same.
    const read = await api<MergeRequestBody>('GET', `/projects/${project.id}/merge_requests/1`, {
      token: owner.token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // Another reader is not subscribed.
    const asAdmin = await api<MergeRequestBody>('GET', `/projects/${project.id}/merge_requests/1`, {
      token: admin.token,
    });
    expect(asAdmin.body.subscribed).toBe(false);
  });

  it('a project path works as the id; unknown assignees are dropped as GitLab drops them', async () => {
    const project = await newProject(owner, 'private');
    const created = await createMr(encodeURIComponent(project.path_with_namespace), owner.token, {
      source_branch: 'a',
      target_branch: 'b',
      title: 'By path',
      assignee_ids: [owner.id, 999_999_999],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ iid: 1, project_id: project.id, assignees: [basic(owner)] });
  });

  it('missing parameters → 400 naming each in GitLab’s order', async () => {
    const project = await newProject(owner, 'private');
    const none = await createMr(project.id, owner.token, {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      error: 'title is missing, source_branch is missing, target_branch is missing',
    });
    const some = await createMr(project.id, owner.token, { title: 'x', target_branch: 'master' });
    expect(some.status).toBe(400);
    expect(some.body).toEqual({ error: 'source_branch is missing' });
  });

  it('bad values → 400 in GitLab’s shapes, nothing created', async () => {
    const project = await newProject(owner, 'private');
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { title: 'x'.repeat(256), source_branch: 'a', target_branch: 'b' },
        { message: { title: ['is too long (maximum is 255 characters)'] } },
      ],
      [{ title: '  ', source_branch: 'a', target_branch: 'b' }, { message: { title: ["can't be blank"] } }],
      [
        { title: 't', source_branch: '', target_branch: 'b' },
        { message: { source_branch: ["can't be blank"] } },
      ],
      [
        { title: 't', source_branch: 'a', target_branch: 'b'.repeat(256) },
        { message: { target_branch: ['is too long (maximum is 255 characters)'] } },
      ],
      [
        { title: 't', source_branch: 'a', target_branch: 'b', assignee_id: 'me' },
        { error: 'assignee_id is invalid' },
      ],
      [
        { title: 't', source_branch: 'a', target_branch: 'b', squash: 'maybe' },
        { error: 'squash is invalid' },
      ],
      [{ title: 't', source_branch: ['a'], target_branch: 'b' }, { error: 'source_branch is invalid' }],
      [
        {
          title: 't',
          source_branch: 'a',
          target_branch: 'b',
          labels: Array.from({ length: 101 }, (_, index) => `label${index}`).join(','),
        },
        { error: 'labels is invalid' },
      ],
      [
        { title: 't', source_branch: 'a', target_branch: 'b', description: 'd'.repeat(1_000_001) },
        { message: { description: ['is too long (maximum is 1000000 characters)'] } },
      ],
    ];
    for (const [json, body] of cases) {
      const response = await createMr(project.id, owner.token, json);
      expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(response.body).toEqual(body);
    }
    const list = await api('GET', `/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(list.body).toEqual([]);
  });

  it('the same branch as source and target → 409 as MergeRequest#validate_branches says', async () => {
    const project = await newProject(owner, 'private');
    const response = await createMr(project.id, owner.token, {
      title: 't',
      source_branch: 'main',
      target_branch: 'main',
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
  });

  it('another target project (no forks here) → 422 validate_fork', async () => {
    const project = await newProject(owner, 'private');
    const other = await newProject(owner, 'private');
    const response = await createMr(project.id, owner.token, {
      title: 't',
      source_branch: 'a',
      target_branch: 'b',
      target_project_id: other.id,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: ['Source project is not a fork of the target project'] });
    const same = await createMr(project.id, owner.token, {
      title: 't',
      source_branch: 'a',
      target_branch: 'b',
      target_project_id: project.id,
    });
    expect(same.status).toBe(201);
  });

  it('one open merge request per pair of branches: 409 naming it; free again once it closes or goes', async () => {
    const project = await newProject(owner, 'private');
    const branches = { source_branch: 'feature', target_branch: 'master' };
    const first = await mrIn(project.id, owner.token, { ...branches, title: 'first' });
    const again = await createMr(project.id, owner.token, { ...branches, title: 'again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: ['Another open merge request already exists for this source branch: !1'],
    });
    // Other pairs are free.
    await mrIn(project.id, owner.token, { source_branch: 'feature', target_branch: 'develop' });
    // Closing frees the pair; reopening the first while another holds it leaves it closed (GitLab).
    await must(
      api('PUT', `/projects/${project.id}/merge_requests/${first.iid}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    const third = await mrIn(project.id, owner.token, { ...branches, title: 'third' });
    expect(third.iid).toBe(3);
    const reopen = await api<MergeRequestBody>('PUT', `/projects/${project.id}/merge_requests/1`, {
      token: owner.token,
      json: { state_event: 'reopen', title: 'first, renamed' },
    });
    expect(reopen.status).toBe(200);
    expect(reopen.body).toMatchObject({ state: 'closed', title: 'first, renamed' });
    const notes = await api<NoteBody[]>('GET', `/projects/${project.id}/merge_requests/1/notes?sort=asc`, {
      token: owner.token,
    });
    expect(notes.body.map((note) => note.body)).toEqual(['closed']);
    // Retargeting onto a pair another open one holds → 409; onto a free pair → 200.
    const retarget = await api('PUT', `/projects/${project.id}/merge_requests/2`, {
      token: owner.token,
      json: { target_branch: 'master' },
    });
    expect(retarget.status).toBe(409);
    expect(retarget.body).toEqual({
      message: ['Another open merge request already exists for this source branch: !3'],
    });
    // Deleting the holder frees the pair.
    await must(
      api('DELETE', `/projects/${project.id}/merge_requests/3`, { token: owner.token }),
      204,
      'delete',
    );
    const moved = await api<MergeRequestBody>('PUT', `/projects/${project.id}/merge_requests/2`, {
      token: owner.token,
      json: { target_branch: 'master' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.target_branch).toBe('master');
    // ... and the pair it left is free.
    await mrIn(project.id, owner.token, { source_branch: 'feature', target_branch: 'develop' });
  });

  it('20 concurrent creations take the iids 1..20, each once, and all are listed', async () => {
    const project = await newProject(owner, 'private');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        createMr(project.id, owner.token, {
          title: `MR ${index}`,
          source_branch: `b${index}`,
          target_branch: 'master',
        }),
      ),
    );
    for (const response of responses) expect(response.status, response.text).toBe(201);
    expect(responses.map((response) => response.body.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    const list = await api<MergeRequestBody[]>('GET', `/projects/${project.id}/merge_requests?per_page=100`, {
      token: owner.token,
    });
    expect(list.headers.get('x-total')).toBe('20');
    expect(list.body.map((mr) => mr.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect(await listSize('l1', `MRS#PROJECT#${project.id}`)).toBe(20);
    expect(await listSize('l2', `MRS#PROJECT#${project.id}#opened`)).toBe(20);
  });

  it('a description of 1,000,000 characters that does not compress is kept whole', async () => {
    const project = await newProject(owner, 'private');
    const text = randomBytes(750_000).toString('base64').slice(0, 1_000_000);
    const created = await mrIn(project.id, owner.token, { description: text });
    const read = await api<MergeRequestBody>('GET', `/projects/${project.id}/merge_requests/${created.iid}`, {
      token: owner.token,
    });
    expect(read.body.description).toBe(text);
    const listed = await api<MergeRequestBody[]>('GET', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
    });
    expect(listed.body[0]?.description).toBe(text);
    // Replaced by a short one, the parts of the long one go.
    const changed = await api<MergeRequestBody>(
      'PUT',
      `/projects/${project.id}/merge_requests/${created.iid}`,
      {
        token: owner.token,
        json: { description: 'short' },
      },
    );
    expect(changed.body.description).toBe('short');
    expect((await partitionItems(`MR#${project.id}#${created.iid}`)).map((item) => item.sk)).toEqual(['MR']);
    const reread = await api<MergeRequestBody>(
      'GET',
      `/projects/${project.id}/merge_requests/${created.iid}`,
      {
        token: owner.token,
      },
    );
    expect(reread.body.description).toBe('short');
  });

  it('concurrent changes between long and short descriptions leave exactly the parts the item names', async () => {
    const project = await newProject(owner, 'private');
    const created = await mrIn(project.id, owner.token, { description: 'first' });
    const descriptions = Array.from({ length: 6 }, (_, index) =>
      index % 2 === 0 ? randomBytes(300_000).toString('base64') : `short ${index}`,
    );
    const answers = await Promise.all(
      descriptions.map((description) =>
        api('PUT', `/projects/${project.id}/merge_requests/${created.iid}`, {
          token: owner.token,
          json: { description },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(descriptions.map(() => 200));
    const read = await api<MergeRequestBody>('GET', `/projects/${project.id}/merge_requests/${created.iid}`, {
      token: owner.token,
    });
    expect(descriptions).toContain(read.body.description);
    const items = await partitionItems(`MR#${project.id}#${created.iid}`);
    const named = items.find((item) => item.sk === 'MR')?.description_parts as
      | { generation: string; count: number }
      | undefined;
    const expected = named
      ? Array.from(
          { length: named.count },
          (_, index) => `DESCRIPTION#${named.generation}#${String(index).padStart(3, '0')}`,
        )
      : [];
    expect(
      items
        .map((item) => String(item.sk))
        .filter((sk) => sk.startsWith('DESCRIPTION#'))
        .sort(),
    ).toEqual(expected);
  });
});

describe('GET /projects/:id/merge_requests', () => {
  let project: ProjectBody;
  const iids: Record<string, number> = {};

  beforeAll(async () => {
    project = await newProject(owner, 'private');
    await addMember(project.id, developer, 30);
    // Created one after another, so created_at orders them a, b, c, d.
    iids.a = (await mrIn(project.id, owner.token, { title: 'Fix login', labels: 'bug,backend' })).iid;
    iids.b = (
      await mrIn(project.id, developer.token, {
        title: 'WIP: Add search',
        description: 'Full text',
        labels: 'feature',
      })
    ).iid;
    iids.c = (
      await mrIn(project.id, owner.token, { title: 'Docs', assignee_id: developer.id, source_branch: 'docs' })
    ).iid;
    iids.d = (await mrIn(project.id, owner.token, { title: 'Closed one', labels: 'bug' })).iid;
    await must(
      api('PUT', `/projects/${project.id}/merge_requests/${iids.d}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    // Touch a so it is the most recently updated.
    await must(
      api('PUT', `/projects/${project.id}/merge_requests/${iids.a}`, {
        token: owner.token,
        json: { description: 'touched' },
      }),
      200,
      'touch',
    );
  });

  const list = async (query: string, token = owner.token) => {
    const response = await api<MergeRequestBody[]>('GET', `/projects/${project.id}/merge_requests${query}`, {
      token,
    });
    expect(response.status, response.text).toBe(200);
    return response;
  };
  const iidsOf = async (query: string) => (await list(query)).body.map((mr) => mr.iid);

  it('all states, newest first by default, with the pagination headers', async () => {
    const response = await list('');
    expect(response.body.map((mr) => mr.iid)).toEqual([iids.d, iids.c, iids.b, iids.a]);
    expect(response.headers.get('x-total')).toBe('4');
    expect(response.headers.get('x-total-pages')).toBe('1');
    expect(response.headers.get('x-page')).toBe('1');
    expect(response.headers.get('x-per-page')).toBe('20');
    // The list's entity is MergeRequestBasic: no `subscribed`, no `changes_count`.
    expect(response.body[0]).not.toHaveProperty('subscribed');
    expect(response.body[0]).not.toHaveProperty('changes_count');
    expect(response.body[0]).toMatchObject({ iid: iids.d, state: 'closed', closed_by: basic(owner) });
  });

  it('by state', async () => {
    expect(await iidsOf('?state=opened')).toEqual([iids.c, iids.b, iids.a]);
    expect(await iidsOf('?state=closed')).toEqual([iids.d]);
    expect(await iidsOf('?state=merged')).toEqual([]);
    expect(await iidsOf('?state=locked')).toEqual([]);
    expect(await iidsOf('?state=all')).toEqual([iids.d, iids.c, iids.b, iids.a]);
    const bad = await api('GET', `/projects/${project.id}/merge_requests?state=open`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
  });

  it('orders and sorts', async () => {
    expect(await iidsOf('?sort=asc')).toEqual([iids.a, iids.b, iids.c, iids.d]);
    expect(await iidsOf('?order_by=updated_at')).toEqual([iids.a, iids.d, iids.c, iids.b]);
    expect(await iidsOf('?order_by=updated_at&sort=asc')).toEqual([iids.b, iids.c, iids.d, iids.a]);
    const bad = await api('GET', `/projects/${project.id}/merge_requests?order_by=title`, {
      token: owner.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('filters: labels, search, author, assignee, branches, iids, wip, scope, view=simple', async () => {
    expect(await iidsOf('?labels=bug')).toEqual([iids.d, iids.a]);
    expect(await iidsOf('?labels=bug,backend')).toEqual([iids.a]);
    expect(await iidsOf('?labels=None')).toEqual([iids.c]);
    expect(await iidsOf('?labels=Any')).toEqual([iids.d, iids.b, iids.a]);
    expect(await iidsOf('?search=full%20TEXT')).toEqual([iids.b]);
    expect(await iidsOf('?search=login')).toEqual([iids.a]);
    expect(await iidsOf(`?author_id=${developer.id}`)).toEqual([iids.b]);
    expect(await iidsOf(`?assignee_id=${developer.id}`)).toEqual([iids.c]);
    expect(await iidsOf('?assignee_id=None')).toEqual([iids.d, iids.b, iids.a]);
    expect(await iidsOf('?assignee_id=any')).toEqual([iids.c]);
    expect(await iidsOf('?source_branch=docs')).toEqual([iids.c]);
    expect(await iidsOf('?target_branch=master&state=opened')).toEqual([iids.c, iids.b, iids.a]);
    expect(await iidsOf(`?iids[]=${iids.a}&iids[]=${iids.c}`)).toEqual([iids.c, iids.a]);
    expect(await iidsOf('?wip=yes')).toEqual([iids.b]);
    expect(await iidsOf('?wip=no')).toEqual([iids.d, iids.c, iids.a]);
    expect(await iidsOf('?milestone=None')).toEqual([iids.d, iids.c, iids.b, iids.a]);
    expect(await iidsOf('?milestone=v1')).toEqual([]);
    expect(await iidsOf('?scope=all')).toEqual([iids.d, iids.c, iids.b, iids.a]);
    const mine = await list('?scope=created_by_me', developer.token);
    expect(mine.body.map((mr) => mr.iid)).toEqual([iids.b]);
    const assigned = await list('?scope=assigned-to-me', developer.token);
    expect(assigned.body.map((mr) => mr.iid)).toEqual([iids.c]);
    const filtered = await list('?labels=bug');
    expect(filtered.headers.get('x-total')).toBe('2');
    const simple = await list('?view=simple&state=closed');
    expect(simple.body).toEqual([
      {
        id: expect.any(Number),
        iid: iids.d,
        project_id: project.id,
        title: 'Closed one',
        description: null,
        state: 'closed',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        web_url: `${baseUrl}/${project.path_with_namespace}/merge_requests/${iids.d}`,
      },
    ]);
    const badAssignee = await api('GET', `/projects/${project.id}/merge_requests?assignee_id=someone`, {
      token: owner.token,
    });
    expect(badAssignee.status).toBe(400);
    expect(badAssignee.body).toEqual({ error: 'assignee_id does not have a valid value' });
  });

  it('pages', async () => {
    const first = await list('?per_page=3');
    expect(first.body.map((mr) => mr.iid)).toEqual([iids.d, iids.c, iids.b]);
    expect(first.headers.get('x-total')).toBe('4');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await list('?per_page=3&page=2');
    expect(second.body.map((mr) => mr.iid)).toEqual([iids.a]);
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid', () => {
  it('unknown iid → 404 Not found; a bad iid → 400', async () => {
    const project = await newProject(owner, 'private');
    const missing = await api('GET', `/projects/${project.id}/merge_requests/5`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    const bad = await api('GET', `/projects/${project.id}/merge_requests/abc`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'merge_request_iid is invalid' });
  });

  it('anonymous → 401 on every route but the reads of a public project', async () => {
    const project = await newProject(owner, 'public');
    await mrIn(project.id, owner.token);
    const base = `/projects/${project.id}/merge_requests`;
    for (const [method, path] of [
      ['POST', base],
      ['PUT', `${base}/1`],
      ['DELETE', `${base}/1`],
      ['GET', `${base}/1/notes`],
      ['POST', `${base}/1/notes`],
    ] as const) {
      const response = await api(method, path, { token: null });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
    }
    const list = await api<{ iid: number }[]>('GET', base, { token: null });
    expect({ status: list.status, iids: list.body.map((mr) => mr.iid) }).toEqual({ status: 200, iids: [1] });
    const one = await api<{ iid: number; subscribed: boolean }>('GET', `${base}/1`, { token: null });
    expect({ status: one.status, iid: one.body.iid, subscribed: one.body.subscribed }).toEqual({
      status: 200,
      iid: 1,
      subscribed: false,
    });
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  it('changes the fields sent; closing and reopening record "closed" and "reopened"', async () => {
    const project = await newProject(owner, 'private');
    await addMember(project.id, developer, 30);
    const mr = await mrIn(project.id, owner.token, { labels: 'x' });
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const changed = await api<MergeRequestBody>('PUT', path, {
      token: owner.token,
      json: {
        title: 'Renamed',
        description: 'New words',
        labels: 'b,a',
        target_branch: 'develop',
        assignee_id: developer.id,
        discussion_locked: true,
        remove_source_branch: false,
        squash: true,
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      title: 'Renamed',
      description: 'New words',
      labels: ['a', 'b'],
      target_branch: 'develop',
      assignee: basic(developer),
      assignees: [basic(developer)],
      discussion_locked: true,
      force_remove_source_branch: false,
      squash: true,
      state: 'opened',
    });
    expect(changed.body.updated_at > mr.updated_at).toBe(true);
    const unassigned = await api<MergeRequestBody>('PUT', path, {
      token: owner.token,
      json: { assignee_id: 0 },
    });
    expect(unassigned.body).toMatchObject({ assignee: null, assignees: [] });

    const closed = await api<MergeRequestBody>('PUT', path, {
      token: developer.token,
      json: { state_event: 'close' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      state: 'closed',
      closed_by: basic(developer),
      closed_at: expect.stringMatching(ISO),
    });
    expect(await listSize('l2', `MRS#PROJECT#${project.id}#closed`)).toBe(1);
    expect(await listSize('l2', `MRS#PROJECT#${project.id}#opened`)).toBe(0);
    // Closing a closed one changes nothing and records nothing.
    const twice = await api<MergeRequestBody>('PUT', path, {
      token: owner.token,
      json: { state_event: 'close' },
    });
    expect(twice.body).toMatchObject({ state: 'closed', closed_by: basic(developer) });

    const reopened = await api<MergeRequestBody>('PUT', path, {
      token: owner.token,
      json: { state_event: 'reopen' },
    });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
    const notes = await api<NoteBody[]>('GET', `${path}/notes?sort=asc`, { token: owner.token });
    expect(notes.status).toBe(200);
    expect(notes.headers.get('x-total')).toBe('2');
    expect(notes.body).toEqual([
      {
        id: expect.any(Number),
        type: null,
        body: 'closed',
        attachment: null,
        author: noteAuthor(developer),
        created_at: closed.body.closed_at,
        updated_at: closed.body.closed_at,
        system: true,
        noteable_id: mr.id,
        noteable_type: 'MergeRequest',
        noteable_iid: mr.iid,
        resolvable: false,
      },
      expect.objectContaining({ body: 'reopened', system: true, author: noteAuthor(owner) }),
    ]);
    // System notes are not user notes.
    const read = await api<MergeRequestBody>('GET', path, { token: owner.token });
    expect(read.body.user_notes_count).toBe(0);
  });

  it('bad input: no parameter, a blank title, the source as target → 400/409', async () => {
    const project = await newProject(owner, 'private');
    const mr = await mrIn(project.id, owner.token, { source_branch: 'feature' });
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const none = await api('PUT', path, { token: owner.token, json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      error:
        'assignee_id, description, labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked, squash are missing, at least one parameter must be provided',
    });
    const blank = await api('PUT', path, { token: owner.token, json: { title: '', target_branch: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'title is empty, target_branch is empty' });
    const long = await api('PUT', path, { token: owner.token, json: { title: 't'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
    const event = await api('PUT', path, { token: owner.token, json: { state_event: 'merge' } });
    expect(event.status).toBe(400);
    expect(event.body).toEqual({ error: 'state_event does not have a valid value' });
    const same = await api('PUT', path, { token: owner.token, json: { target_branch: 'feature' } });
    expect(same.status).toBe(409);
    expect(same.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    const unknown = await api('PUT', `/projects/${project.id}/merge_requests/99`, {
      token: owner.token,
      json: { title: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });

  it('concurrent closes and reopens leave one consistent state with one note per move', async () => {
    const project = await newProject(owner, 'private');
    const mr = await mrIn(project.id, owner.token);
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        api<MergeRequestBody>('PUT', path, {
          token: owner.token,
          json: { state_event: index % 2 ? 'reopen' : 'close' },
        }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const final = await api<MergeRequestBody>('GET', path, { token: owner.token });
    const notes = await api<NoteBody[]>('GET', `${path}/notes?sort=asc&per_page=100`, { token: owner.token });
    const bodies = notes.body.map((note) => note.body);
    // Moves alternate, starting with a close, and the last names the final state.
    expect(bodies).toEqual(bodies.map((_, index) => (index % 2 ? 'reopened' : 'closed')));
    expect(final.body.state).toBe(bodies.length % 2 ? 'closed' : 'opened');
    const opened = await listSize('l2', `MRS#PROJECT#${project.id}#opened`);
    const closed = await listSize('l2', `MRS#PROJECT#${project.id}#closed`);
    expect([opened, closed]).toEqual(final.body.state === 'opened' ? [1, 0] : [0, 1]);
    // The pair of branches is held exactly while it is open.
    const duplicate = await createMr(project.id, owner.token, {
      title: 'dup',
      source_branch: mr.source_branch,
      target_branch: mr.target_branch,
    });
    expect(duplicate.status).toBe(final.body.state === 'opened' ? 409 : 201);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid', () => {
  it('removes it with its notes → 204; then 404', async () => {
    const project = await newProject(owner, 'private');
    const mr = await mrIn(project.id, owner.token);
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const note = await must(
      api<NoteBody>('POST', `${path}/notes`, { token: owner.token, json: { body: 'hi' } }),
      201,
      'note',
    );
    const deleted = await api('DELETE', path, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const target of [path, `${path}/notes`, `${path}/notes/${note.id}`]) {
      const gone = await api('GET', target, { token: owner.token });
      expect(gone.status, target).toBe(404);
      expect(gone.body).toEqual(NOT_FOUND);
    }
    const again = await api('DELETE', path, { token: owner.token });
    expect(again.status).toBe(404);
    expect(await listSize('l1', `MRS#PROJECT#${project.id}`)).toBe(0);
    const list = await api('GET', `/projects/${project.id}/merge_requests`, { token: owner.token });
    expect(list.headers.get('x-total')).toBe('0');
    // The iid is not given again.
    expect((await mrIn(project.id, owner.token)).iid).toBe(2);
  });
});

describe('merge request notes', () => {
  let project: ProjectBody;
  let mr: MergeRequestBody;
  let path: string;

  beforeAll(async () => {
    project = await newProject(owner, 'private');
    await addMember(project.id, reporter, 20);
    await addMember(project.id, maintainer, 40);
    mr = await mrIn(project.id, owner.token);
    path = `/projects/${project.id}/merge_requests/${mr.iid}/notes`;
  });

  it('create, list, get, update, delete with GitLab’s statuses and the Note entity', async () => {
    const created = await api<NoteBody>('POST', path, {
      token: reporter.token,
      json: { body: 'Looks good' },
    });
    expect(created.status).toBe(201);
    const note = {
      id: expect.any(Number),
      type: null,
      body: 'Looks good',
      attachment: null,
      author: noteAuthor(reporter),
      created_at: expect.stringMatching(ISO),
      updated_at: created.body.created_at,
      system: false,
      noteable_id: mr.id,
      noteable_type: 'MergeRequest',
      noteable_iid: mr.iid,
      resolvable: false,
    };
    expect(created.body).toEqual(note);
    const one = await api<NoteBody>('GET', `${path}/${created.body.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
    const listed = await api<NoteBody[]>('GET', path, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(created.body);
    const read = await api<MergeRequestBody>('GET', `/projects/${project.id}/merge_requests/${mr.iid}`, {
      token: owner.token,
    });
    expect(read.body.user_notes_count).toBeGreaterThanOrEqual(1);

    const updated = await api<NoteBody>('PUT', `${path}/${created.body.id}`, {
      token: reporter.token,
      json: { body: 'Looks great' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...note, body: 'Looks great', updated_at: expect.stringMatching(ISO) });
    // A maintainer changes another's note; a reporter may not.
    const other = await must(
      api<NoteBody>('POST', path, { token: maintainer.token, json: { body: 'mine' } }),
      201,
      'note',
    );
    const refused = await api('PUT', `${path}/${other.id}`, { token: reporter.token, json: { body: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
    const byMaintainer = await api('PUT', `${path}/${created.body.id}`, {
      token: maintainer.token,
      json: { body: 'edited by a maintainer' },
    });
    expect(byMaintainer.status).toBe(200);

    const deleted = await api('DELETE', `${path}/${created.body.id}`, { token: reporter.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const again = await api('DELETE', `${path}/${created.body.id}`, { token: reporter.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
    const gone = await api('GET', `${path}/${created.body.id}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
  });

  it('a body that is one award emoji is a note like any other → 201 with the Note', async () => {
    const created = await api<NoteBody>('POST', path, { token: owner.token, json: { body: ':thumbsup:' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ body: ':thumbsup:', system: false, noteable_type: 'MergeRequest' });
    const listed = await api<NoteBody[]>('GET', path, { token: owner.token });
    expect(listed.body.map((note) => note.id)).toContain(created.body.id);
  });

  it('orders and pages; X-Total counts every note', async () => {
    const fresh = await mrIn(project.id, owner.token);
    const notesPath = `/projects/${project.id}/merge_requests/${fresh.iid}/notes`;
    const ids: number[] = [];
    for (const body of ['one', 'two', 'three']) {
      ids.push(
        (await must(api<NoteBody>('POST', notesPath, { token: owner.token, json: { body } }), 201, body)).id,
      );
    }
    const desc = await api<NoteBody[]>('GET', notesPath, { token: owner.token });
    expect(desc.body.map((note) => note.body)).toEqual(['three', 'two', 'one']);
    expect(desc.headers.get('x-total')).toBe('3');
    const asc = await api<NoteBody[]>('GET', `${notesPath}?sort=asc&per_page=2`, { token: owner.token });
    expect(asc.body.map((note) => note.body)).toEqual(['one', 'two']);
    expect(asc.headers.get('x-total-pages')).toBe('2');
    await must(
      api('PUT', `${notesPath}/${ids[0]}`, { token: owner.token, json: { body: 'one, again' } }),
      200,
      'edit',
    );
    const updated = await api<NoteBody[]>('GET', `${notesPath}?order_by=updated_at`, { token: owner.token });
    expect(updated.body.map((note) => note.body)).toEqual(['one, again', 'three', 'two']);
  });

  it('bad input → 400 in GitLab’s shape; unknown ids → 404', async () => {
    const missing = await api('POST', path, { token: owner.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
    const empty = await api('POST', path, { token: owner.token, json: { body: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given',
    });
    const long = await api('POST', path, { token: owner.token, json: { body: 'x'.repeat(1_000_001) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      message: '400 (Bad request) "Note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
    });
    const longest = await api<NoteBody>('POST', path, {
      token: owner.token,
      json: { body: 'y'.repeat(1_000_000) },
    });
    expect(longest.status).toBe(201);
    const whole = await api<NoteBody>('GET', `${path}/${longest.body.id}`, { token: owner.token });
    expect(whole.body.body).toHaveLength(1_000_000);
    const unknownNote = await api('GET', `${path}/999999999`, { token: owner.token });
    expect(unknownNote.status).toBe(404);
    expect(unknownNote.body).toEqual(NOT_FOUND);
    const unknownMr = await api('POST', `/projects/${project.id}/merge_requests/999/notes`, {
      token: owner.token,
      json: { body: 'x' },
    });
    expect(unknownMr.status).toBe(404);
    expect(unknownMr.body).toEqual(NOT_FOUND);
    const badSort = await api('GET', `${path}?sort=up`, { token: owner.token });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual({ error: 'sort does not have a valid value' });
  });

  it('a system note is nobody’s to edit or delete → 403', async () => {
    const fresh = await mrIn(project.id, owner.token);
    const mrPath = `/projects/${project.id}/merge_requests/${fresh.iid}`;
    await must(api('PUT', mrPath, { token: owner.token, json: { state_event: 'close' } }), 200, 'close');
    const [system] = (await api<NoteBody[]>('GET', `${mrPath}/notes`, { token: owner.token })).body;
    expect(system).toMatchObject({ body: 'closed', system: true });
    const edit = await api('PUT', `${mrPath}/notes/${system?.id}`, {
      token: admin.token,
      json: { body: 'x' },
    });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual(FORBIDDEN);
    const remove = await api('DELETE', `${mrPath}/notes/${system?.id}`, { token: owner.token });
    expect(remove.status).toBe(403);
  });

  it('only owners and admins backdate a note', async () => {
    const at = '2020-01-02T03:04:05.000Z';
    const byOwner = await api<NoteBody>('POST', path, {
      token: owner.token,
      json: { body: 'old', created_at: at },
    });
    expect(byOwner.body.created_at).toBe(at);
    const byReporter = await api<NoteBody>('POST', path, {
      token: reporter.token,
      json: { body: 'old', created_at: at },
    });
    expect(byReporter.status).toBe(201);
    expect(byReporter.body.created_at).not.toBe(at);
  });
});

describe('merge requests switched off', () => {
  it('403 where GitLab authorizes read_merge_request, 404 where its finder finds none', async () => {
    const project = await newProject(owner, 'public');
    const mr = await mrIn(project.id, owner.token);
    const note = await must(
      api<NoteBody>('POST', `/projects/${project.id}/merge_requests/${mr.iid}/notes`, {
        token: owner.token,
        json: { body: 'before' },
      }),
      201,
      'note',
    );
    await must(
      api('PUT', `/projects/${project.id}`, { token: owner.token, json: { merge_requests_enabled: false } }),
      200,
      'switch off',
    );
    const base = `/projects/${project.id}/merge_requests`;
    for (const token of [owner.token, admin.token, stranger.token]) {
      const cases: [string, string, unknown, number, unknown][] = [
        ['GET', base, undefined, 403, FORBIDDEN],
        ['POST', base, { title: 't', source_branch: 'x', target_branch: 'y' }, 403, FORBIDDEN],
        ['GET', `${base}/1`, undefined, 403, FORBIDDEN],
        ['PUT', `${base}/1`, { title: 'x' }, 403, FORBIDDEN],
        ['DELETE', `${base}/1`, undefined, 404, NOT_FOUND],
        ['GET', `${base}/1/notes`, undefined, 404, NOT_FOUND],
        ['POST', `${base}/1/notes`, { body: 'x' }, 404, NOT_FOUND],
        ['GET', `${base}/1/notes/${note.id}`, undefined, 404, NOT_FOUND],
        ['PUT', `${base}/1/notes/${note.id}`, { body: 'x' }, 404, NOT_FOUND],
        ['DELETE', `${base}/1/notes/${note.id}`, undefined, 404, NOT_FOUND],
        // An unknown iid is 404 first.
        ['GET', `${base}/7`, undefined, 404, NOT_FOUND],
      ];
      for (const [method, path, json, status, body] of cases) {
        const response = await api(method, path, { token, json });
        expect(response.status, `${method} ${path}`).toBe(status);
        expect(response.body).toEqual(body);
      }
    }
    // Switched on again, everything is where it was.
    await must(
      api('PUT', `/projects/${project.id}`, { token: owner.token, json: { merge_requests_enabled: true } }),
      200,
      'switch on',
    );
    const back = await api<NoteBody>('GET', `${base}/1/notes/${note.id}`, { token: owner.token });
    expect(back.body.body).toBe('before');
  });
});

describe('permissions by role', () => {
  type Role = 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'stranger' | 'admin';
  const token = (role: Role) =>
    ({ guest, reporter, developer, maintainer, owner, stranger, admin })[role].token as string;
  const ROLES: Role[] = ['guest', 'reporter', 'developer', 'maintainer', 'owner', 'stranger', 'admin'];

  /**
   * Per role: list, get, create, update another's, delete another's, list notes, create a note,
   * edit another's note. A private project's non-member gets 404 Project Not Found everywhere.
   */
  const EXPECTED: Record<'private' | 'public', Record<Role, number[]>> = {
    private: {
      guest: [403, 403, 403, 403, 404, 404, 404, 404],
      reporter: [200, 200, 403, 403, 403, 200, 201, 403],
      developer: [200, 200, 201, 200, 403, 200, 201, 403],
      maintainer: [200, 200, 201, 200, 403, 200, 201, 200],
      owner: [200, 200, 201, 200, 204, 200, 201, 200],
      stranger: [404, 404, 404, 404, 404, 404, 404, 404],
      admin: [200, 200, 201, 200, 204, 200, 201, 200],
    },
    public: {
      guest: [200, 200, 403, 403, 403, 200, 201, 403],
      reporter: [200, 200, 403, 403, 403, 200, 201, 403],
      developer: [200, 200, 201, 200, 403, 200, 201, 403],
      maintainer: [200, 200, 201, 200, 403, 200, 201, 200],
      owner: [200, 200, 201, 200, 204, 200, 201, 200],
      stranger: [200, 200, 403, 403, 403, 200, 201, 403],
      admin: [200, 200, 201, 200, 204, 200, 201, 200],
    },
  };

  for (const visibility of ['private', 'public'] as const) {
    describe(`${visibility} project`, () => {
      let project: ProjectBody;
      let author: TestUser;

      beforeAll(async () => {
        project = await newProject(owner, visibility);
        author = await createUser();
        await Promise.all([
          addMember(project.id, guest, 10),
          addMember(project.id, reporter, 20),
          addMember(project.id, developer, 30),
          addMember(project.id, maintainer, 40),
          addMember(project.id, author, 30),
        ]);
      });

      for (const role of ROLES) {
        it(`${role}`, async () => {
          // Targets of this role's own: a merge request and a note by another member.
          const mr = await mrIn(project.id, author.token);
          const base = `/projects/${project.id}/merge_requests`;
          const note = await must(
            api<NoteBody>('POST', `${base}/${mr.iid}/notes`, {
              token: author.token,
              json: { body: 'theirs' },
            }),
            201,
            'note',
          );
          const as = token(role);
          const statuses = [
            (await api('GET', base, { token: as })).status,
            (await api('GET', `${base}/${mr.iid}`, { token: as })).status,
            (
              await api('POST', base, {
                token: as,
                json: { title: 't', source_branch: unique('b'), target_branch: 'master' },
              })
            ).status,
            (await api('PUT', `${base}/${mr.iid}`, { token: as, json: { title: 'changed' } })).status,
            (await api('DELETE', `${base}/${mr.iid}`, { token: as })).status,
            (await api('GET', `${base}/${mr.iid}/notes`, { token: as })).status,
            (await api('POST', `${base}/${mr.iid}/notes`, { token: as, json: { body: 'mine' } })).status,
            (await api('PUT', `${base}/${mr.iid}/notes/${note.id}`, { token: as, json: { body: 'x' } }))
              .status,
          ];
          // A deleted merge request answers 404 to the note calls after it: ask those first then.
          const expected = [...EXPECTED[visibility][role]];
          if (expected[4] === 204) {
            expected[5] = 404;
            expected[6] = 404;
            expected[7] = 404;
          }
          expect(statuses).toEqual(expected);
        });
      }

      it('the author, even as a guest, and an assignee change their merge request', async () => {
        const mr = await mrIn(project.id, author.token, { assignee_id: reporter.id });
        const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
        // The reporter is assigned: reporters may not change merge requests, assignees may.
        const byAssignee = await api('PUT', base, {
          token: reporter.token,
          json: { title: 'by the assignee' },
        });
        expect(byAssignee.status).toBe(200);
        // The author demoted to guest still reads and changes it (IssuablePolicy assignee_or_author).
        const demoted = await createUser();
        await addMember(project.id, demoted, 30);
        const own = await mrIn(project.id, demoted.token);
        await must(
          api('PUT', `/projects/${project.id}/members/${demoted.id}`, { json: { access_level: 10 } }),
          200,
          'demote',
        );
        const path = `/projects/${project.id}/merge_requests/${own.iid}`;
        expect((await api('GET', path, { token: demoted.token })).status).toBe(200);
        expect((await api('PUT', path, { token: demoted.token, json: { title: 'still mine' } })).status).toBe(
          200,
        );
        expect((await api('GET', `${path}/notes`, { token: demoted.token })).status).toBe(200);
      });
    });
  }

  it('a locked discussion takes notes from members only', async () => {
    const project = await newProject(owner, 'public');
    await addMember(project.id, guest, 10);
    const mr = await mrIn(project.id, owner.token);
    const locked = await api<MergeRequestBody>('PUT', `/projects/${project.id}/merge_requests/${mr.iid}`, {
      token: owner.token,
      json: { discussion_locked: true },
    });
    expect(locked.body.discussion_locked).toBe(true);
    const path = `/projects/${project.id}/merge_requests/${mr.iid}/notes`;
    const outsider = await api('POST', path, { token: stranger.token, json: { body: 'x' } });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(FORBIDDEN);
    expect((await api('POST', path, { token: guest.token, json: { body: 'x' } })).status).toBe(201);
    // Unlocked, anyone who reads it comments.
    await must(
      api('PUT', `/projects/${project.id}/merge_requests/${mr.iid}`, {
        token: owner.token,
        json: { discussion_locked: false },
      }),
      200,
      'unlock',
    );
    expect((await api('POST', path, { token: stranger.token, json: { body: 'x' } })).status).toBe(201);
  });

  it('an archived project is read-only', async () => {
    const project = await newProject(owner, 'private');
    const mr = await mrIn(project.id, owner.token);
    await must(api('POST', `/projects/${project.id}/archive`, { token: owner.token }), 201, 'archive');
    const base = `/projects/${project.id}/merge_requests`;
    expect((await api('GET', `${base}/${mr.iid}`, { token: owner.token })).status).toBe(200);
    for (const [method, path, json] of [
      ['POST', base, { title: 't', source_branch: 'a', target_branch: 'b' }],
      ['PUT', `${base}/${mr.iid}`, { title: 'x' }],
      ['DELETE', `${base}/${mr.iid}`, undefined],
      ['POST', `${base}/${mr.iid}/notes`, { body: 'x' }],
    ] as const) {
      const response = await api(method, path, { token: owner.token, json });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual(FORBIDDEN);
    }
  });

  it('a project the caller cannot see → 404 Project Not Found', async () => {
    const project = await newProject(owner, 'private');
    const response = await api('GET', `/projects/${project.id}/merge_requests`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(PROJECT_NOT_FOUND);
  });
});
