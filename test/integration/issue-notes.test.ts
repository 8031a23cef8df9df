/**
 * Notes on issues over HTTP: listing in both orders and directions, walking 250 notes by the Link
 * header, single reads, creating (with created_at for owners and admins), editing, deleting,
 * system notes that nobody edits, the body's limits, 404s for unknown and hidden parents, 401 for
 * anonymous callers, and no 5xx for anything a client sends.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';
import { partitionItems, storedItem } from '../support/db.ts';

interface Author {
  id: number;
  name: string;
  username: string;
  state: string;
  avatar_url: string;
  web_url: string;
  email: string;
  created_at: string;
}

interface NoteBody {
  id: number;
  type: null;
  body: string;
  attachment: null;
  author: Author;
  created_at: string;
  updated_at: string;
  system: boolean;
  noteable_id: number;
  noteable_type: 'Issue';
  noteable_iid: number;
  resolvable: boolean;
}

interface IssueBody {
  id: number;
  iid: number;
  user_notes_count: number;
}

interface ProjectBody {
  id: number;
  path_with_namespace: string;
}

interface Person {
  id: number;
  username: string;
  name: string;
  email: string;
  created_at: string;
  token: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { message: '404 Not found' };
const FORBIDDEN = { message: '403 Forbidden' };
const BLANK = { message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given' };
const TOO_LONG = {
  message: '400 (Bad request) "Note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
};
/** GitLab 10.x–11.x words a refused edit as a failed save. */
const BLANK_EDIT = {
  message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given',
};
const TOO_LONG_EDIT = {
  message:
    '400 (Bad request) "Failed to save note {:note=>["is too long (maximum is 1000000 characters)"]}" not given',
};

let baseUrl: string;

/** A user with what a note's author shows of them (read as admin). */
async function person(user: TestUser): Promise<Person> {
  const shown = await must(
    api<{ name: string; email: string; created_at: string }>('GET', `/users/${user.id}`),
    200,
    'user',
  );
  return { ...user, name: shown.name, email: shown.email, created_at: shown.created_at };
}

const authorView = (user: Person): Author => ({
  id: user.id,
  name: user.name,
  username: user.username,
  state: 'active',
  avatar_url: `${baseUrl}/assets/no_avatar.png`,
  web_url: `${baseUrl}/${user.username}`,
  email: user.email,
  created_at: user.created_at,
});

/** The whole Note entity. */
const noteView = (
  issue: IssueBody,
  fields: {
    id: number;
    body: string;
    author: Person;
    created_at: string;
    updated_at?: string;
    system?: boolean;
  },
): NoteBody => ({
  id: fields.id,
  type: null,
  body: fields.body,
  attachment: null,
  author: authorView(fields.author),
  created_at: fields.created_at,
  updated_at: fields.updated_at ?? fields.created_at,
  system: fields.system ?? false,
  noteable_id: issue.id,
  noteable_type: 'Issue',
  noteable_iid: issue.iid,
  resolvable: false,
});

function expectRecent(value: string, since: number) {
  expect(value).toMatch(ISO);
  expect(Date.parse(value)).toBeGreaterThanOrEqual(since - 5);
  expect(Date.parse(value)).toBeLessThanOrEqual(Date.now() + 5);
}

