/**
 * A real GitLab client, @gitbeaker/rest, unchanged, driving issues, merge requests, project
 * snippets and group epics and the notes on each against the local runtime over HTTP.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, inject, it } from 'vitest';
import { createUser, type TestUser, unique } from '../support/api.ts';

const client = (token = inject('rootToken')) => new Gitlab({ host: inject('baseUrl'), token });

/** How a gitbeaker call failed: the HTTP status and the message GitLab's body carried. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ resolved: value }),
    (error: { message?: string; cause?: { response?: { status?: number } } }) => ({
      status: error.cause?.response?.status,
      message: error.message,
    }),
  );

const NOT_FOUND = { status: 404, message: '404 Not found' };
const FORBIDDEN = { status: 403, message: '403 Forbidden' };

/** The note fields every note shows, for a note by `author`. */
const noteOf = (
  body: string,
  parent: { type: string; id: number; iid: number | null },
  author: { id: number; username: string },
  system = false,
) => ({
  id: expect.any(Number),
  body,
  attachment: null,
  author: expect.objectContaining({ id: author.id, username: author.username, state: 'active' }),
  created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
  updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  system,
  noteable_id: parent.id,
  noteable_type: parent.type,
  noteable_iid: parent.iid,
});

interface NotesApi {
  create(a: number, b: number, body: string): Promise<{ id: number }>;
  all(a: number, b: number, options?: { sort?: 'asc' | 'desc' }): Promise<{ id: number; body: string }[]>;
  show(a: number, b: number, noteId: number): Promise<unknown>;
  edit(a: number, b: number, noteId: number, options: { body: string }): Promise<unknown>;
  remove(a: number, b: number, noteId: number): Promise<unknown>;
}

/**
 * create, all, show, edit and remove on one parent's notes, as `api` (IssueNotes,
 * MergeRequestNotes, ProjectSnippetNotes or EpicNotes) addresses it by `a`/`b`.
 */
async function roundTrip(
  api: NotesApi,
  a: number,
  b: number,
  parent: { type: string; id: number; iid: number | null },
  author: { id: number; username: string },
  single: Record<string, unknown> = {},
) {
  const first = await api.create(a, b, `first on ${parent.type}`);
  expect(first).toEqual(expect.objectContaining(noteOf(`first on ${parent.type}`, parent, author)));
  const second = await api.create(a, b, 'second, with `code`');
  expect(second.id).toBeGreaterThan(first.id);

  expect((await api.all(a, b)).map((note) => note.id)).toEqual([second.id, first.id]);
  expect((await api.all(a, b, { sort: 'asc' })).map((note) => note.id)).toEqual([first.id, second.id]);

  expect(await api.show(a, b, first.id)).toEqual(
    expect.objectContaining({
      ...noteOf(`first on ${parent.type}`, parent, author),
      id: first.id,
      ...single,
    }),
  );

  const edited = await api.edit(a, b, first.id, { body: 'edited' });
  expect(edited).toEqual(expect.objectContaining({ ...noteOf('edited', parent, author), id: first.id }));
  expect(await api.show(a, b, first.id)).toMatchObject({ id: first.id, body: 'edited' });
  // GitLab 10.x–11.x words the refusal by the action: "Note {…}" on create, "Failed to save note {…}" on update.
  expect(await failure(api.create(a, b, ' '))).toEqual({
    status: 400,
    message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given',
  });
  expect(await failure(api.edit(a, b, first.id, { body: '' }))).toEqual({
    status: 400,
    message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given',
  });

  await api.remove(a, b, first.id);
  expect(await failure(api.show(a, b, first.id))).toEqual(NOT_FOUND);
  expect(await failure(api.remove(a, b, first.id))).toEqual(NOT_FOUND);
  expect((await api.all(a, b)).map((note) => [note.id, note.body])).toEqual([
    [second.id, 'second, with `code`'],
  ]);
  return second;
}

