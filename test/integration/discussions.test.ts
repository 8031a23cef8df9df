/**
 * Discussions over HTTP on issues, merge requests, project snippets and epics: notes created through
 * the notes API listed as individual discussions, new threads, replies (a note of its own becomes a
 * thread), a note's edit and removal (a thread goes with its last note), merge request threads
 * resolved and unresolved (note by note and as a whole) by those who may, replies to another
 * parent's discussion (404), paging by discussion, and thread notes counted among the notes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface NoteBody {
  id: number;
  type: 'DiscussionNote' | null;
  body: string;
  author: { id: number; username: string };
  system: boolean;
  noteable_id: number;
  noteable_type: string;
  resolvable: boolean;
  resolved?: boolean;
  resolved_by?: { id: number; username: string } | null;
  resolved_at?: string | null;
}

interface DiscussionBody {
  id: string;
  individual_note: boolean;
  notes: NoteBody[];
}

const HEX40 = /^[0-9a-f]{40}$/;

let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let groupId: number;
let projectId: number;
/** Each parent kind's route. */
const parents: Record<'issue' | 'mergeRequest' | 'snippet' | 'epic', string> = {
  issue: '',
  mergeRequest: '',
  snippet: '',
  epic: '',
};
let mergeRequestAuthor: TestUser;

async function created<T>(path: string, json: Record<string, unknown>, token = owner.token): Promise<T> {
  return must(api<T>('POST', path, { token, json }), 201, `POST ${path}`);
}

async function addMember(user: TestUser, level: number) {
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'member',
  );
}

const list = (parent: string, query = '', token = owner.token) =>
  api<DiscussionBody[]>('GET', `${parent}/discussions${query}`, { token });

beforeAll(async () => {
  [owner, developer, reporter, mergeRequestAuthor] = (await Promise.all(
    Array.from({ length: 4 }, () => createUser()),
  )) as [TestUser, TestUser, TestUser, TestUser];
  const path = unique('discussions');
  const group = await created<{ id: number }>('/groups', { name: path, path, visibility: 'private' });
  groupId = group.id;
  const project = await created<{ id: number }>('/projects', {
    name: unique('Discussed'),
    namespace_id: group.id,
    visibility: 'private',
  });
  projectId = project.id;
  await addMember(developer, 30);
  await addMember(reporter, 20);
  await addMember(mergeRequestAuthor, 30);
  const base = `/projects/${projectId}`;
  const issue = await created<{ iid: number }>(`${base}/issues`, { title: 'an issue' });
  const mr = await created<{ iid: number }>(
    `${base}/merge_requests`,
    { title: 'a merge request', source_branch: unique('feature'), target_branch: 'master' },
    mergeRequestAuthor.token,
  );
  const snippet = await created<{ id: number }>(`${base}/snippets`, {
    title: 'a snippet',
    file_name: 'a.rb',
    content: 'puts 1\n',
    visibility: 'private',
  });
  const epic = await created<{ id: number }>(`/groups/${groupId}/epics`, { title: 'an epic' });
  parents.issue = `${base}/issues/${issue.iid}`;
  parents.mergeRequest = `${base}/merge_requests/${mr.iid}`;
  parents.snippet = `${base}/snippets/${snippet.id}`;
  parents.epic = `/groups/${groupId}/epics/${epic.id}`;
});