async function createProject(owner: Person, fields: Record<string, unknown> = {}): Promise<ProjectBody> {
  return must(
    api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Notes'), visibility: 'public', ...fields },
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

const notesPath = (projectId: number, iid: number) => `/projects/${projectId}/issues/${iid}/notes`;

/** The sort keys of an issue's partition as DynamoDB Local holds it (the issue, its notes, their parts). */
/** The issue's partition as sort keys, its counter shards and rollup left out. */
const issuePartition = async (projectId: number, iid: number) =>
  (await partitionItems(`ISSUE#${projectId}#${iid}`))
    .map((item) => String(item.sk))
    .filter((sk) => !sk.startsWith('COUNT'));

/** The parts a note's item names, as sort keys (none when its body is in the item). */
async function namedParts(projectId: number, iid: number, noteId: number): Promise<string[]> {
  const sk = `NOTE#${String(noteId).padStart(12, '0')}`;
  const note = await storedItem(`ISSUE#${projectId}#${iid}`, sk);
  const parts = note?.body_parts as { generation: string; count: number } | undefined;
  if (!parts) return [];
  return Array.from(
    { length: parts.count },
    (_, index) => `${sk}#PART#${String(index).padStart(3, '0')}#${parts.generation}`,
  );
}

/** A body that gzip cannot fit in one item: it is stored in parts. */
const incompressible = (length: number, seed: number) =>
  Array.from({ length }, (_, index) =>
    String.fromCodePoint(0x4e00 + ((index * 7919 + (index >> 3) * 104729 + seed * 31) % 20000)),
  ).join('');

async function addNote(projectId: number, iid: number, token: string, body: string): Promise<NoteBody> {
  return must(api<NoteBody>('POST', notesPath(projectId, iid), { token, json: { body } }), 201, 'note');
}

let root: Person;
let owner: Person;
let maintainer: Person;
let reporter: Person;
let guest: Person;
let stranger: Person;
let project: ProjectBody;
let issue: IssueBody;

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  const me = await must(api<{ id: number }>('GET', '/user'), 200, 'root');
  root = await person({ id: me.id, username: 'root', email: '', token: inject('rootToken') });
  const users = await Promise.all(Array.from({ length: 5 }, () => createUser()));
  [owner, maintainer, reporter, guest, stranger] = (await Promise.all(users.map(person))) as [
    Person,
    Person,
    Person,
    Person,
    Person,
  ];
  project = await createProject(owner as Person);
  await addMember(project.id, maintainer as Person, 40);
  await addMember(project.id, reporter as Person, 20);
  await addMember(project.id, guest as Person, 10);
  issue = await openIssue(project.id, owner.token, { title: 'Discuss me' });
});