describe('@gitbeaker/rest notes and their parents', () => {
  it('Issues: create, all, show, edit with stateEvent close and reopen (system notes), remove', async () => {
    const admin = client();
    const me = await admin.Users.showCurrentUser();
    const project = await admin.Projects.create({ name: unique('gb issues') });

    const issue = await admin.Issues.create(project.id, 'First', { description: 'one', labels: 'x,y' });
    expect(issue).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'First',
      description: 'one',
      state: 'opened',
      labels: ['x', 'y'],
      author: { id: me.id, username: 'root' },
      closed_at: null,
      closed_by: null,
      user_notes_count: 0,
    });
    const other = await admin.Issues.create(project.id, 'Second');
    expect(other.iid).toBe(2);

    expect((await admin.Issues.all({ projectId: project.id })).map((item) => item.iid)).toEqual([2, 1]);
    expect(await admin.Issues.show(1, { projectId: project.id })).toMatchObject({
      id: issue.id,
      title: 'First',
    });
    expect(await failure(admin.Issues.show(3, { projectId: project.id }))).toEqual(NOT_FOUND);

    const closed = await admin.Issues.edit(project.id, 1, { stateEvent: 'close', title: 'First, closed' });
    expect(closed).toMatchObject({
      iid: 1,
      state: 'closed',
      title: 'First, closed',
      closed_at: expect.any(String),
      closed_by: { id: me.id },
    });
    const notes = await admin.IssueNotes.all(project.id, 1);
    expect(notes).toEqual([
      expect.objectContaining(noteOf('closed', { type: 'Issue', id: issue.id, iid: 1 }, me, true)),
    ]);
    expect(
      (await admin.Issues.all({ projectId: project.id, state: 'opened' })).map((item) => item.iid),
    ).toEqual([2]);
    expect(
      (await admin.Issues.all({ projectId: project.id, state: 'closed' })).map((item) => item.iid),
    ).toEqual([1]);
    expect(await admin.Projects.show(project.id)).toMatchObject({ open_issues_count: 1 });
    expect(
      await failure(admin.IssueNotes.edit(project.id, 1, notes[0]?.id as number, { body: 'rewritten' })),
    ).toEqual(FORBIDDEN);

    const reopened = await admin.Issues.edit(project.id, 1, { stateEvent: 'reopen' });
    expect(reopened).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
    const bodies = (await admin.IssueNotes.all(project.id, 1, { sort: 'asc' })).map((note) => [
      note.body,
      note.system,
    ]);
    expect(bodies).toEqual([
      ['closed', true],
      ['reopened', true],
    ]);
    expect(await admin.Projects.show(project.id)).toMatchObject({ open_issues_count: 2 });
    expect(await admin.Issues.show(1, { projectId: project.id })).toMatchObject({ user_notes_count: 0 });

    await admin.Issues.remove(project.id, 2);
    expect(await failure(admin.Issues.show(2, { projectId: project.id }))).toEqual(NOT_FOUND);
    expect(await failure(admin.Issues.remove(project.id, 2))).toEqual(NOT_FOUND);
    expect(await admin.Projects.show(project.id)).toMatchObject({ open_issues_count: 1 });
    expect((await admin.Issues.all({ projectId: project.id, state: 'all' })).map((item) => item.iid)).toEqual(
      [1],
    );
    expect((await admin.Issues.create(project.id, 'Third')).iid).toBe(3);
  });

  it('IssueNotes: create, all, show, edit, remove; who may see and change them', async () => {
    const admin = client();
    const me = await admin.Users.showCurrentUser();
    const stranger: TestUser = await createUser();
    const asStranger = client(stranger.token);
    const project = await admin.Projects.create({ name: unique('gb issue notes') });
    const issue = await admin.Issues.create(project.id, 'Noted');
    const parent = { type: 'Issue', id: issue.id, iid: issue.iid };

    const left = await roundTrip(admin.IssueNotes, project.id, issue.iid, parent, me);
    expect(await admin.Issues.show(issue.iid, { projectId: project.id })).toMatchObject({
      user_notes_count: 1,
    });

    // A private project: a stranger learns nothing of it.
    const hidden = { status: 404, message: '404 Project Not Found' };
    expect(await failure(asStranger.Issues.show(issue.iid, { projectId: project.id }))).toEqual(hidden);
    expect(await failure(asStranger.IssueNotes.all(project.id, issue.iid))).toEqual(hidden);
    expect(await failure(asStranger.IssueNotes.show(project.id, issue.iid, left.id))).toEqual(hidden);
    expect(await failure(asStranger.IssueNotes.create(project.id, issue.iid, 'hi'))).toEqual(hidden);

    // A public project: they read and comment, and change only their own notes.
    await admin.Projects.edit(project.id, { visibility: 'public' });
    const theirs = await asStranger.IssueNotes.create(project.id, issue.iid, 'from a stranger');
    expect(theirs).toEqual(expect.objectContaining(noteOf('from a stranger', parent, stranger)));
    expect(
      await asStranger.IssueNotes.edit(project.id, issue.iid, theirs.id, { body: 'theirs, edited' }),
    ).toMatchObject({ body: 'theirs, edited' });
    expect(
      await failure(asStranger.IssueNotes.edit(project.id, issue.iid, left.id, { body: 'mine now' })),
    ).toEqual(FORBIDDEN);
    expect(await failure(asStranger.IssueNotes.remove(project.id, issue.iid, left.id))).toEqual(FORBIDDEN);
    expect(await failure(asStranger.Issues.edit(project.id, issue.iid, { stateEvent: 'close' }))).toEqual(
      FORBIDDEN,
    );
    await asStranger.IssueNotes.remove(project.id, issue.iid, theirs.id);
    // The admin, as maintainer and up, changes anyone's note.
    expect(await admin.IssueNotes.edit(project.id, issue.iid, left.id, { body: 'moderated' })).toMatchObject({
      body: 'moderated',
    });
    expect((await asStranger.IssueNotes.all(project.id, issue.iid)).map((note) => note.body)).toEqual([
      'moderated',
    ]);

    // Without a token.
    const anonymous = new Gitlab({ host: inject('baseUrl'), token: '' });
    expect(await failure(anonymous.IssueNotes.all(project.id, issue.iid))).toEqual({
      status: 401,
      message: '401 Unauthorized',
    });
  });

  it('pages 45 issue notes at perPage 20: automatic pagination returns each once', async () => {
    const admin = client();
    const project = await admin.Projects.create({ name: unique('gb note pages') });
    const issue = await admin.Issues.create(project.id, 'Many notes');
    const created: number[] = [];
    for (let i = 0; i < 45; i++) {
      created.push((await admin.IssueNotes.create(project.id, issue.iid, `note ${i}`)).id);
    }

    const walked = await admin.IssueNotes.all(project.id, issue.iid, { perPage: 20 });
    expect(walked.map((note) => note.id)).toEqual([...created].reverse());
    const ascending = await admin.IssueNotes.all(project.id, issue.iid, { perPage: 20, sort: 'asc' });
    expect(ascending.map((note) => note.body)).toEqual(created.map((_, i) => `note ${i}`));

    const { data, paginationInfo } = await admin.IssueNotes.all(project.id, issue.iid, {
      perPage: 20,
      page: 3,
      showExpanded: true,
    });
    expect(data.map((note) => note.id)).toEqual(created.slice(0, 5).reverse());
    expect(paginationInfo).toEqual({
      total: 45,
      totalPages: 3,
      perPage: 20,
      current: 3,
      next: null,
      previous: 2,
    });
    expect(await admin.Issues.show(issue.iid, { projectId: project.id })).toMatchObject({
      user_notes_count: 45,
    });
  });

  it('MergeRequests and MergeRequestNotes', async () => {
    const admin = client();
    const me = await admin.Users.showCurrentUser();
    const stranger = await createUser();
    const project = await admin.Projects.create({ name: unique('gb mrs') });

    const mr = await admin.MergeRequests.create(project.id, 'feature', 'master', 'First MR', {
      description: 'd',
    });
    expect(mr).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'First MR',
      description: 'd',
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'master',
      author: { id: me.id },
    });
    const second = await admin.MergeRequests.create(project.id, 'other', 'master', 'Second MR');
    expect(second.iid).toBe(2);
    expect((await admin.MergeRequests.all({ projectId: project.id })).map((item) => item.iid)).toEqual([
      2, 1,
    ]);
    expect(await admin.MergeRequests.show(project.id, 1)).toMatchObject({ id: mr.id, title: 'First MR' });
    expect(await failure(admin.MergeRequests.show(project.id, 9))).toEqual(NOT_FOUND);

    const parent = { type: 'MergeRequest', id: mr.id, iid: mr.iid };
    await roundTrip(admin.MergeRequestNotes, project.id, mr.iid, parent, me);

    const closed = await admin.MergeRequests.edit(project.id, 1, { stateEvent: 'close', title: 'Closed MR' });
    expect(closed).toMatchObject({ iid: 1, state: 'closed', title: 'Closed MR' });
    const system = (await admin.MergeRequestNotes.all(project.id, 1)).filter((note) => note.system);
    expect(system.map((note) => note.body)).toEqual(['closed']);
    expect(
      (await admin.MergeRequests.all({ projectId: project.id, state: 'opened' })).map((m) => m.iid),
    ).toEqual([2]);
    expect(await admin.MergeRequests.edit(project.id, 1, { stateEvent: 'reopen' })).toMatchObject({
      state: 'opened',
    });

    await admin.MergeRequests.remove(project.id, 2);
    expect(await failure(admin.MergeRequests.show(project.id, 2))).toEqual(NOT_FOUND);

    const asStranger = client(stranger.token);
    const hidden = { status: 404, message: '404 Project Not Found' };
    expect(await failure(asStranger.MergeRequests.show(project.id, 1))).toEqual(hidden);
    expect(await failure(asStranger.MergeRequestNotes.all(project.id, 1))).toEqual(hidden);
  });

  it('ProjectSnippets and ProjectSnippetNotes', async () => {
    const admin = client();
    const me = await admin.Users.showCurrentUser();
    const stranger = await createUser();
    const project = await admin.Projects.create({ name: unique('gb snippets') });

    // The single-file fields of GitLab 10.x–11.x (file_name, content), beside gitbeaker's typed ones.
    const options = { visibility: 'private', fileName: 'snip.rb', content: 'puts 1\n', description: 'd' };
    const snippet = await admin.ProjectSnippets.create(
      project.id,
      'Snip',
      options as { visibility: 'private' },
    );
    expect(snippet).toMatchObject({
      title: 'Snip',
      file_name: 'snip.rb',
      description: 'd',
      project_id: project.id,
      author: { id: me.id },
    });
    const id = snippet.id as number;
    expect((await admin.ProjectSnippets.all(project.id)).map((item) => item.id)).toEqual([id]);
    expect(await admin.ProjectSnippets.show(project.id, id)).toMatchObject({ id, title: 'Snip' });
    expect(await admin.ProjectSnippets.showContent(project.id, id)).toBe('puts 1\n');

    const parent = { type: 'Snippet', id, iid: null };
    const single = { title: 'Snip', file_name: 'snip.rb', expires_at: null };
    await roundTrip(admin.ProjectSnippetNotes, project.id, id, parent, me, single);

    expect(await admin.ProjectSnippets.edit(project.id, id, { title: 'Snap' } as object)).toMatchObject({
      id,
      title: 'Snap',
    });

    const asStranger = client(stranger.token);
    expect(await failure(asStranger.ProjectSnippets.show(project.id, id))).toEqual({
      status: 404,
      message: '404 Project Not Found',
    });
    expect(await failure(asStranger.ProjectSnippetNotes.all(project.id, id))).toMatchObject({ status: 404 });

    await admin.ProjectSnippets.remove(project.id, id);
    // GitLab's single read finds the snippet with `find` (404 Not found); delete, update and raw
    // look it up with `find_by` and say `404 Snippet Not Found`.
    expect(await failure(admin.ProjectSnippets.show(project.id, id))).toEqual(NOT_FOUND);
    expect(await failure(admin.ProjectSnippets.remove(project.id, id))).toEqual({
      status: 404,
      message: '404 Snippet Not Found',
    });
    expect(await failure(admin.ProjectSnippets.showContent(project.id, id))).toEqual({
      status: 404,
      message: '404 Snippet Not Found',
    });
    expect(await failure(admin.ProjectSnippetNotes.all(project.id, id))).toEqual(NOT_FOUND);
  });

  it('Epics and EpicNotes (notes addressed by the epic id)', async () => {
    const admin = client();
    const me = await admin.Users.showCurrentUser();
    const stranger = await createUser();
    const path = unique('gbe');
    const group = await admin.Groups.create(path, path);

    const epic = await admin.Epics.create(group.id, 'First epic', { description: 'd' });
    expect(epic).toMatchObject({ iid: 1, group_id: group.id, title: 'First epic', author: { id: me.id } });
    const second = await admin.Epics.create(group.id, 'Second epic');
    expect(second.iid).toBe(2);
    expect((await admin.Epics.all(group.id)).map((item) => item.iid).sort()).toEqual([1, 2]);
    expect(await admin.Epics.show(group.id, 1)).toMatchObject({ id: epic.id, title: 'First epic' });
    expect(await failure(admin.Epics.show(group.id, 9))).toEqual(NOT_FOUND);

    const parent = { type: 'Epic', id: epic.id, iid: null };
    await roundTrip(admin.EpicNotes, group.id, epic.id, parent, me, { title: 'First epic' });

    expect(await admin.Epics.edit(group.id, 1, { title: 'Renamed epic' })).toMatchObject({
      title: 'Renamed epic',
    });
    await admin.Epics.remove(group.id, 2);
    expect(await failure(admin.Epics.show(group.id, 2))).toEqual(NOT_FOUND);

    const asStranger = client(stranger.token);
    expect(await failure(asStranger.Epics.show(group.id, 1))).toMatchObject({ status: 404 });
    expect(await failure(asStranger.EpicNotes.all(group.id, epic.id))).toMatchObject({ status: 404 });
  });
});
