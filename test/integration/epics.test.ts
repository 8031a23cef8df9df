/**
 * Group epics and their notes over HTTP: every operation with GitLab's statuses and whole bodies,
 * `epic_id` of the note routes as id or iid (id first), gapless iids under concurrent creation,
 * who may do what on a private and a public group, and bad input answered with 4xx, never 5xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  api,
  apiUrl,
  createUser,
  must,
  rootToken,
  type TestUser,
  unique,
} from '../support/api.ts';

interface GroupBody {
  id: number;
  full_path: string;
}
interface EpicBody {
  id: number;
  iid: number;
  group_id: number;
  title: string;
  description: string | null;
  state: string;
  labels: string[];
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  user_notes_count: number;
}
interface NoteBody {
  id: number;
  body: string;
  system: boolean;
  created_at: string;
  updated_at: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const GROUP_NOT_FOUND = { message: '404 Group Not Found' };
const NOT_FOUND = { message: '404 Not found' };

/** The base URL entities are written with (the gateway's own host). */
const base = () => new URL(apiUrl()).origin;

interface UserView {
  id: number;
  name: string;
  username: string;
  email: string;
  created_at: string;
}

const users = new Map<number, UserView>();
async function userView(id: number): Promise<UserView> {
  const known = users.get(id);
  if (known) return known;
  const user = await must(api<UserView>('GET', `/users/${id}`), 200, 'user read');
  users.set(id, user);
  return user;
}

/** UserBasic, as an epic shows its author. */
const basic = (user: UserView) => ({
  id: user.id,
  name: user.name,
  username: user.username,
  state: 'active',
  avatar_url: `${base()}/assets/no_avatar.png`,
  web_url: `${base()}/${user.username}`,
});

/** The author as a note shows it (the basic user with GitLab's avatar_url and web_url). */
const noteAuthor = (user: UserView) => ({
  ...basic(user),
  email: user.email,
  created_at: user.created_at,
});

async function newGroup(owner: TestUser, visibility: 'private' | 'public' = 'private'): Promise<GroupBody> {
  const path = unique('epics');
  return must(
    api<GroupBody>('POST', '/groups', { token: owner.token, json: { name: path, path, visibility } }),
    201,
    'group create',
  );
}

async function addMember(group: GroupBody, owner: TestUser, user: TestUser, level: number) {
  await must(
    api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      json: { user_id: user.id, access_level: level },
    }),
    201,
    'member add',
  );
}

const createEpic = (group: GroupBody, token: string, json: Record<string, unknown> = { title: 'Epic' }) =>
  must(api<EpicBody>('POST', `/groups/${group.id}/epics`, { token, json }), 201, 'epic create');

const createNote = (group: GroupBody, epicId: number, token: string, body = 'A comment') =>
  must(
    api<NoteBody>('POST', `/groups/${group.id}/epics/${epicId}/notes`, { token, json: { body } }),
    201,
    'note create',
  );

/** The whole Epic entity GitLab answers with. */
async function epicView(
  group: GroupBody,
  epic: EpicBody,
  authorId: number,
  fields: Partial<Record<string, unknown>> = {},
) {
  return {
    id: epic.id,
    iid: epic.iid,
    group_id: group.id,
    parent_id: null,
    title: epic.title,
    description: null,
    author: basic(await userView(authorId)),
    start_date: null,
    end_date: null,
    due_date: null,
    state: 'opened',
    web_url: `${base()}/groups/${group.full_path}/-/epics/${epic.iid}`,
    created_at: epic.created_at,
    updated_at: epic.updated_at,
    closed_at: null,
    labels: [],
    upvotes: 0,
    downvotes: 0,
    user_notes_count: 0,
    ...fields,
  };
}

/** The whole Note entity of a note on an epic. */
async function noteView(
  epic: EpicBody,
  note: NoteBody,
  authorId: number,
  fields: Record<string, unknown> = {},
) {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: noteAuthor(await userView(authorId)),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: false,
    noteable_id: epic.id,
    noteable_type: 'Epic',
    noteable_iid: null,
    resolvable: false,
    ...fields,
  };
}

let owner: TestUser;
let rootId: number;

beforeAll(async () => {
  owner = await createUser();
  rootId = (await must(api<{ id: number }>('GET', '/user'), 200, 'root')).id;
});