describe('GET …/issues/:issue_iid/notes', () => {
  it('newest first by default; sort=asc and sort=desc are exact reverses, system notes included', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'ordering' });
    const path = notesPath(project.id, target.iid);
    const written: NoteBody[] = [];
    for (const [index, who] of [owner, reporter, guest, stranger].entries())
      written.push(await addNote(project.id, target.iid, who.token, `note ${index}`));
    await must(
      api('PUT', `/projects/${project.id}/issues/${target.iid}`, { json: { state_event: 'close' } }),
      200,
      'close',
    );
    written.push(await addNote(project.id, target.iid, reporter.token, 'after closing'));

    const byDefault = await api<NoteBody[]>('GET', path, { token: guest.token });
    expect(byDefault.status).toBe(200);
    const desc = await api<NoteBody[]>('GET', `${path}?sort=desc`, { token: guest.token });
    const asc = await api<NoteBody[]>('GET', `${path}?sort=asc`, { token: guest.token });
    expect(desc.body).toEqual(byDefault.body);
    expect(asc.body).toEqual([...desc.body].reverse());
    expect(asc.body.map((note) => note.body)).toEqual([
      'note 0',
      'note 1',
      'note 2',
      'note 3',
      'closed',
      'after closing',
    ]);
    for (const response of [byDefault, desc, asc]) {
      expect(response.headers.get('x-total')).toBe('6');
      expect(response.headers.get('x-total-pages')).toBe('1');
    }
    // Each listed note is the note as created (and as the single read shows it).
    const system = asc.body[4] as NoteBody;
    expect(system).toEqual(
      noteView(target, {
        id: system.id,
        body: 'closed',
        author: root,
        created_at: system.created_at,
        system: true,
      }),
    );
    expect(asc.body.filter((note) => !note.system)).toEqual(written);
    for (const note of asc.body) {
      const one = await api<NoteBody>('GET', `${path}/${note.id}`, { token: guest.token });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(note);
    }
    const read = await must(
      api<IssueBody>('GET', `/projects/${project.id}/issues/${target.iid}`),
      200,
      'issue',
    );
    expect(read.user_notes_count).toBe(5);
  });

  it('250 notes walked by the Link header’s rel="next": each once, none missing, in order', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'busy' });
    const created: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const notes = await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          addNote(project.id, target.iid, owner.token, `bulk ${batch * 25 + index}`),
        ),
      );
      created.push(...notes.map((note) => note.id));
    }
    const seen: NoteBody[] = [];
    let url: string | undefined = `${inject('apiUrl')}${notesPath(project.id, target.iid)}?per_page=40`;
    let pages = 0;
    while (url) {
      const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': owner.token } });
      expect(response.status).toBe(200);
      pages++;
      expect(response.headers.get('x-total')).toBe('250');
      expect(response.headers.get('x-total-pages')).toBe('7');
      expect(response.headers.get('x-page')).toBe(String(pages));
      const body = (await response.json()) as NoteBody[];
      expect(body.length).toBe(pages < 7 ? 40 : 10);
      seen.push(...body);
      const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '');
      url = next?.[1]?.replace(baseUrl, inject('baseUrl'));
    }
    expect(pages).toBe(7);
    const ids = seen.map((note) => note.id);
    expect(new Set(ids).size).toBe(250);
    expect([...ids].sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
    // Newest first: created times never rise along the walk (ties broken by id, newest first).
    for (let index = 1; index < seen.length; index++) {
      const [before, after] = [seen[index - 1] as NoteBody, seen[index] as NoteBody];
      expect(
        before.created_at > after.created_at ||
          (before.created_at === after.created_at && before.id > after.id),
      ).toBe(true);
    }
    // Past the last page: nothing, and still the totals.
    const past = await api<NoteBody[]>('GET', `${notesPath(project.id, target.iid)}?per_page=40&page=8`, {
      token: owner.token,
    });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total')).toBe('250');
    // per_page above 100 is 100.
    const clamped = await api<NoteBody[]>('GET', `${notesPath(project.id, target.iid)}?per_page=500`, {
      token: owner.token,
    });
    expect(clamped.body.length).toBe(100);
    expect(clamped.headers.get('x-per-page')).toBe('100');
    expect(clamped.headers.get('x-total-pages')).toBe('3');
  });

  it('order_by=updated_at follows edits: an edited old note comes first with sort=desc', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'edits' });
    const path = notesPath(project.id, target.iid);
    const first = await addNote(project.id, target.iid, reporter.token, 'first');
    const second = await addNote(project.id, target.iid, reporter.token, 'second');
    const third = await addNote(project.id, target.iid, reporter.token, 'third');
    const order = async (query: string) =>
      (await must(api<NoteBody[]>('GET', `${path}${query}`, { token: owner.token }), 200, query)).map(
        (note) => note.body,
      );
    expect(await order('?order_by=updated_at')).toEqual(['third', 'second', 'first']);
    await must(
      api('PUT', `${path}/${first.id}`, { token: reporter.token, json: { body: 'first (edited)' } }),
      200,
      'edit',
    );
    expect(await order('?order_by=updated_at&sort=desc')).toEqual(['first (edited)', 'third', 'second']);
    expect(await order('?order_by=updated_at&sort=asc')).toEqual(['second', 'third', 'first (edited)']);
    expect(await order('?order_by=created_at&sort=desc')).toEqual(['third', 'second', 'first (edited)']);
    expect(await order('')).toEqual(['third', 'second', 'first (edited)']);
    expect([first.id, second.id, third.id].every((id) => id > 0)).toBe(true);
  });
});