describe.each(['issue', 'mergeRequest', 'snippet', 'epic'] as const)('discussions on a %s', (kind) => {
  it('lists notes as individual discussions, then threads with their replies, oldest first', async () => {
    const parent = parents[kind];
    const note = await created<NoteBody>(`${parent}/notes`, { body: 'a plain note' });
    expect(note.type).toBeNull();

    const thread = await created<DiscussionBody>(`${parent}/discussions`, { body: 'a thread' });
    expect(thread.id).toMatch(HEX40);
    expect(thread.individual_note).toBe(false);
    expect(thread.notes).toHaveLength(1);
    expect(thread.notes[0]).toMatchObject({
      body: 'a thread',
      type: 'DiscussionNote',
      author: { id: owner.id },
    });

    const reply = await created<NoteBody>(`${parent}/discussions/${thread.id}/notes`, { body: 'a reply' });
    expect(reply).toMatchObject({ body: 'a reply', type: 'DiscussionNote', system: false });

    const listed = await list(parent);
    expect(listed.status).toBe(200);
    const ours = listed.body.filter((discussion) =>
      discussion.notes.some((shown) => [note.id, reply.id].includes(shown.id)),
    );
    expect(
      ours.map((discussion) => [discussion.individual_note, discussion.notes.map((n) => n.body)]),
    ).toEqual([
      [true, ['a plain note']],
      [false, ['a thread', 'a reply']],
    ]);
    const [single] = ours;
    expect(single?.id).toMatch(HEX40);

    const read = await api<DiscussionBody>('GET', `${parent}/discussions/${thread.id}`, {
      token: owner.token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(ours[1]);
    const alone = await api<DiscussionBody>('GET', `${parent}/discussions/${single?.id}`, {
      token: owner.token,
    });
    expect(alone.status).toBe(200);
    expect(alone.body).toEqual(single);

    // Thread notes are notes: listed and counted with the others.
    const notes = await api<NoteBody[]>('GET', `${parent}/notes?sort=asc&per_page=100`, {
      token: owner.token,
    });
    const mine = [note.id, thread.notes[0]?.id, reply.id];
    const shown = notes.body.filter((listed) => mine.includes(listed.id));
    expect(shown.map((listed) => [listed.body, listed.type])).toEqual([
      ['a plain note', null],
      ['a thread', 'DiscussionNote'],
      ['a reply', 'DiscussionNote'],
    ]);
  });

  it('replies to a note of its own (it becomes a thread), edits and deletes; a thread goes with its last note', async () => {
    const parent = parents[kind];
    const note = await created<NoteBody>(`${parent}/notes`, { body: 'lonely' });
    const page = await list(parent, '?per_page=100');
    const own = page.body.find((discussion) => discussion.notes[0]?.id === note.id);
    expect(own).toMatchObject({ individual_note: true, notes: [{ id: note.id, type: null }] });
    const id = own?.id ?? '';
    const reply = await created<NoteBody>(`${parent}/discussions/${id}/notes`, { body: 'joined' });
    const thread = await api<DiscussionBody>('GET', `${parent}/discussions/${id}`, { token: owner.token });
    expect(thread.body).toMatchObject({
      id,
      individual_note: false,
      notes: [
        { id: note.id, type: 'DiscussionNote', body: 'lonely' },
        { id: reply.id, type: 'DiscussionNote', body: 'joined' },
      ],
    });

    const edited = await api<NoteBody>('PUT', `${parent}/discussions/${id}/notes/${reply.id}`, {
      token: owner.token,
      json: { body: 'joined, edited' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: reply.id, body: 'joined, edited', type: 'DiscussionNote' });
    const got = await api<NoteBody>('GET', `${parent}/discussions/${id}/notes/${reply.id}`, {
      token: owner.token,
    });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(edited.body);

    // The first note goes: the thread stays, listed by its next note.
    expect(
      (await api('DELETE', `${parent}/discussions/${id}/notes/${note.id}`, { token: owner.token })).status,
    ).toBe(204);
    const after = await list(parent, '?per_page=100');
    expect(after.body.find((discussion) => discussion.id === id)).toMatchObject({
      individual_note: false,
      notes: [{ id: reply.id, body: 'joined, edited' }],
    });
    expect(
      (await api('DELETE', `${parent}/discussions/${id}/notes/${reply.id}`, { token: owner.token })).status,
    ).toBe(204);
    const gone = await api('GET', `${parent}/discussions/${id}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Discussion Not Found' });
    const relisted = await list(parent, '?per_page=100');
    expect(relisted.body.some((discussion) => discussion.id === id)).toBe(false);
  });

  it('answers GitLab’s errors: unknown discussion, another parent’s, blank bodies, no change', async () => {
    const parent = parents[kind];
    const unknown = await api('POST', `${parent}/discussions/${'a'.repeat(40)}/notes`, {
      token: owner.token,
      json: { body: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Discussion Not Found' });

    const other = kind === 'issue' ? parents.snippet : parents.issue;
    const elsewhere = await created<DiscussionBody>(`${other}/discussions`, { body: 'elsewhere' });
    const crossed = await api('POST', `${parent}/discussions/${elsewhere.id}/notes`, {
      token: owner.token,
      json: { body: 'x' },
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual({ message: '404 Discussion Not Found' });
    const crossedRead = await api('GET', `${parent}/discussions/${elsewhere.id}`, { token: owner.token });
    expect(crossedRead.status).toBe(404);
    expect(crossedRead.body).toEqual({ message: '404 Discussion Not Found' });

    const blank = await api('POST', `${parent}/discussions`, { token: owner.token, json: { body: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given',
    });
    const missing = await api('POST', `${parent}/discussions`, { token: owner.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });

    const thread = await created<DiscussionBody>(`${parent}/discussions`, { body: 'to change' });
    const noteId = thread.notes[0]?.id;
    const nothing = await api('PUT', `${parent}/discussions/${thread.id}/notes/${noteId}`, {
      token: owner.token,
      json: {},
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({
      error: 'body, resolved are missing, exactly one parameter must be provided',
    });
    const both = await api('PUT', `${parent}/discussions/${thread.id}/notes/${noteId}`, {
      token: owner.token,
      json: { body: 'x', resolved: true },
    });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'body, resolved are mutually exclusive' });
    const anonymous = await api('GET', `${parent}/discussions`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('paging discussions', () => {
  it('pages by discussion, each thread whole, with Link headers', async () => {
    const issue = await created<{ iid: number }>(`/projects/${projectId}/issues`, { title: 'paged' });
    const parent = `/projects/${projectId}/issues/${issue.iid}`;
    const threads: DiscussionBody[] = [];
    for (let index = 0; index < 5; index++) {
      const thread = await created<DiscussionBody>(`${parent}/discussions`, { body: `thread ${index}` });
      for (let reply = 0; reply < 3; reply++)
        await created(`${parent}/discussions/${thread.id}/notes`, { body: `reply ${index}.${reply}` });
      threads.push(thread);
    }
    const first = await list(parent, '?per_page=2');
    expect(first.status).toBe(200);
    expect(first.body.map((discussion) => discussion.id)).toEqual([threads[0]?.id, threads[1]?.id]);
    expect(first.body.map((discussion) => discussion.notes.length)).toEqual([4, 4]);
    expect(first.headers.get('x-next-page')).toBe('2');
    const third = await list(parent, '?per_page=2&page=3');
    expect(third.body.map((discussion) => discussion.id)).toEqual([threads[4]?.id]);
    expect(third.body[0]?.notes.map((note) => note.body)).toEqual([
      'thread 4',
      'reply 4.0',
      'reply 4.1',
      'reply 4.2',
    ]);
    expect(third.headers.get('x-next-page')).toBe('');
    const counted = await must(api<{ user_notes_count: number }>('GET', parent), 200, 'issue');
    expect(counted.user_notes_count).toBe(20);
  });
});

describe('a page of threads whose notes come and go', () => {
  it('shows each thread whole, oldest first, as replies and first notes are removed', async () => {
    const issue = await created<{ iid: number }>(`/projects/${projectId}/issues`, { title: 'pruned' });
    const parent = `/projects/${projectId}/issues/${issue.iid}`;
    const thread = await created<DiscussionBody>(`${parent}/discussions`, { body: 'first' });
    const replies: NoteBody[] = [];
    for (const body of ['r1', 'r2', 'r3'])
      replies.push(await created<NoteBody>(`${parent}/discussions/${thread.id}/notes`, { body }));
    const other = await created<DiscussionBody>(`${parent}/discussions`, { body: 'another' });
    const bodiesOf = async () => {
      const page = await list(parent, '?per_page=100');
      expect(page.status).toBe(200);
      expect(page.headers.get('x-total')).toBe('2');
      return page.body.map((discussion) => [
        discussion.id,
        discussion.individual_note,
        discussion.notes.map((note) => note.body),
      ]);
    };
    expect(await bodiesOf()).toEqual([
      [thread.id, false, ['first', 'r1', 'r2', 'r3']],
      [other.id, false, ['another']],
    ]);
    const remove = async (noteId: number) =>
      expect(
        (await api('DELETE', `${parent}/discussions/${thread.id}/notes/${noteId}`, { token: owner.token }))
          .status,
      ).toBe(204);
    await remove(replies[1]?.id ?? 0);
    expect(await bodiesOf()).toEqual([
      [thread.id, false, ['first', 'r1', 'r3']],
      [other.id, false, ['another']],
    ]);
    // The first note goes: its next note lists the thread and the replies left.
    await remove(thread.notes[0]?.id ?? 0);
    expect(await bodiesOf()).toEqual([
      [thread.id, false, ['r1', 'r3']],
      [other.id, false, ['another']],
    ]);
    await created(`${parent}/discussions/${thread.id}/notes`, { body: 'r4' });
    await remove(replies[0]?.id ?? 0);
    expect(await bodiesOf()).toEqual([
      [thread.id, false, ['r3', 'r4']],
      [other.id, false, ['another']],
    ]);
  });
});

describe('resolving merge request threads', () => {
  it('resolves and unresolves a note and a thread, by the author and developers only', async () => {
    const parent = parents.mergeRequest;
    const thread = await created<DiscussionBody>(`${parent}/discussions`, { body: 'please fix' });
    const first = thread.notes[0];
    expect(first).toMatchObject({ resolvable: true, resolved: false, resolved_by: null, resolved_at: null });
    const reply = await created<NoteBody>(`${parent}/discussions/${thread.id}/notes`, { body: 'fixed' });

    const refused = await api('PUT', `${parent}/discussions/${thread.id}`, {
      token: reporter.token,
      json: { resolved: true },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });

    const resolved = await api<DiscussionBody>('PUT', `${parent}/discussions/${thread.id}`, {
      token: mergeRequestAuthor.token,
      json: { resolved: true },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.id).toBe(thread.id);
    for (const note of resolved.body.notes) {
      expect(note).toMatchObject({
        resolvable: true,
        resolved: true,
        resolved_by: { id: mergeRequestAuthor.id, username: mergeRequestAuthor.username },
      });
      expect(note.resolved_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    const unresolved = await api<DiscussionBody>('PUT', `${parent}/discussions/${thread.id}`, {
      token: developer.token,
      json: { resolved: false },
    });
    expect(unresolved.status).toBe(200);
    expect(unresolved.body.notes.map((note) => [note.resolved, note.resolved_by, note.resolved_at])).toEqual([
      [false, null, null],
      [false, null, null],
    ]);

    const one = await api<NoteBody>('PUT', `${parent}/discussions/${thread.id}/notes/${reply.id}`, {
      token: developer.token,
      json: { resolved: true },
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: reply.id, resolved: true, resolved_by: { id: developer.id } });
    const reread = await must(
      api<DiscussionBody>('GET', `${parent}/discussions/${thread.id}`, { token: owner.token }),
      200,
    );
    expect(reread.notes.map((note) => note.resolved)).toEqual([false, true]);

    const individual = await created<NoteBody>(`${parent}/notes`, { body: 'not a thread' });
    expect(individual).toMatchObject({ resolvable: false });
    expect(individual).not.toHaveProperty('resolved');
    const notResolvable = await api('PUT', `${parent}/discussions/x/notes/${individual.id}`, {
      token: owner.token,
      json: { resolved: true },
    });
    expect(notResolvable.status).toBe(400);
    expect(notResolvable.body).toEqual({ message: 'Note is not resolvable' });
  });

  it('issue threads do not resolve', async () => {
    const thread = await created<DiscussionBody>(`${parents.issue}/discussions`, { body: 'no resolving' });
    expect(thread.notes[0]).toMatchObject({ resolvable: false });
    expect(thread.notes[0]).not.toHaveProperty('resolved');
    const route = await api('PUT', `${parents.issue}/discussions/${thread.id}`, {
      token: owner.token,
      json: { resolved: true },
    });
    expect(route.status).toBe(404);
    expect(route.body).toEqual({ error: '404 Not Found' });
  });
});