describe('epics: create, read, list, change, delete', () => {
  it('POST creates an epic with the given fields → 201 Epic', async () => {
    const group = await newGroup(owner);
    const response = await api<EpicBody>('POST', `/groups/${group.id}/epics`, {
      token: owner.token,
      json: {
        title: 'Roadmap',
        description: 'The big picture',
        labels: 'zeta,alpha, zeta',
        start_date: '2026-01-01',
        end_date: '2026-06-30',
      },
    });
    expect(response.status, response.text).toBe(201);
    const epic = response.body;
    expect(epic.id).toBeGreaterThan(0);
    expect(epic.created_at).toMatch(ISO);
    expect(epic.updated_at).toBe(epic.created_at);
    expect(epic).toEqual(
      await epicView(group, { ...epic, iid: 1, title: 'Roadmap' }, owner.id, {
        description: 'The big picture',
        labels: ['alpha', 'zeta'],
        start_date: '2026-01-01',
        end_date: '2026-06-30',
        due_date: '2026-06-30',
      }),
    );
    const read = await api('GET', `/groups/${group.id}/epics/1`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(epic);
    // by path too
    const byPath = await api('GET', `/groups/${encodeURIComponent(group.full_path)}/epics/1`, {
      token: owner.token,
    });
    expect(byPath.status).toBe(200);
    expect(byPath.body).toEqual(epic);
  });

  it('due_date is taken for end_date; an unknown iid → 404 Not found', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token, { title: 'Dated', due_date: '2027-02-03' });
    expect(epic).toEqual(
      await epicView(group, epic, owner.id, { end_date: '2027-02-03', due_date: '2027-02-03' }),
    );
    const missing = await api('GET', `/groups/${group.id}/epics/2`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });

  it('lists with state, labels, search, author, order and pages', async () => {
    const group = await newGroup(owner);
    const reporter = await createUser();
    await addMember(group, owner, reporter, 20);
    const first = await createEpic(group, owner.token, { title: 'Alpha plan', labels: 'a,b' });
    const second = await createEpic(group, reporter.token, { title: 'Beta', description: 'has PLAN inside' });
    const third = await createEpic(group, owner.token, { title: 'Gamma', labels: 'b' });
    const closed = await must(
      api<EpicBody>('PUT', `/groups/${group.id}/epics/${third.iid}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    const path = `/groups/${group.id}/epics`;
    const all = await api<EpicBody[]>('GET', path, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      await epicView(group, closed, owner.id, {
        labels: ['b'],
        state: 'closed',
        closed_at: closed.closed_at,
        updated_at: closed.updated_at,
      }),
      await epicView(group, second, reporter.id, { description: 'has PLAN inside' }),
      await epicView(group, first, owner.id, { labels: ['a', 'b'] }),
    ]);
    expect(all.headers.get('x-total')).toBe('3');
    expect(all.headers.get('x-total-pages')).toBe('1');

    const titles = async (query: string) => {
      const response = await api<EpicBody[]>('GET', `${path}?${query}`, { token: owner.token });
      expect(response.status, response.text).toBe(200);
      return { titles: response.body.map((epic) => epic.title), total: response.headers.get('x-total') };
    };
    expect(await titles('state=opened')).toEqual({ titles: ['Beta', 'Alpha plan'], total: '2' });
    expect(await titles('state=closed')).toEqual({ titles: ['Gamma'], total: '1' });
    expect(await titles('state=all&sort=asc')).toEqual({
      titles: ['Alpha plan', 'Beta', 'Gamma'],
      total: '3',
    });
    expect(await titles('labels=b')).toEqual({ titles: ['Gamma', 'Alpha plan'], total: '2' });
    expect(await titles('labels=a,b')).toEqual({ titles: ['Alpha plan'], total: '1' });
    expect(await titles('search=plan')).toEqual({ titles: ['Beta', 'Alpha plan'], total: '2' });
    expect(await titles(`author_id=${reporter.id}`)).toEqual({ titles: ['Beta'], total: '1' });
    // The closed epic was updated last.
    expect(await titles('order_by=updated_at')).toEqual({
      titles: ['Gamma', 'Beta', 'Alpha plan'],
      total: '3',
    });

    const page = await api<EpicBody[]>('GET', `${path}?per_page=2&page=2`, { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body.map((epic) => epic.title)).toEqual(['Alpha plan']);
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-next-page')).toBe('');
  });

  it('PUT changes fields; close and reopen write system notes; dates clear with ""', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token, { title: 'Old', start_date: '2026-01-01' });
    const changed = await api<EpicBody>('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      json: { title: 'New', description: 'Now described', labels: ['x', 'y'], start_date: '' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.updated_at >= epic.updated_at).toBe(true);
    expect(changed.body).toEqual(
      await epicView(group, epic, owner.id, {
        title: 'New',
        description: 'Now described',
        labels: ['x', 'y'],
        updated_at: changed.body.updated_at,
      }),
    );

    const closed = await api<EpicBody>('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      json: { state_event: 'close' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.closed_at).toMatch(ISO);
    expect(closed.body).toEqual(
      await epicView(group, epic, owner.id, {
        title: 'New',
        description: 'Now described',
        labels: ['x', 'y'],
        state: 'closed',
        closed_at: closed.body.closed_at,
        updated_at: closed.body.updated_at,
      }),
    );
    // Closing a closed epic changes nothing more (no second note).
    const again = await api<EpicBody>('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      json: { state_event: 'close' },
    });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('closed');

    const reopened = await api<EpicBody>('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      json: { state_event: 'reopen' },
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual(
      await epicView(group, epic, owner.id, {
        title: 'New',
        description: 'Now described',
        labels: ['x', 'y'],
        updated_at: reopened.body.updated_at,
      }),
    );

    const notes = await api<NoteBody[]>('GET', `/groups/${group.id}/epics/${epic.id}/notes?sort=asc`, {
      token: owner.token,
    });
    expect(notes.status).toBe(200);
    const [closedNote, reopenedNote] = notes.body as [NoteBody, NoteBody];
    expect(notes.body).toEqual([
      await noteView(epic, { ...closedNote, body: 'closed' }, owner.id, { system: true }),
      await noteView(epic, { ...reopenedNote, body: 'reopened' }, owner.id, { system: true }),
    ]);
    expect(notes.headers.get('x-total')).toBe('2');
    // System notes are not user notes.
    const read = await api<EpicBody>('GET', `/groups/${group.id}/epics/${epic.iid}`, { token: owner.token });
    expect(read.body.user_notes_count).toBe(0);

    const states = async (state: string) =>
      (
        await api<EpicBody[]>('GET', `/groups/${group.id}/epics?state=${state}`, { token: owner.token })
      ).headers.get('x-total');
    expect([await states('opened'), await states('closed'), await states('all')]).toEqual(['1', '0', '1']);
  });

  it('PUT without any field → 400 at_least_one_of', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token);
    const response = await api('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
      json: {},
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error:
        'title, description, start_date, end_date, due_date, labels, state_event are missing, at least one parameter must be provided',
    });
  });

  it('DELETE → 204; the epic, its iid and its notes are gone', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token);
    const note = await createNote(group, epic.id, owner.token);
    const removed = await api('DELETE', `/groups/${group.id}/epics/${epic.iid}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    for (const path of [
      `/groups/${group.id}/epics/${epic.iid}`,
      `/groups/${group.id}/epics/${epic.id}/notes`,
      `/groups/${group.id}/epics/${epic.id}/notes/${note.id}`,
    ]) {
      const response = await api('GET', path, { token: owner.token });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    const again = await api('DELETE', `/groups/${group.id}/epics/${epic.iid}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
    const list = await api<EpicBody[]>('GET', `/groups/${group.id}/epics`, { token: owner.token });
    expect(list.body).toEqual([]);
    expect(list.headers.get('x-total')).toBe('0');
    // The next epic still takes the next iid: iids are never given twice.
    expect((await createEpic(group, owner.token)).iid).toBe(2);
  });

  it('20 concurrent creations take the iids 1..20', async () => {
    const group = await newGroup(owner);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        api<EpicBody>('POST', `/groups/${group.id}/epics`, {
          token: owner.token,
          json: { title: `Concurrent ${index}` },
        }),
      ),
    );
    expect(created.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(created.map((response) => response.body.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect(new Set(created.map((response) => response.body.id)).size).toBe(20);
    const list = await api<EpicBody[]>('GET', `/groups/${group.id}/epics?per_page=100`, {
      token: owner.token,
    });
    expect(list.headers.get('x-total')).toBe('20');
    expect(list.body.map((epic) => epic.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
  });
});

describe('epic notes', () => {
  it('create, list, read, edit and delete a note, naming the epic by its id', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token, { title: 'Noted' });
    const path = `/groups/${group.id}/epics/${epic.id}/notes`;

    const created = await api<NoteBody>('POST', path, { token: owner.token, json: { body: 'First!' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    const note = created.body;
    expect(note).toEqual(await noteView(epic, { ...note, body: 'First!' }, owner.id));

    const list = await api<NoteBody[]>('GET', path, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([note]);
    expect(list.headers.get('x-total')).toBe('1');

    const one = await api('GET', `${path}/${note.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...note, title: 'Noted', file_name: null, expires_at: null });

    const epicRead = await api<EpicBody>('GET', `/groups/${group.id}/epics/${epic.iid}`, {
      token: owner.token,
    });
    expect(epicRead.body.user_notes_count).toBe(1);

    const edited = await api<NoteBody>('PUT', `${path}/${note.id}`, {
      token: owner.token,
      json: { body: 'Edited' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...note, body: 'Edited', updated_at: edited.body.updated_at });
    expect(edited.body.updated_at >= note.updated_at).toBe(true);

    const removed = await api('DELETE', `${path}/${note.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const again = await api('DELETE', `${path}/${note.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
    const empty = await api<NoteBody[]>('GET', path, { token: owner.token });
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-total')).toBe('0');
  });

  it('an award emoji alone answers with the single read’s shape; notes sort and page', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token, { title: 'Emoji' });
    const path = `/groups/${group.id}/epics/${epic.id}/notes`;
    const emoji = await api<NoteBody>('POST', path, { token: owner.token, json: { body: ':thumbsup:' } });
    expect(emoji.status).toBe(201);
    expect(emoji.body).toEqual({
      ...(await noteView(epic, emoji.body, owner.id)),
      body: ':thumbsup:',
      title: 'Emoji',
      file_name: null,
      expires_at: null,
    });
    const second = await createNote(group, epic.id, owner.token, 'Second');
    const desc = await api<NoteBody[]>('GET', `${path}?per_page=1`, { token: owner.token });
    expect(desc.body.map((note) => note.id)).toEqual([second.id]);
    expect(desc.headers.get('x-total')).toBe('2');
    expect(desc.headers.get('x-total-pages')).toBe('2');
    const asc = await api<NoteBody[]>('GET', `${path}?sort=asc&order_by=updated_at`, { token: owner.token });
    expect(asc.body.map((note) => note.body)).toEqual([':thumbsup:', 'Second']);
  });

  it('epic_id is the global id of an epic of this group first, else the iid of one', async () => {
    const group = await newGroup(owner);
    const other = await newGroup(owner);
    // An epic of another group whose id may be an iid here.
    const elsewhere = await createEpic(other, owner.token, { title: 'Elsewhere' });
    const first = await createEpic(group, owner.token, { title: 'First' });
    // Create epics until one has the first epic's id as its iid.
    const epics = [first];
    while ((epics[epics.length - 1] as EpicBody).iid < first.id) {
      epics.push(await createEpic(group, owner.token, { title: `Filler ${epics.length + 1}` }));
    }
    const byIid = epics[first.id - 1] as EpicBody;
    expect(byIid.iid).toBe(first.id);
    expect(byIid.id).not.toBe(first.id);
    const noteOnFirst = await createNote(group, first.id, owner.token, 'on first');
    const noteOnIid = await createNote(group, byIid.id, owner.token, 'on the iid one');

    // The number is the first epic's id and the other's iid: the id wins.
    const shared = await api<NoteBody[]>('GET', `/groups/${group.id}/epics/${first.id}/notes`, {
      token: owner.token,
    });
    expect(shared.body).toEqual([await noteView(first, noteOnFirst, owner.id)]);
    const sharedOne = await api('GET', `/groups/${group.id}/epics/${first.id}/notes/${noteOnIid.id}`, {
      token: owner.token,
    });
    expect(sharedOne.status).toBe(404);
    expect(sharedOne.body).toEqual(NOT_FOUND);

    // The id of another group's epic is no id here: it is the iid of this group's epic.
    const elsewhereIid = epics[elsewhere.id - 1] as EpicBody;
    expect(elsewhereIid.iid).toBe(elsewhere.id);
    const noteViaIid = await createNote(group, elsewhere.id, owner.token, 'through the iid');
    expect(noteViaIid).toEqual(
      await noteView(elsewhereIid, { ...noteViaIid, body: 'through the iid' }, owner.id),
    );
    const viaIid = await api<NoteBody[]>('GET', `/groups/${group.id}/epics/${elsewhere.id}/notes`, {
      token: owner.token,
    });
    expect(viaIid.status).toBe(200);
    expect(viaIid.body).toEqual([noteViaIid]);

    // iid 1 (no epic of this group has id 1) names the first epic: create, read, edit through it.
    const throughIid = await api<NoteBody>('POST', `/groups/${group.id}/epics/1/notes`, {
      token: owner.token,
      json: { body: 'via iid' },
    });
    expect(throughIid.status).toBe(201);
    expect(throughIid.body).toEqual(await noteView(first, { ...throughIid.body, body: 'via iid' }, owner.id));
    const readThrough = await api('GET', `/groups/${group.id}/epics/1/notes/${throughIid.body.id}`, {
      token: owner.token,
    });
    expect(readThrough.status).toBe(200);
    expect(readThrough.body).toEqual({
      ...throughIid.body,
      title: 'First',
      file_name: null,
      expires_at: null,
    });

    // Neither an id nor an iid: 404; another group's route does not reach this group's epic.
    const nowhere = await api('GET', `/groups/${group.id}/epics/999999999/notes`, { token: owner.token });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body).toEqual(NOT_FOUND);
    const foreign = await api('GET', `/groups/${other.id}/epics/${first.id}/notes/${noteOnFirst.id}`, {
      token: owner.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(NOT_FOUND);
  });

  it('owners backdate notes; others’ created_at is ignored', async () => {
    const group = await newGroup(owner);
    const developer = await createUser();
    await addMember(group, owner, developer, 30);
    const epic = await createEpic(group, owner.token);
    const path = `/groups/${group.id}/epics/${epic.id}/notes`;
    const backdated = await api<NoteBody>('POST', path, {
      token: owner.token,
      json: { body: 'old', created_at: '2020-01-02T03:04:05Z' },
    });
    expect(backdated.status).toBe(201);
    expect(backdated.body.created_at).toBe('2020-01-02T03:04:05.000Z');
    const ignored = await api<NoteBody>('POST', path, {
      token: developer.token,
      json: { body: 'now', created_at: '2020-01-02T03:04:05Z' },
    });
    expect(ignored.status).toBe(201);
    expect(ignored.body.created_at).not.toBe('2020-01-02T03:04:05.000Z');
    expect(ignored.body.created_at).toMatch(ISO);
  });

  it('system notes are nobody’s to edit or delete', async () => {
    const group = await newGroup(owner);
    const epic = await createEpic(group, owner.token);
    await must(
      api('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    const [system] = await must(
      api<NoteBody[]>('GET', `/groups/${group.id}/epics/${epic.id}/notes`, { token: owner.token }),
      200,
      'notes',
    );
    const path = `/groups/${group.id}/epics/${epic.id}/notes/${(system as NoteBody).id}`;
    const edit = await api('PUT', path, { token: rootToken(), json: { body: 'x' } });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual(FORBIDDEN);
    const remove = await api('DELETE', path, { token: rootToken() });
    expect(remove.status).toBe(403);
    expect(remove.body).toEqual(FORBIDDEN);
  });
});

// Permissions ---------------------------------------------------------------------------------------

const ROLES = [
  'anonymous',
  'non-member',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
] as const;
type Role = (typeof ROLES)[number];
const LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const;

interface World {
  group: GroupBody;
  users: Record<Exclude<Role, 'anonymous' | 'admin'>, TestUser>;
  epic: EpicBody;
  note: NoteBody;
}

async function permissionWorld(visibility: 'private' | 'public'): Promise<World> {
  const groupOwner = await createUser();
  const group = await newGroup(groupOwner, visibility);
  const members = {
    guest: await createUser(),
    reporter: await createUser(),
    developer: await createUser(),
    maintainer: await createUser(),
  };
  for (const [role, user] of Object.entries(members)) {
    await addMember(group, groupOwner, user, LEVELS[role as keyof typeof LEVELS]);
  }
  const epic = await createEpic(group, groupOwner.token, { title: 'Shared' });
  const note = await createNote(group, epic.id, groupOwner.token, 'by the owner');
  return {
    group,
    users: { 'non-member': await createUser(), ...members, owner: groupOwner },
    epic,
    note,
  };
}

const tokenOf = (world: World, role: Role): string | null =>
  role === 'anonymous' ? null : role === 'admin' ? rootToken() : world.users[role].token;

interface Operation {
  name: string;
  call: (world: World, token: string | null) => Promise<ApiResponse>;
  /** The body a success answers with. */
  success: (world: World) => unknown;
}

/** An epic made by the group's owner for one cell to act on. */
const freshEpic = (world: World) => createEpic(world.group, world.users.owner.token, { title: 'Target' });

const operations: Record<string, Operation> = {
  list: {
    name: 'GET /groups/:id/epics',
    call: (world, token) => api('GET', `/groups/${world.group.id}/epics?state=all&search=Shared`, { token }),
    success: (world) => [expect.objectContaining({ id: world.epic.id, title: 'Shared' })],
  },
  get: {
    name: 'GET /groups/:id/epics/:epic_iid',
    call: (world, token) => api('GET', `/groups/${world.group.id}/epics/${world.epic.iid}`, { token }),
    success: (world) => expect.objectContaining({ id: world.epic.id, iid: world.epic.iid, title: 'Shared' }),
  },
  create: {
    name: 'POST /groups/:id/epics',
    call: (world, token) =>
      api('POST', `/groups/${world.group.id}/epics`, { token, json: { title: 'Mine' } }),
    success: (world) => expect.objectContaining({ group_id: world.group.id, title: 'Mine', state: 'opened' }),
  },
  update: {
    name: 'PUT /groups/:id/epics/:epic_iid',
    call: async (world, token) => {
      const epic = await freshEpic(world);
      return api('PUT', `/groups/${world.group.id}/epics/${epic.iid}`, { token, json: { title: 'Renamed' } });
    },
    success: () => expect.objectContaining({ title: 'Renamed' }),
  },
  delete: {
    name: 'DELETE /groups/:id/epics/:epic_iid',
    call: async (world, token) => {
      const epic = await freshEpic(world);
      return api('DELETE', `/groups/${world.group.id}/epics/${epic.iid}`, { token });
    },
    success: () => undefined,
  },
  listNotes: {
    name: 'GET …/epics/:epic_id/notes',
    call: (world, token) => api('GET', `/groups/${world.group.id}/epics/${world.epic.id}/notes`, { token }),
    success: (world) => [expect.objectContaining({ id: world.note.id, body: 'by the owner' })],
  },
  getNote: {
    name: 'GET …/notes/:note_id',
    call: (world, token) =>
      api('GET', `/groups/${world.group.id}/epics/${world.epic.id}/notes/${world.note.id}`, { token }),
    success: (world) => expect.objectContaining({ id: world.note.id, title: 'Shared', file_name: null }),
  },
  createNote: {
    name: 'POST …/notes',
    call: (world, token) =>
      api('POST', `/groups/${world.group.id}/epics/${world.epic.id}/notes`, { token, json: { body: 'hi' } }),
    success: (world) =>
      expect.objectContaining({ body: 'hi', noteable_id: world.epic.id, noteable_type: 'Epic' }),
  },
  updateNote: {
    name: 'PUT …/notes/:note_id (someone else’s)',
    call: async (world, token) => {
      const note = await createNote(world.group, world.epic.id, world.users.owner.token, 'to edit');
      return api('PUT', `/groups/${world.group.id}/epics/${world.epic.id}/notes/${note.id}`, {
        token,
        json: { body: 'edited' },
      });
    },
    success: () => expect.objectContaining({ body: 'edited' }),
  },
  deleteNote: {
    name: 'DELETE …/notes/:note_id (someone else’s)',
    call: async (world, token) => {
      const note = await createNote(world.group, world.epic.id, world.users.owner.token, 'to delete');
      return api('DELETE', `/groups/${world.group.id}/epics/${world.epic.id}/notes/${note.id}`, { token });
    },
    success: () => undefined,
  },
};

type Expectations = Record<keyof typeof operations, Record<Role, number>>;

/**
 * Who may do what, by role: success statuses, 401, 403, 404 Group Not Found. Anonymous callers
 * read a public group's epics (list and single) and get 404 for a private group's; everything
 * else asks them for a token.
 */
function expectations(visibility: 'private' | 'public'): Expectations {
  const hidden = visibility === 'private' ? 404 : undefined;
  const row = (success: number, minimum: Role, anonymous = 401): Record<Role, number> => {
    const allowedFrom = ROLES.indexOf(minimum);
    return Object.fromEntries(
      ROLES.map((role, index) => {
        if (role === 'anonymous') return [role, anonymous];
        if (role === 'non-member' && hidden) return [role, hidden];
        return [role, index >= allowedFrom ? success : 403];
      }),
    ) as Record<Role, number>;
  };
  const readers = visibility === 'private' ? 'guest' : 'non-member';
  const anonymousReads = hidden ?? 200;
  return {
    list: row(200, readers, anonymousReads),
    get: row(200, readers, anonymousReads),
    create: row(201, 'reporter'),
    update: row(200, 'reporter'),
    delete: row(204, 'owner'),
    listNotes: row(200, readers),
    getNote: row(200, readers),
    createNote: row(201, readers),
    updateNote: row(200, 'maintainer'),
    deleteNote: row(204, 'maintainer'),
  };
}

const ERROR_BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: GROUP_NOT_FOUND };

for (const visibility of ['private', 'public'] as const) {
  describe(`epic permissions on a ${visibility} group`, () => {
    let world: World;
    beforeAll(async () => {
      world = await permissionWorld(visibility);
    });
    const expected = expectations(visibility);
    for (const [key, operation] of Object.entries(operations)) {
      for (const role of ROLES) {
        const status = expected[key]?.[role] as number;
        it(`${operation.name} as ${role} → ${status}`, async () => {
          const response = await operation.call(world, tokenOf(world, role));
          expect(response.status, response.text).toBe(status);
          expect(response.body).toEqual(status < 300 ? operation.success(world) : ERROR_BODIES[status]);
        });
      }
    }
  });
}

describe('epic permissions beyond roles', () => {
  it('a guest edits and deletes their own note; a guest author may not change their epic', async () => {
    const group = await newGroup(owner);
    const guest = await createUser();
    const reporter = await createUser();
    await addMember(group, owner, reporter, 20);
    await addMember(group, owner, guest, 10);
    const epic = await createEpic(group, reporter.token, { title: 'By a reporter' });
    const note = await createNote(group, epic.id, guest.token, 'mine');
    const path = `/groups/${group.id}/epics/${epic.id}/notes/${note.id}`;
    const edited = await api<NoteBody>('PUT', path, { token: guest.token, json: { body: 'still mine' } });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('still mine');
    const removed = await api('DELETE', path, { token: guest.token });
    expect(removed.status).toBe(204);
    // Demoted to guest, the epic's author may no longer change it (GitLab: admin_epic is reporter+).
    await must(
      api('PUT', `/groups/${group.id}/members/${reporter.id}`, {
        token: owner.token,
        json: { access_level: 10 },
      }),
      200,
      'demote',
    );
    const update = await api('PUT', `/groups/${group.id}/epics/${epic.iid}`, {
      token: reporter.token,
      json: { title: 'Mine still?' },
    });
    expect(update.status).toBe(403);
    expect(update.body).toEqual(FORBIDDEN);
    expect(rootId).toBeGreaterThan(0);
  });
});

// Bad input -------------------------------------------------------------------------------------------

describe('epics: bad input is a 4xx in GitLab’s shape', () => {
  let group: GroupBody;
  let epic: EpicBody;
  let note: NoteBody;
  beforeAll(async () => {
    group = await newGroup(owner);
    epic = await createEpic(group, owner.token);
    note = await createNote(group, epic.id, owner.token);
  });

  const cases: [
    string,
    () => [string, string, { json?: unknown; body?: string; headers?: Record<string, string> }],
    number,
    unknown,
  ][] = [
    [
      'title missing',
      () => ['POST', `/groups/${group.id}/epics`, { json: {} }],
      400,
      { error: 'title is missing' },
    ],
    [
      'title blank',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: '  ' } }],
      400,
      { message: { title: ["can't be blank"] } },
    ],
    [
      'title too long',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: 'x'.repeat(256) } }],
      400,
      { message: { title: ['is too long (maximum is 255 characters)'] } },
    ],
    [
      'description too long',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: 't', description: 'd'.repeat(65_536) } }],
      400,
      { message: { description: ['is too long (maximum is 65535 characters)'] } },
    ],
    [
      'too many labels',
      () => [
        'POST',
        `/groups/${group.id}/epics`,
        { json: { title: 't', labels: Array.from({ length: 51 }, (_, index) => `l${index}`).join(',') } },
      ],
      400,
      { error: 'labels is invalid' },
    ],
    [
      'a label too long',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: 't', labels: ['y'.repeat(256)] } }],
      400,
      { message: { labels: ['is too long (maximum is 255 characters)'] } },
    ],
    [
      'start_date not a date',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: 't', start_date: '2026-02-30' } }],
      400,
      { error: 'start_date is invalid' },
    ],
    [
      'end_date an object',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: 't', end_date: { a: 1 } } }],
      400,
      { error: 'end_date is invalid' },
    ],
    [
      'title an array',
      () => ['POST', `/groups/${group.id}/epics`, { json: { title: ['a'] } }],
      400,
      { error: 'title is invalid' },
    ],
    [
      'a body that is no JSON object',
      () => [
        'POST',
        `/groups/${group.id}/epics`,
        { body: '[1,2]', headers: { 'Content-Type': 'application/json' } },
      ],
      400,
      { error: 'The request body must be a JSON object' },
    ],
    [
      'state not allowed',
      () => ['GET', `/groups/${group.id}/epics?state=merged`, {}],
      400,
      { error: 'state does not have a valid value' },
    ],
    [
      'order_by not allowed',
      () => ['GET', `/groups/${group.id}/epics?order_by=title`, {}],
      400,
      { error: 'order_by does not have a valid value' },
    ],
    [
      'author_id not a number',
      () => ['GET', `/groups/${group.id}/epics?author_id=abc`, {}],
      400,
      { error: 'author_id is invalid' },
    ],
    [
      'per_page 0',
      () => ['GET', `/groups/${group.id}/epics?per_page=0`, {}],
      400,
      { error: 'per_page does not have a valid value' },
    ],
    [
      'search too long',
      () => ['GET', `/groups/${group.id}/epics?search=${'s'.repeat(256)}`, {}],
      400,
      {
        message: { search: ['is too long (maximum is 255 characters)'] },
      },
    ],
    [
      'epic_iid not a number',
      () => ['GET', `/groups/${group.id}/epics/abc`, {}],
      400,
      { error: 'epic_iid is invalid' },
    ],
    [
      'epic_iid zero',
      () => ['GET', `/groups/${group.id}/epics/0`, {}],
      400,
      { error: 'epic_iid is invalid' },
    ],
    [
      'epic_iid beyond any integer',
      () => ['GET', `/groups/${group.id}/epics/99999999999999999999`, {}],
      400,
      { error: 'epic_iid is invalid' },
    ],
    ['epic_iid unknown', () => ['GET', `/groups/${group.id}/epics/999999999999999`, {}], 404, NOT_FOUND],
    [
      'state_event not allowed',
      () => ['PUT', `/groups/${group.id}/epics/${epic.iid}`, { json: { state_event: 'merge' } }],
      400,
      {
        error: 'state_event does not have a valid value',
      },
    ],
    ['group unknown', () => ['GET', '/groups/999999999999/epics', {}], 404, GROUP_NOT_FOUND],
    ['group path unknown', () => ['GET', `/groups/${unique('nope')}/epics/1`, {}], 404, GROUP_NOT_FOUND],
    [
      'group path too deep',
      () => ['GET', `/groups/${encodeURIComponent('a/'.repeat(300))}/epics`, {}],
      404,
      GROUP_NOT_FOUND,
    ],
    [
      'note body missing',
      () => ['POST', `/groups/${group.id}/epics/${epic.id}/notes`, { json: {} }],
      400,
      {
        error: 'body is missing',
      },
    ],
    [
      'note body blank',
      () => ['POST', `/groups/${group.id}/epics/${epic.id}/notes`, { json: { body: '' } }],
      400,
      {
        message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given',
      },
    ],
    [
      'note body too long',
      () => ['POST', `/groups/${group.id}/epics/${epic.id}/notes`, { json: { body: 'b'.repeat(1_000_001) } }],
      400,
      {
        message:
          '400 (Bad request) "Note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
      },
    ],
    [
      'note created_at not a time',
      () => [
        'POST',
        `/groups/${group.id}/epics/${epic.id}/notes`,
        {
          json: { body: 'x', created_at: 'yesterday' },
        },
      ],
      400,
      { error: 'created_at is invalid' },
    ],
    [
      'note sort not allowed',
      () => ['GET', `/groups/${group.id}/epics/${epic.id}/notes?sort=up`, {}],
      400,
      {
        error: 'sort does not have a valid value',
      },
    ],
    [
      'epic_id not a number',
      () => ['GET', `/groups/${group.id}/epics/x/notes`, {}],
      400,
      { error: 'epic_id is invalid' },
    ],
    ['epic_id unknown', () => ['GET', `/groups/${group.id}/epics/999999999999999/notes`, {}], 404, NOT_FOUND],
    [
      'note_id not a number',
      () => ['GET', `/groups/${group.id}/epics/${epic.id}/notes/x`, {}],
      400,
      {
        error: 'note_id is invalid',
      },
    ],
    [
      'note_id unknown',
      () => ['GET', `/groups/${group.id}/epics/${epic.id}/notes/999999999999999`, {}],
      404,
      NOT_FOUND,
    ],
    [
      'note edit body blank',
      () => ['PUT', `/groups/${group.id}/epics/${epic.id}/notes/${note.id}`, { json: { body: ' ' } }],
      400,
      {
        message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given',
      },
    ],
    [
      'note edit body missing',
      () => ['PUT', `/groups/${group.id}/epics/${epic.id}/notes/${note.id}`, { json: {} }],
      400,
      {
        error: 'body is missing',
      },
    ],
  ];

  for (const [name, request, status, body] of cases) {
    it(`${name} → ${status}`, async () => {
      const [method, path, options] = request();
      const response = await api(method, path, { token: owner.token, ...options });
      expect(response.status, response.text.slice(0, 300)).toBe(status);
      expect(response.body).toEqual(body);
    });
  }
});