describe('GET …/notes/:note_id', () => {
  it('the note; unknown note ids and issue iids are 404 Not found', async () => {
    const since = Date.now();
    const note = await addNote(project.id, issue.iid, reporter.token, 'Single read');
    expectRecent(note.created_at, since);
    const expected = noteView(issue, {
      id: note.id,
      body: 'Single read',
      author: reporter,
      created_at: note.created_at,
    });
    expect(note).toEqual(expected);
    const read = await api<NoteBody>('GET', `${notesPath(project.id, issue.iid)}/${note.id}`, {
      token: stranger.token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
    const misses = [
      `${notesPath(project.id, issue.iid)}/999999999`,
      `${notesPath(project.id, 4040)}/${note.id}`,
      notesPath(project.id, 4040),
    ];
    for (const path of misses) {
      const response = await api('GET', path, { token: owner.token });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    // A note of another issue is not this issue's.
    const other = await openIssue(project.id, owner.token, { title: 'other' });
    const elsewhere = await api('GET', `${notesPath(project.id, other.iid)}/${note.id}`, {
      token: owner.token,
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual(NOT_FOUND);
  });
});

describe('POST …/notes', () => {
  it('created_at is honoured for admins and owners and silently ignored for others', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'backdating' });
    for (const who of [root, owner]) {
      const note = await must(
        api<NoteBody>('POST', notesPath(project.id, target.iid), {
          token: who.token,
          json: { body: `old by ${who.username}`, created_at: '2018-03-04T05:06:07Z' },
        }),
        201,
        'backdated',
      );
      expect(note).toEqual(
        noteView(target, {
          id: note.id,
          body: `old by ${who.username}`,
          author: who,
          created_at: '2018-03-04T05:06:07.000Z',
        }),
      );
    }
    for (const who of [maintainer, reporter, guest, stranger]) {
      const since = Date.now();
      const note = await must(
        api<NoteBody>('POST', notesPath(project.id, target.iid), {
          token: who.token,
          json: { body: `now by ${who.username}`, created_at: '2018-03-04T05:06:07Z' },
        }),
        201,
        'not backdated',
      );
      expectRecent(note.created_at, since);
      expect(note).toEqual(
        noteView(target, {
          id: note.id,
          body: `now by ${who.username}`,
          author: who,
          created_at: note.created_at,
        }),
      );
    }
    const asc = await api<NoteBody[]>('GET', `${notesPath(project.id, target.iid)}?sort=asc`, {
      token: owner.token,
    });
    expect(asc.body.slice(0, 2).map((note) => note.created_at)).toEqual([
      '2018-03-04T05:06:07.000Z',
      '2018-03-04T05:06:07.000Z',
    ]);
    expect(asc.headers.get('x-total')).toBe('6');
  });

  it('body rules: missing, empty, blank, 1,000,000 and 1,000,001 characters', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'bodies' });
    const path = notesPath(project.id, target.iid);
    const missing = await api('POST', path, { token: guest.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
    const nullBody = await api('POST', path, { token: guest.token, json: { body: null } });
    expect(nullBody.status).toBe(400);
    expect(nullBody.body).toEqual({ error: 'body is missing' });
    for (const body of ['', '   ', '\n\t']) {
      const blank = await api('POST', path, { token: guest.token, json: { body } });
      expect(blank.status, JSON.stringify(body)).toBe(400);
      expect(blank.body).toEqual(BLANK);
    }
    const tooLong = await api('POST', path, { token: guest.token, json: { body: 'y'.repeat(1_000_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(TOO_LONG);

    const longest = `${'z'.repeat(999_990)}0123456789`;
    const created = await api<NoteBody>('POST', path, { token: guest.token, json: { body: longest } });
    expect(created.status).toBe(201);
    expect(created.body.body).toBe(longest);
    const read = await api<NoteBody>('GET', `${path}/${created.body.id}`, { token: guest.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const listed = await api<NoteBody[]>('GET', path, { token: guest.token });
    expect(listed.body).toEqual([created.body]);
    expect(listed.headers.get('x-total')).toBe('1');
  });

  it('1,000,000 characters of four UTF-8 bytes each are stored whole, edited and deleted', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'emoji' });
    const path = notesPath(project.id, target.iid);
    // 4 MB of emoji (repeating every 767): the body is stored gzipped in the note's item.
    const emoji = Array.from({ length: 1_000_000 }, (_, index) =>
      String.fromCodePoint(0x1f300 + ((index * 7919) % 0x2ff)),
    ).join('');
    const created = await api<NoteBody>('POST', path, { token: reporter.token, json: { body: emoji } });
    expect(created.status).toBe(201);
    expect(created.body.body).toBe(emoji);
    const read = await api<NoteBody>('GET', `${path}/${created.body.id}`, { token: reporter.token });
    expect(read.body.body).toBe(emoji);
    const oneMore = await api('PUT', `${path}/${created.body.id}`, {
      token: reporter.token,
      json: { body: `${emoji}🎉` },
    });
    expect(oneMore.status).toBe(400);
    expect(oneMore.body).toEqual(TOO_LONG_EDIT);
    const reversed = Array.from(emoji).reverse().join('');
    const edited = await api<NoteBody>('PUT', `${path}/${created.body.id}`, {
      token: reporter.token,
      json: { body: reversed },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe(reversed);
    // Only the parts of the body the note names (none here) are left.
    const parts = await namedParts(project.id, target.iid, created.body.id);
    expect(
      (await issuePartition(project.id, target.iid)).filter((sk) => sk.includes('#PART#')).sort(),
    ).toEqual([...parts].sort());
    const listed = await api<NoteBody[]>('GET', path, { token: reporter.token });
    expect(listed.body.map((note) => note.body)).toEqual([reversed]);
    const removed = await api('DELETE', `${path}/${created.body.id}`, { token: reporter.token });
    expect(removed.status).toBe(204);
    const empty = await api<NoteBody[]>('GET', path, { token: reporter.token });
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-total')).toBe('0');
    expect(await issuePartition(project.id, target.iid)).toEqual(['ISSUE']);
  });

  it('concurrent edits between long and short bodies leave exactly the parts the note names', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'racing edits' });
    const path = notesPath(project.id, target.iid);
    const note = await addNote(project.id, target.iid, reporter.token, incompressible(200_000, 0));
    expect((await namedParts(project.id, target.iid, note.id)).length).toBeGreaterThan(1);
    const bodies = Array.from({ length: 8 }, (_, index) =>
      index % 2 === 0 ? incompressible(200_000, index + 1) : `short ${index}`,
    );
    const answers = await Promise.all(
      bodies.map((body) =>
        api<NoteBody>('PUT', `${path}/${note.id}`, { token: reporter.token, json: { body } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 200));
    const read = await api<NoteBody>('GET', `${path}/${note.id}`, { token: reporter.token });
    expect(bodies).toContain(read.body.body);
    const parts = await namedParts(project.id, target.iid, note.id);
    expect(
      (await issuePartition(project.id, target.iid)).filter((sk) => sk.includes('#PART#')).sort(),
    ).toEqual([...parts].sort());
    // An edit racing the removal leaves nothing behind either.
    const [edit, removal] = await Promise.all([
      api('PUT', `${path}/${note.id}`, {
        token: reporter.token,
        json: { body: incompressible(200_000, 99) },
      }),
      api('DELETE', `${path}/${note.id}`, { token: reporter.token }),
    ]);
    expect([200, 404]).toContain(edit.status);
    expect(removal.status).toBe(204);
    expect(await issuePartition(project.id, target.iid)).toEqual(['ISSUE']);
  });

  it('an award emoji alone is a note like any other', async () => {
    const note = await addNote(project.id, issue.iid, guest.token, ':+1:');
    expect(note).toEqual(
      noteView(issue, { id: note.id, body: ':+1:', author: guest, created_at: note.created_at }),
    );
  });

  it('a private project: non-members get 404 Project Not Found; an archived one refuses notes (403)', async () => {
    const hidden = await createProject(owner, { visibility: 'private' });
    const secret = await openIssue(hidden.id, owner.token, { title: 'private' });
    const refused = await api('POST', notesPath(hidden.id, secret.iid), {
      token: stranger.token,
      json: { body: 'x' },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: '404 Project Not Found' });

    const archived = await createProject(owner);
    const old = await openIssue(archived.id, owner.token, { title: 'old' });
    const kept = await addNote(archived.id, old.iid, owner.token, 'kept');
    await must(api('POST', `/projects/${archived.id}/archive`, { token: owner.token }), 201, 'archive');
    const add = await api('POST', notesPath(archived.id, old.iid), {
      token: owner.token,
      json: { body: 'late' },
    });
    expect(add.status).toBe(403);
    expect(add.body).toEqual(FORBIDDEN);
    const edit = await api('PUT', `${notesPath(archived.id, old.iid)}/${kept.id}`, {
      token: owner.token,
      json: { body: 'changed' },
    });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual(FORBIDDEN);
    const list = await api<NoteBody[]>('GET', notesPath(archived.id, old.iid), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([kept]);
  });
});

describe('PUT …/notes/:note_id', () => {
  it('the author, maintainers and admins edit the body; others get 403', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'edit rights' });
    const path = notesPath(project.id, target.iid);
    const note = await addNote(project.id, target.iid, reporter.token, 'v1');
    for (const who of [guest, stranger, await person(await createUser())]) {
      const refused = await api('PUT', `${path}/${note.id}`, { token: who.token, json: { body: 'hijack' } });
      expect(refused.status, who.username).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    let version = 1;
    for (const who of [reporter, maintainer, owner, root]) {
      version += 1;
      const since = Date.now();
      const edited = await api<NoteBody>('PUT', `${path}/${note.id}`, {
        token: who.token,
        json: { body: `v${version}` },
      });
      expect(edited.status, who.username).toBe(200);
      expectRecent(edited.body.updated_at, since);
      expect(edited.body).toEqual(
        noteView(target, {
          id: note.id,
          body: `v${version}`,
          author: reporter,
          created_at: note.created_at,
          updated_at: edited.body.updated_at,
        }),
      );
      const read = await api<NoteBody>('GET', `${path}/${note.id}`, { token: guest.token });
      expect(read.body).toEqual(edited.body);
    }
  });

  it('body rules apply to edits; missing body is Grape’s 400; unknown ids 404', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'edit rules' });
    const path = notesPath(project.id, target.iid);
    const note = await addNote(project.id, target.iid, reporter.token, 'keep me');
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{}, 400, { error: 'body is missing' }],
      [{ body: '' }, 400, BLANK_EDIT],
      [{ body: ' \n ' }, 400, BLANK_EDIT],
      [{ body: 'w'.repeat(1_000_001) }, 400, TOO_LONG_EDIT],
      [{ body: ['a'] }, 400, { error: 'body is invalid' }],
    ];
    for (const [json, status, body] of cases) {
      const response = await api('PUT', `${path}/${note.id}`, { token: reporter.token, json });
      expect(response.status, JSON.stringify(json).slice(0, 40)).toBe(status);
      expect(response.body).toEqual(body);
    }
    const unchanged = await api<NoteBody>('GET', `${path}/${note.id}`, { token: reporter.token });
    expect(unchanged.body).toEqual(note);
    const exact = 'e'.repeat(1_000_000);
    const longest = await api<NoteBody>('PUT', `${path}/${note.id}`, {
      token: reporter.token,
      json: { body: exact },
    });
    expect(longest.status).toBe(200);
    expect(longest.body.body).toBe(exact);
    for (const miss of [`${path}/987654321`, `${notesPath(project.id, 5050)}/${note.id}`]) {
      const response = await api('PUT', miss, { token: owner.token, json: { body: 'x' } });
      expect(response.status, miss).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });

  it('system notes are not editable or deletable, not even by admins (403)', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'system' });
    await must(
      api('PUT', `/projects/${project.id}/issues/${target.iid}`, {
        token: owner.token,
        json: { state_event: 'close' },
      }),
      200,
      'close',
    );
    const [system] = await must(api<NoteBody[]>('GET', notesPath(project.id, target.iid)), 200, 'notes');
    expect(system?.system).toBe(true);
    for (const who of [owner, root]) {
      const edit = await api('PUT', `${notesPath(project.id, target.iid)}/${system?.id}`, {
        token: who.token,
        json: { body: 'rewritten' },
      });
      expect(edit.status).toBe(403);
      expect(edit.body).toEqual(FORBIDDEN);
      const removal = await api('DELETE', `${notesPath(project.id, target.iid)}/${system?.id}`, {
        token: who.token,
      });
      expect(removal.status).toBe(403);
      expect(removal.body).toEqual(FORBIDDEN);
    }
    const still = await api<NoteBody>('GET', `${notesPath(project.id, target.iid)}/${system?.id}`);
    expect(still.body).toEqual(system);
  });
});

describe('DELETE …/notes/:note_id', () => {
  it('204, then 404 on a second delete; counts follow', async () => {
    const target = await openIssue(project.id, owner.token, { title: 'deletes' });
    const path = notesPath(project.id, target.iid);
    const mine = await addNote(project.id, target.iid, reporter.token, 'mine');
    const theirs = await addNote(project.id, target.iid, guest.token, 'theirs');
    const refused = await api('DELETE', `${path}/${theirs.id}`, { token: reporter.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);

    const removed = await api('DELETE', `${path}/${mine.id}`, { token: reporter.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const again = await api('DELETE', `${path}/${mine.id}`, { token: reporter.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
    const read = await api('GET', `${path}/${mine.id}`, { token: reporter.token });
    expect(read.status).toBe(404);
    expect(read.body).toEqual(NOT_FOUND);

    const byMaintainer = await api('DELETE', `${path}/${theirs.id}`, { token: maintainer.token });
    expect(byMaintainer.status).toBe(204);
    const list = await api<NoteBody[]>('GET', path, { token: owner.token });
    expect(list.body).toEqual([]);
    expect(list.headers.get('x-total')).toBe('0');
    const shown = await must(
      api<IssueBody>('GET', `/projects/${project.id}/issues/${target.iid}`),
      200,
      'issue',
    );
    expect(shown.user_notes_count).toBe(0);
    const unknownIssue = await api('DELETE', `${notesPath(project.id, 6060)}/${theirs.id}`, {
      token: owner.token,
    });
    expect(unknownIssue.status).toBe(404);
    expect(unknownIssue.body).toEqual(NOT_FOUND);
  });
});

describe('a confidential issue’s notes', () => {
  it('are 404 for guests and non-members who are neither its author nor an assignee', async () => {
    const assignee = await person(await createUser());
    const secret = await openIssue(project.id, owner.token, {
      title: 'embargoed',
      confidential: true,
      assignee_ids: [assignee.id],
    });
    const path = notesPath(project.id, secret.iid);
    const note = await addNote(project.id, secret.iid, owner.token, 'embargoed detail');
    for (const who of [guest, stranger]) {
      const attempts: [string, string, Record<string, unknown> | undefined][] = [
        ['GET', path, undefined],
        ['GET', `${path}/${note.id}`, undefined],
        ['POST', path, { body: 'peek' }],
        ['PUT', `${path}/${note.id}`, { body: 'peek' }],
        ['DELETE', `${path}/${note.id}`, undefined],
      ];
      for (const [method, url, json] of attempts) {
        const response = await api(method, url, { token: who.token, json });
        expect(response.status, `${who.username} ${method} ${url}`).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      }
    }
    for (const who of [reporter, assignee, root]) {
      const list = await api<NoteBody[]>('GET', path, { token: who.token });
      expect(list.status).toBe(200);
      expect(list.body.map((item) => item.id)).toContain(note.id);
      const created = await api<NoteBody>('POST', path, {
        token: who.token,
        json: { body: `seen by ${who.username}` },
      });
      expect(created.status).toBe(201);
    }
    // The guest who wrote a confidential issue sees its notes.
    const own = await openIssue(project.id, guest.token, { title: 'my secret', confidential: true });
    const ownNote = await addNote(project.id, own.iid, guest.token, 'only us');
    const mine = await api<NoteBody[]>('GET', notesPath(project.id, own.iid), { token: guest.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([ownNote]);
  });
});

describe('anonymous callers', () => {
  it('get 401 on every note route, public project or not', async () => {
    const note = await addNote(project.id, issue.iid, owner.token, 'public');
    const path = notesPath(project.id, issue.iid);
    const attempts: [string, string, Record<string, unknown> | undefined][] = [
      ['GET', path, undefined],
      ['GET', `${path}/${note.id}`, undefined],
      ['POST', path, { body: 'anon' }],
      ['PUT', `${path}/${note.id}`, { body: 'anon' }],
      ['DELETE', `${path}/${note.id}`, undefined],
    ];
    for (const [method, url, json] of attempts) {
      const response = await api(method, url, { token: null, json });
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
    }
  });
});

describe('nothing a client sends gives a 5xx', () => {
  it('junk parameters, huge ids and wrong types are 4xx', async () => {
    const note = await addNote(project.id, issue.iid, owner.token, 'target');
    const path = notesPath(project.id, issue.iid);
    const cases: [string, string, Record<string, unknown> | undefined, number, unknown][] = [
      ['GET', `${path}?sort=sideways`, undefined, 400, { error: 'sort does not have a valid value' }],
      ['GET', `${path}?order_by=id`, undefined, 400, { error: 'order_by does not have a valid value' }],
      ['GET', `${path}?page=abc`, undefined, 400, { error: 'page is invalid' }],
      ['GET', `${path}?per_page=0`, undefined, 400, { error: 'per_page does not have a valid value' }],
      ['GET', `${path}/abc`, undefined, 400, { error: 'note_id is invalid' }],
      ['GET', `${path}/0`, undefined, 400, { error: 'note_id is invalid' }],
      ['GET', `${path}/99999999999999999999`, undefined, 400, { error: 'note_id is invalid' }],
      ['GET', `${path}/999999999999999`, undefined, 404, NOT_FOUND],
      ['GET', `/projects/${project.id}/issues/abc/notes`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `/projects/${project.id}/issues/-1/notes`, undefined, 400, { error: 'issue_iid is invalid' }],
      ['GET', `/projects/${project.id}/issues/999999999999999/notes`, undefined, 404, NOT_FOUND],
      [
        'GET',
        '/projects/999999999999999/issues/1/notes',
        undefined,
        404,
        { message: '404 Project Not Found' },
      ],
      [
        'GET',
        `/projects/${'p'.repeat(5000)}/issues/1/notes`,
        undefined,
        404,
        { message: '404 Project Not Found' },
      ],
      ['POST', path, { body: { text: 'x' } }, 400, { error: 'body is invalid' }],
      ['POST', path, { body: ['x'] }, 400, { error: 'body is invalid' }],
      ['POST', path, { body: true }, 400, { error: 'body is invalid' }],
      ['POST', path, { body: 'x', created_at: 'last week' }, 400, { error: 'created_at is invalid' }],
      [
        'POST',
        path,
        { body: 'x', created_at: '2020-13-45T99:00:00Z' },
        400,
        { error: 'created_at is invalid' },
      ],
      ['POST', path, { body: 'x', created_at: ['2020-01-01'] }, 400, { error: 'created_at is invalid' }],
      ['PUT', `${path}/${note.id}`, { body: { a: 1 } }, 400, { error: 'body is invalid' }],
      ['PUT', `${path}/xyz`, { body: 'x' }, 400, { error: 'note_id is invalid' }],
      ['DELETE', `${path}/1.5`, undefined, 400, { error: 'note_id is invalid' }],
      ['DELETE', `${path}/999999999999999`, undefined, 404, NOT_FOUND],
    ];
    for (const [method, url, json, status, body] of cases) {
      const response = await api(method, url, { token: owner.token, json });
      expect(response.status, `${method} ${url.slice(0, 90)} ${JSON.stringify(json)}`).toBe(status);
      expect(response.body, `${method} ${url.slice(0, 90)}`).toEqual(body);
    }
    // A negative per_page is ignored (20), as Kaminari does.
    const negative = await api<NoteBody[]>('GET', `${path}?per_page=-5`, { token: owner.token });
    expect(negative.status).toBe(200);
    expect(negative.headers.get('x-per-page')).toBe('20');
    // A number is a body, as Grape's String coercion has it.
    const numeric = await api<NoteBody>('POST', path, { token: owner.token, json: { body: 12345 } });
    expect(numeric.status).toBe(201);
    expect(numeric.body.body).toBe('12345');
    // The project by its full path works as by its id.
    const byPath = await api<NoteBody>(
      'GET',
      `/projects/${encodeURIComponent(project.path_with_namespace)}/issues/${issue.iid}/notes/${note.id}`,
      {
        token: owner.token,
      },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.body).toEqual(note);
  });
});
