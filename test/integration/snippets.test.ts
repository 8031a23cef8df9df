/**
 * Project snippets and their notes over HTTP: every operation with GitLab's statuses and whole
 * bodies, raw content, long content kept whole (and its parts removed when replaced or deleted),
 * visibility, switched-off snippets, permissions by role, and bad input that is never a 5xx.
 */

import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createUser, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, storedItem } from '../support/db.ts';

const base = () => inject('baseUrl').replace(/\/+$/, '');

interface ProjectInfo {
  id: number;
  path_with_namespace: string;
}
interface SnippetBody {
  id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility: string;
  created_at: string;
  updated_at: string;
}
interface NoteBody {
  id: number;
  body: string;
  created_at: string;
  updated_at: string;
}
interface Person extends TestUser {
  created_at: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const NOT_FOUND = { message: '404 Not found' };
const SNIPPET_NOT_FOUND = { message: '404 Snippet Not Found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const FORBIDDEN = { message: '403 Forbidden' };
const UNAUTHORIZED = { message: '401 Unauthorized' };

/** A user with the created_at their notes show. */
async function person(options: { external?: boolean } = {}): Promise<Person> {
  const user = await createUser();
  if (options.external) {
    const changed = await api('PUT', `/users/${user.id}`, { json: { external: true } });
    expect(changed.status).toBe(200);
  }
  const read = await api<{ created_at: string }>('GET', `/users/${user.id}`);
  return { ...user, created_at: read.body.created_at };
}

const userBasic = (user: TestUser) => ({
  id: user.id,
  name: user.username,
  username: user.username,
  state: 'active',
  avatar_url: `${base()}/assets/no_avatar.png`,
  web_url: `${base()}/${user.username}`,
});

const noteAuthor = (user: Person) => ({ ...userBasic(user), email: user.email, created_at: user.created_at });

/** GitLab's ProjectSnippet entity of a snippet as answered. */
function snippetView(snippet: SnippetBody, project: ProjectInfo, author: TestUser) {
  const webUrl = `${base()}/${project.path_with_namespace}/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userBasic(author),
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: project.id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    expires_at: null,
  };
}

function noteView(note: NoteBody, snippetId: number, author: Person) {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: noteAuthor(author),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: false,
    noteable_id: snippetId,
    noteable_type: 'Snippet',
    noteable_iid: null,
    resolvable: false,
  };
}

const singleNoteView = (note: NoteBody, snippet: SnippetBody, author: Person) => ({
  ...noteView(note, snippet.id, author),
  title: snippet.title,
  file_name: snippet.file_name,
  expires_at: null,
});

const snippets = (project: ProjectInfo) => `/projects/${project.id}/snippets`;

async function newProject(owner: TestUser, visibility: string, extra: Record<string, unknown> = {}) {
  const created = await api<ProjectInfo>('POST', '/projects', {
    token: owner.token,
    json: { name: unique('snip'), visibility, ...extra },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function addMember(project: ProjectInfo, user: TestUser, level: number) {
  const added = await api('POST', `/projects/${project.id}/members`, {
    json: { user_id: user.id, access_level: level },
  });
  expect(added.status, added.text).toBe(201);
}

async function newSnippet(
  project: ProjectInfo,
  author: TestUser,
  fields: Record<string, unknown> = {},
): Promise<SnippetBody> {
  const created = await api<SnippetBody>('POST', snippets(project), {
    token: author.token,
    json: { title: unique('T'), file_name: 'hello.rb', content: 'puts 1', visibility: 'public', ...fields },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function newNote(project: ProjectInfo, snippet: SnippetBody, author: TestUser, body = unique('note')) {
  const created = await api<NoteBody>('POST', `${snippets(project)}/${snippet.id}/notes`, {
    token: author.token,
    json: { body },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/**
 * The items of a snippet's partition, by sort key, but the deletion marks its counter shards keep
 * (they refuse a late note until TTL ends them).
 */
async function partition(snippetId: number): Promise<string[]> {
  return (await itemsLeft(`SNIPPET#${snippetId}`)).map((item) => String(item.sk));
}

/** Text that gzip cannot shrink much: random CJK characters (3 bytes each in UTF-8). */
function incompressible(length: number): string {
  const bytes = randomBytes(length * 2);
  const chars: string[] = [];
  for (let index = 0; index < length; index++) {
    chars.push(String.fromCharCode(0x4e00 + (bytes.readUInt16LE(index * 2) % 20000)));
  }
  return chars.join('');
}

let owner: Person;
let maintainer: Person;
let developer: Person;
let reporter: Person;
let guest: Person;
let outsider: Person;
let external: Person;
let pub: ProjectInfo;
let priv: ProjectInfo;

beforeAll(async () => {
  [owner, maintainer, developer, reporter, guest, outsider, external] = await Promise.all([
    person(),
    person(),
    person(),
    person(),
    person(),
    person(),
    person({ external: true }),
  ]);
  pub = await newProject(owner, 'public');
  priv = await newProject(owner, 'private');
  for (const project of [pub, priv]) {
    await addMember(project, maintainer, 40);
    await addMember(project, developer, 30);
    await addMember(project, reporter, 20);
    await addMember(project, guest, 10);
  }
});

describe('POST /projects/:id/snippets', () => {
  it('creates a snippet from `content` → 201 with the ProjectSnippet entity', async () => {
    const created = await api<SnippetBody>('POST', snippets(pub), {
      token: reporter.token,
      json: {
        title: 'Hello',
        file_name: 'hello.rb',
        content: 'puts "hello"',
        description: 'Greets',
        visibility: 'internal',
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    expect(created.body.updated_at).toBe(created.body.created_at);
    expect(created.body).toEqual(
      snippetView(
        {
          id: created.body.id,
          title: 'Hello',
          file_name: 'hello.rb',
          description: 'Greets',
          visibility: 'internal',
          created_at: created.body.created_at,
          updated_at: created.body.created_at,
        },
        pub,
        reporter,
      ),
    );
    const raw = await api('GET', `${snippets(pub)}/${created.body.id}/raw`, { token: reporter.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(raw.text).toBe('puts "hello"');
  });

  it('takes GitLab 10.x `code` and form-encoded parameters too', async () => {
    const created = await api<SnippetBody>('POST', snippets(pub), {
      token: owner.token,
      form: { title: 'Form', file_name: 'f.txt', code: 'line 1\nline 2\n', visibility: 'private' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual(
      snippetView(
        {
          id: created.body.id,
          title: 'Form',
          file_name: 'f.txt',
          description: null,
          visibility: 'private',
          created_at: created.body.created_at,
          updated_at: created.body.created_at,
        },
        pub,
        owner,
      ),
    );
    const raw = await api('GET', `${snippets(pub)}/${created.body.id}/raw`, { token: owner.token });
    expect(raw.text).toBe('line 1\nline 2\n');
  });

  it('missing parameters → 400 with Grape’s sentences, in GitLab’s order', async () => {
    const missing = await api('POST', snippets(pub), { token: owner.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: 'title is missing, file_name is missing, code is missing, visibility is missing',
    });
    const noCode = await api('POST', snippets(pub), {
      token: owner.token,
      json: { title: 'x', file_name: 'x', visibility: 'public' },
    });
    expect(noCode.status).toBe(400);
    expect(noCode.body).toEqual({ error: 'code is missing' });
    const badVisibility = await api('POST', snippets(pub), {
      token: owner.token,
      json: { title: 'x', file_name: 'x', code: 'x', visibility: 'secret' },
    });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('what the model refuses → 400 in the model shape, nothing created', async () => {
    const before = await api<unknown[]>('GET', snippets(pub), { token: owner.token });
    const cases: [Record<string, unknown>, unknown][] = [
      [{ title: '  ' }, { message: { title: ["can't be blank"] } }],
      [{ title: 'x'.repeat(256) }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
      [
        { file_name: 'f'.repeat(256) },
        { message: { file_name: ['is too long (maximum is 255 characters)'] } },
      ],
      [{ content: ' \n ' }, { message: { content: ["can't be blank"] } }],
      [
        { content: 'x'.repeat(1_000_001) },
        { message: { content: ['is too long (maximum is 1000000 characters)'] } },
      ],
      [
        { description: 'd'.repeat(65_536) },
        { message: { description: ['is too long (maximum is 65535 characters)'] } },
      ],
    ];
    for (const [fields, body] of cases) {
      const refused = await api('POST', snippets(pub), {
        token: owner.token,
        json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public', ...fields },
      });
      expect(refused.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(refused.body).toEqual(body);
    }
    const after = await api<unknown[]>('GET', snippets(pub), { token: owner.token });
    expect(after.headers.get('x-total')).toBe(before.headers.get('x-total'));
  });

  it('guests and non-members may not create (403); non-members of a private project see 404', async () => {
    for (const user of [guest, outsider]) {
      const refused = await api('POST', snippets(pub), {
        token: user.token,
        json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    const hidden = await api('POST', snippets(priv), {
      token: outsider.token,
      json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public' },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(PROJECT_NOT_FOUND);
  });

  it('an archived project takes no snippets (403)', async () => {
    const project = await newProject(owner, 'public');
    expect((await api('POST', `/projects/${project.id}/archive`, { token: owner.token })).status).toBe(201);
    const refused = await api('POST', snippets(project), {
      token: owner.token,
      json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
  });

  it('anonymous → 401', async () => {
    const anonymous = await api('POST', snippets(pub), {
      token: null,
      json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });
});

describe('GET /projects/:id/snippets and /:snippet_id', () => {
  it('lists newest first with the pagination headers; a single read answers the same entity', async () => {
    const project = await newProject(owner, 'private');
    const first = await newSnippet(project, owner, { title: 'first' });
    const second = await newSnippet(project, owner, { title: 'second', visibility: 'private' });
    const listed = await api<SnippetBody[]>('GET', `${snippets(project)}?per_page=1`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([snippetView(second, project, owner)]);
    expect(listed.headers.get('x-total')).toBe('2');
    expect(listed.headers.get('x-total-pages')).toBe('2');
    expect(listed.headers.get('x-next-page')).toBe('2');
    const page2 = await api<SnippetBody[]>('GET', `${snippets(project)}?per_page=1&page=2`, {
      token: owner.token,
    });
    expect(page2.body).toEqual([snippetView(first, project, owner)]);
    const one = await api('GET', `${snippets(project)}/${first.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(snippetView(first, project, owner));
    const byPath = await api(
      'GET',
      `/projects/${encodeURIComponent(project.path_with_namespace)}/snippets/${first.id}`,
      {
        token: owner.token,
      },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.body).toEqual(snippetView(first, project, owner));
  });

  it('unknown ids and snippets of another project → 404 (Not found on the single read, Snippet Not Found on raw)', async () => {
    const elsewhere = await newSnippet(priv, owner);
    for (const path of [`${snippets(pub)}/${elsewhere.id}`, `${snippets(pub)}/999999999`]) {
      for (const suffix of ['', '/raw']) {
        const missing = await api('GET', `${path}${suffix}`, { token: owner.token });
        expect(missing.status, path + suffix).toBe(404);
        expect(missing.body).toEqual(suffix === '' ? NOT_FOUND : SNIPPET_NOT_FOUND);
      }
      for (const method of ['PUT', 'DELETE']) {
        const missing = await api(method, path, { token: owner.token, json: { title: 'x' } });
        expect(missing.status, method + path).toBe(404);
        expect(missing.body).toEqual(SNIPPET_NOT_FOUND);
      }
    }
    const untouched = await api('GET', `${snippets(priv)}/${elsewhere.id}`, { token: owner.token });
    expect(untouched.body).toEqual(snippetView(elsewhere, priv, owner));
  });

  it('a private project’s snippets are 404 Project Not Found to non-members and anonymous callers', async () => {
    const snippet = await newSnippet(priv, owner);
    for (const path of [
      snippets(priv),
      `${snippets(priv)}/${snippet.id}`,
      `${snippets(priv)}/${snippet.id}/raw`,
    ]) {
      const hidden = await api('GET', path, { token: outsider.token });
      expect(hidden.status, path).toBe(404);
      expect(hidden.body).toEqual(PROJECT_NOT_FOUND);
      // The list asks anonymous callers for a token; the single read and raw find no project.
      const anonymous = await api('GET', path, { token: null });
      expect({ path, status: anonymous.status, body: anonymous.body }).toEqual(
        path === snippets(priv)
          ? { path, status: 401, body: UNAUTHORIZED }
          : { path, status: 404, body: PROJECT_NOT_FOUND },
      );
    }
  });
});

describe('visibility of snippets in a public project', () => {
  let project: ProjectInfo;
  let open: SnippetBody;
  let internal: SnippetBody;
  let secret: SnippetBody;
  let outsidersOwn: SnippetBody;

  beforeAll(async () => {
    project = await newProject(owner, 'public');
    await addMember(project, guest, 10);
    await addMember(project, reporter, 20);
    open = await newSnippet(project, owner, { title: 'open', visibility: 'public' });
    internal = await newSnippet(project, owner, { title: 'internal', visibility: 'internal' });
    secret = await newSnippet(project, owner, { title: 'secret', visibility: 'private' });
    // A reporter's private snippet, whose author leaves the project: still theirs to read.
    outsidersOwn = await newSnippet(project, reporter, { title: 'own', visibility: 'private' });
  });

  it('members (guests too) and admins list and read every snippet', async () => {
    for (const token of [guest.token, undefined]) {
      const listed = await api<SnippetBody[]>('GET', snippets(project), { token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        snippetView(outsidersOwn, project, reporter),
        snippetView(secret, project, owner),
        snippetView(internal, project, owner),
        snippetView(open, project, owner),
      ]);
      expect(listed.headers.get('x-total')).toBe('4');
      const one = await api('GET', `${snippets(project)}/${secret.id}`, { token });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(snippetView(secret, project, owner));
    }
  });

  it('a non-member sees public and internal ones; a private one is 404 everywhere', async () => {
    const listed = await api<SnippetBody[]>('GET', snippets(project), { token: outsider.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([snippetView(internal, project, owner), snippetView(open, project, owner)]);
    expect(listed.headers.get('x-total')).toBe('2');
    for (const suffix of ['', '/raw']) {
      const hidden = await api('GET', `${snippets(project)}/${secret.id}${suffix}`, {
        token: outsider.token,
      });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(suffix === '' ? NOT_FOUND : SNIPPET_NOT_FOUND);
    }
    for (const method of ['PUT', 'DELETE']) {
      const hidden = await api(method, `${snippets(project)}/${secret.id}`, {
        token: outsider.token,
        json: { title: 'mine now' },
      });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(SNIPPET_NOT_FOUND);
    }
    const notes = await api('GET', `${snippets(project)}/${secret.id}/notes`, { token: outsider.token });
    expect(notes.status).toBe(404);
    expect(notes.body).toEqual(NOT_FOUND);
    const note = await api('POST', `${snippets(project)}/${secret.id}/notes`, {
      token: outsider.token,
      json: { body: 'hi' },
    });
    expect(note.status).toBe(404);
    expect(note.body).toEqual(NOT_FOUND);
  });

  it('an external user sees only public ones', async () => {
    const listed = await api<SnippetBody[]>('GET', snippets(project), { token: external.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([snippetView(open, project, owner)]);
    const hidden = await api('GET', `${snippets(project)}/${internal.id}`, { token: external.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(NOT_FOUND);
  });

  it('the author of a private snippet reads it after leaving the project', async () => {
    const removed = await api('DELETE', `/projects/${project.id}/members/${reporter.id}`);
    expect(removed.status).toBe(204);
    try {
      const own = await api('GET', `${snippets(project)}/${outsidersOwn.id}`, { token: reporter.token });
      expect(own.status).toBe(200);
      expect(own.body).toEqual(snippetView(outsidersOwn, project, reporter));
      const listed = await api<SnippetBody[]>('GET', snippets(project), { token: reporter.token });
      expect(listed.body.map((snippet) => snippet.title)).toEqual(['own', 'internal', 'open']);
    } finally {
      await addMember(project, reporter, 20);
    }
  });
});

describe('snippets switched off', () => {
  it('list and create are 403; a snippet and its notes are 404', async () => {
    const project = await newProject(owner, 'public');
    const snippet = await newSnippet(project, owner);
    const note = await newNote(project, snippet, owner);
    const off = await api('PUT', `/projects/${project.id}`, {
      token: owner.token,
      json: { snippets_enabled: false },
    });
    expect(off.status).toBe(200);
    const listed = await api('GET', snippets(project), { token: owner.token });
    expect(listed.status).toBe(403);
    expect(listed.body).toEqual(FORBIDDEN);
    const created = await api('POST', snippets(project), {
      token: owner.token,
      json: { title: 'x', file_name: 'x', content: 'x', visibility: 'public' },
    });
    expect(created.status).toBe(403);
    expect(created.body).toEqual(FORBIDDEN);
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/raw'],
      ['PUT', ''],
      ['DELETE', ''],
    ] as const) {
      const hidden = await api(method, `${snippets(project)}/${snippet.id}${suffix}`, {
        token: owner.token,
        ...(method === 'GET' ? {} : { json: { title: 'x' } }),
      });
      expect(hidden.status, method + suffix).toBe(404);
      expect(hidden.body).toEqual(method === 'GET' && suffix === '' ? NOT_FOUND : SNIPPET_NOT_FOUND);
    }
    for (const [method, suffix] of [
      ['GET', '/notes'],
      ['POST', '/notes'],
      ['GET', `/notes/${note.id}`],
      ['PUT', `/notes/${note.id}`],
      ['DELETE', `/notes/${note.id}`],
    ] as const) {
      const hidden = await api(method, `${snippets(project)}/${snippet.id}${suffix}`, {
        token: owner.token,
        ...(method === 'GET' ? {} : { json: { body: 'x' } }),
      });
      expect(hidden.status, method + suffix).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
    }
    const on = await api('PUT', `/projects/${project.id}`, {
      token: owner.token,
      json: { snippets_enabled: true },
    });
    expect(on.status).toBe(200);
    const back = await api('GET', `${snippets(project)}/${snippet.id}`, { token: owner.token });
    expect(back.status).toBe(200);
  });
});

describe('PUT /projects/:id/snippets/:snippet_id', () => {
  it('changes the fields sent and the content; updated_at moves', async () => {
    const snippet = await newSnippet(pub, reporter, { title: 'before', description: 'old' });
    const changed = await api<SnippetBody>('PUT', `${snippets(pub)}/${snippet.id}`, {
      token: reporter.token,
      json: { title: 'after', file_name: 'after.py', content: 'print(2)' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.updated_at).toMatch(ISO);
    expect(changed.body.updated_at > snippet.updated_at).toBe(true);
    expect(changed.body).toEqual(
      snippetView(
        { ...snippet, title: 'after', file_name: 'after.py', updated_at: changed.body.updated_at },
        pub,
        reporter,
      ),
    );
    const raw = await api('GET', `${snippets(pub)}/${snippet.id}/raw`, { token: reporter.token });
    expect(raw.text).toBe('print(2)');
    const read = await api('GET', `${snippets(pub)}/${snippet.id}`, { token: reporter.token });
    expect(read.body).toEqual(changed.body);
  });

  it('takes `visibility` alone, GitLab 10.x `visibility_level`, `code` and `description`', async () => {
    const snippet = await newSnippet(pub, owner, { visibility: 'public' });
    const url = `${snippets(pub)}/${snippet.id}`;
    const visibility = await api<SnippetBody>('PUT', url, {
      token: owner.token,
      json: { visibility: 'internal' },
    });
    expect(visibility.status).toBe(200);
    expect(visibility.body.visibility).toBe('internal');
    const level = await api<SnippetBody>('PUT', url, { token: owner.token, form: { visibility_level: '0' } });
    expect(level.status).toBe(200);
    expect(level.body.visibility).toBe('private');
    const description = await api<SnippetBody>('PUT', url, {
      token: owner.token,
      json: { description: 'now' },
    });
    expect(description.status).toBe(200);
    expect(description.body).toEqual(
      snippetView(
        { ...snippet, visibility: 'private', description: 'now', updated_at: description.body.updated_at },
        pub,
        owner,
      ),
    );
    const code = await api('PUT', url, { token: owner.token, json: { code: 'older name' } });
    expect(code.status).toBe(200);
    expect((await api('GET', `${url}/raw`, { token: owner.token })).text).toBe('older name');
  });

  it('nothing to change → 400; bad values → 400; nothing changed', async () => {
    const snippet = await newSnippet(pub, owner, { title: 'kept' });
    const url = `${snippets(pub)}/${snippet.id}`;
    const cases: [Record<string, unknown>, unknown][] = [
      [
        {},
        {
          error:
            'title, file_name, code, content, description, visibility, visibility_level are missing, at least one parameter must be provided',
        },
      ],
      [{ visibility: 'everyone' }, { error: 'visibility does not have a valid value' }],
      [{ visibility_level: 5 }, { error: 'visibility_level does not have a valid value' }],
      [{ title: '' }, { message: { title: ["can't be blank"] } }],
      [{ content: '' }, { message: { content: ["can't be blank"] } }],
      [{ title: ['a', 'b'] }, { error: 'title is invalid' }],
    ];
    for (const [json, body] of cases) {
      const refused = await api('PUT', url, { token: owner.token, json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body).toEqual(body);
    }
    const read = await api('GET', url, { token: owner.token });
    expect(read.body).toEqual(snippetView(snippet, pub, owner));
  });

  it('the author and maintainers change a snippet; other members get 403', async () => {
    const snippet = await newSnippet(pub, reporter);
    const url = `${snippets(pub)}/${snippet.id}`;
    for (const user of [guest, developer]) {
      const refused = await api('PUT', url, { token: user.token, json: { title: 'theirs' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    for (const user of [reporter, maintainer, owner]) {
      const changed = await api<SnippetBody>('PUT', url, {
        token: user.token,
        json: { title: user.username },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.title).toBe(user.username);
    }
  });
});

describe('DELETE /projects/:id/snippets/:snippet_id', () => {
  it('the author deletes → 204; then 404; the list and its count drop it', async () => {
    const project = await newProject(owner, 'public');
    await addMember(project, reporter, 20);
    const kept = await newSnippet(project, owner);
    const snippet = await newSnippet(project, reporter);
    await newNote(project, snippet, owner);
    const removed = await api('DELETE', `${snippets(project)}/${snippet.id}`, { token: reporter.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const again = await api('DELETE', `${snippets(project)}/${snippet.id}`, { token: reporter.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(SNIPPET_NOT_FOUND);
    const read = await api('GET', `${snippets(project)}/${snippet.id}`, { token: owner.token });
    expect(read.status).toBe(404);
    expect(read.body).toEqual(NOT_FOUND);
    const listed = await api('GET', snippets(project), { token: owner.token });
    expect(listed.body).toEqual([snippetView(kept, project, owner)]);
    expect(listed.headers.get('x-total')).toBe('1');
    expect(await partition(snippet.id)).toEqual([]);
  });

  it('developers may not delete another’s snippet (403); maintainers may', async () => {
    const snippet = await newSnippet(pub, reporter);
    const refused = await api('DELETE', `${snippets(pub)}/${snippet.id}`, { token: developer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
    const removed = await api('DELETE', `${snippets(pub)}/${snippet.id}`, { token: maintainer.token });
    expect(removed.status).toBe(204);
  });
});

describe('long content', () => {
  it('1,000,000 characters are kept whole, replaced whole, and leave no parts behind', async () => {
    const long = incompressible(1_000_000);
    const snippet = await newSnippet(pub, owner, { content: long });
    const raw = await api('GET', `${snippets(pub)}/${snippet.id}/raw`, { token: owner.token });
    expect(raw.status).toBe(200);
    expect(raw.text.length).toBe(1_000_000);
    expect(raw.text === long).toBe(true);
    const parts = (await partition(snippet.id)).filter((sk) => sk.startsWith('CONTENT#'));
    expect(parts.length).toBeGreaterThan(1);

    const longer = incompressible(999_999);
    const replaced = await api('PUT', `${snippets(pub)}/${snippet.id}`, {
      token: owner.token,
      json: { content: longer },
    });
    expect(replaced.status).toBe(200);
    const again = await api('GET', `${snippets(pub)}/${snippet.id}/raw`, { token: owner.token });
    expect(again.text === longer).toBe(true);
    const newParts = (await partition(snippet.id)).filter((sk) => sk.startsWith('CONTENT#'));
    expect(newParts.length).toBeGreaterThan(1);
    expect(newParts.some((sk) => parts.includes(sk))).toBe(false);

    const short = await api('PUT', `${snippets(pub)}/${snippet.id}`, {
      token: owner.token,
      json: { content: 'tiny' },
    });
    expect(short.status).toBe(200);
    expect((await api('GET', `${snippets(pub)}/${snippet.id}/raw`, { token: owner.token })).text).toBe(
      'tiny',
    );
    expect(await partition(snippet.id)).toEqual(['SNIPPET']);
    const item = await storedItem(`SNIPPET#${snippet.id}`, 'SNIPPET');
    expect(item?.content).toBe('tiny');
    expect(item?.content_parts).toBeUndefined();
  });

  it('concurrent content changes leave one whole content and only its parts', async () => {
    const snippet = await newSnippet(pub, owner);
    const contents = [1, 2, 3, 4].map((seed) => incompressible(200_000 + seed));
    const answers = await Promise.all(
      contents.map((content) =>
        api('PUT', `${snippets(pub)}/${snippet.id}`, { token: owner.token, json: { content } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const raw = await api('GET', `${snippets(pub)}/${snippet.id}/raw`, { token: owner.token });
    expect(contents.includes(raw.text)).toBe(true);
    const item = await storedItem(`SNIPPET#${snippet.id}`, 'SNIPPET');
    const parts = (await partition(snippet.id)).filter((sk) => sk.startsWith('CONTENT#'));
    expect(parts.length).toBe(Number(item?.content_parts));
    expect(parts.every((sk) => sk.startsWith(`CONTENT#${String(item?.content_version)}#`))).toBe(true);
  });
});

describe('notes on snippets', () => {
  let snippet: SnippetBody;

  beforeAll(async () => {
    snippet = await newSnippet(pub, owner, { title: 'Noted', file_name: 'noted.md' });
  });

  const notes = () => `${snippets(pub)}/${snippet.id}/notes`;

  it('POST → 201 Note; GET one → the note with the snippet’s title, file_name and expires_at', async () => {
    const created = await api<NoteBody>('POST', notes(), {
      token: guest.token,
      json: { body: 'Nice snippet' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    expect(created.body).toEqual(
      noteView(
        {
          id: created.body.id,
          body: 'Nice snippet',
          created_at: created.body.created_at,
          updated_at: created.body.created_at,
        },
        snippet.id,
        guest,
      ),
    );
    const one = await api('GET', `${notes()}/${created.body.id}`, { token: guest.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(singleNoteView(created.body, snippet, guest));
  });

  it('an award emoji alone → 201 with the single read’s object', async () => {
    const created = await api<NoteBody>('POST', notes(), {
      token: reporter.token,
      json: { body: ':thumbsup:' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      singleNoteView(
        {
          id: created.body.id,
          body: ':thumbsup:',
          created_at: created.body.created_at,
          updated_at: created.body.created_at,
        },
        snippet,
        reporter,
      ),
    );
  });

  it('lists newest first (or as asked) with X-Total', async () => {
    const project = await newProject(owner, 'public');
    const parent = await newSnippet(project, owner);
    const first = await newNote(project, parent, owner, 'first');
    const second = await newNote(project, parent, outsider, 'second');
    const url = `${snippets(project)}/${parent.id}/notes`;
    const listed = await api('GET', url, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([noteView(second, parent.id, outsider), noteView(first, parent.id, owner)]);
    expect(listed.headers.get('x-total')).toBe('2');
    const ascending = await api('GET', `${url}?sort=asc&order_by=updated_at&per_page=1`, {
      token: owner.token,
    });
    expect(ascending.body).toEqual([noteView(first, parent.id, owner)]);
    expect(ascending.headers.get('x-total')).toBe('2');
    expect(ascending.headers.get('x-next-page')).toBe('2');
  });

  it('PUT → 200 Note for the author and maintainers; 403 for other members', async () => {
    const note = await newNote(pub, snippet, developer, 'draft');
    const url = `${notes()}/${note.id}`;
    for (const user of [reporter, outsider]) {
      const refused = await api('PUT', url, { token: user.token, json: { body: 'hijack' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    const edited = await api<NoteBody>('PUT', url, { token: developer.token, json: { body: 'final' } });
    expect(edited.status).toBe(200);
    expect(edited.body.updated_at >= note.updated_at).toBe(true);
    expect(edited.body).toEqual(
      noteView({ ...note, body: 'final', updated_at: edited.body.updated_at }, snippet.id, developer),
    );
    const byMaintainer = await api<NoteBody>('PUT', url, {
      token: maintainer.token,
      json: { body: 'moderated' },
    });
    expect(byMaintainer.status).toBe(200);
    expect(byMaintainer.body.body).toBe('moderated');
    const blank = await api('PUT', url, { token: developer.token, json: { body: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given',
    });
    const missing = await api('PUT', url, { token: developer.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
  });

  it('DELETE → 204 for the author; then 404; others 403', async () => {
    const note = await newNote(pub, snippet, developer);
    const url = `${notes()}/${note.id}`;
    const refused = await api('DELETE', url, { token: reporter.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
    const removed = await api('DELETE', url, { token: developer.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const gone = await api(method, url, {
        token: developer.token,
        ...(method === 'GET' ? {} : { json: { body: 'x' } }),
      });
      expect(gone.status, method).toBe(404);
      expect(gone.body).toEqual(NOT_FOUND);
    }
  });

  it('a non-member of a public project notes a public snippet; unknown snippets and notes are 404', async () => {
    const created = await api<NoteBody>('POST', notes(), {
      token: outsider.token,
      json: { body: 'drive-by' },
    });
    expect(created.status).toBe(201);
    const other = await newSnippet(priv, owner);
    const otherNote = await newNote(priv, other, owner);
    const cases = [
      `${snippets(pub)}/${other.id}/notes`,
      `${snippets(pub)}/${other.id}/notes/${otherNote.id}`,
      `${snippets(pub)}/999999999/notes`,
      `${notes()}/${otherNote.id}`,
      `${notes()}/999999999`,
    ];
    for (const path of cases) {
      const missing = await api('GET', path, { token: owner.token });
      expect(missing.status, path).toBe(404);
      expect(missing.body).toEqual(NOT_FOUND);
    }
  });

  it('the notes list total follows creates and deletes; anonymous → 401', async () => {
    const project = await newProject(owner, 'public');
    const parent = await newSnippet(project, owner);
    const url = `${snippets(project)}/${parent.id}/notes`;
    const a = await newNote(project, parent, owner);
    await newNote(project, parent, owner);
    expect((await api('DELETE', `${url}/${a.id}`, { token: owner.token })).status).toBe(204);
    const listed = await api<NoteBody[]>('GET', url, { token: owner.token });
    expect(listed.headers.get('x-total')).toBe('1');
    expect(listed.body.length).toBe(1);
    const anonymous = await api('GET', url, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it('a long note body is kept whole', async () => {
    const body = incompressible(1_000_000);
    const created = await api<NoteBody>('POST', notes(), { token: owner.token, json: { body } });
    expect(created.status).toBe(201);
    const read = await api<NoteBody>('GET', `${notes()}/${created.body.id}`, { token: owner.token });
    expect(read.body.body === body).toBe(true);
  });
});

describe('bad input is a 4xx, never a 5xx', () => {
  it('odd ids, types and sizes on every route', async () => {
    const snippet = await newSnippet(pub, owner);
    const note = await newNote(pub, snippet, owner);
    const ids = ['abc', '0', '-1', '1.5', '99999999999999999999', '%00', 'x'.repeat(300)];
    for (const bad of ids) {
      for (const [method, path] of [
        ['GET', `${snippets(pub)}/${bad}`],
        ['GET', `${snippets(pub)}/${bad}/raw`],
        ['PUT', `${snippets(pub)}/${bad}`],
        ['DELETE', `${snippets(pub)}/${bad}`],
        ['GET', `${snippets(pub)}/${bad}/notes`],
        ['POST', `${snippets(pub)}/${bad}/notes`],
        ['GET', `${snippets(pub)}/${snippet.id}/notes/${bad}`],
        ['PUT', `${snippets(pub)}/${snippet.id}/notes/${bad}`],
        ['DELETE', `${snippets(pub)}/${snippet.id}/notes/${bad}`],
        ['GET', `/projects/${bad}/snippets`],
      ] as const) {
        const answer = await api(method, path, {
          token: owner.token,
          ...(method === 'GET' ? {} : { json: { title: 'x', body: 'x' } }),
        });
        expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    const invalid = await api('GET', `${snippets(pub)}/abc`, { token: owner.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'snippet_id is invalid' });
    const bodies: unknown[] = [
      { title: { a: 1 }, file_name: 'x', content: 'x', visibility: 'public' },
      { title: 'x', file_name: ['x'], content: 'x', visibility: 'public' },
      { title: 'x', file_name: 'x', content: { nested: true }, visibility: 'public' },
      { title: 'x', file_name: 'x', content: 'x', visibility: 20 },
      { title: null, file_name: null, content: null, code: null, visibility: null },
      [1, 2, 3],
      'just a string',
    ];
    for (const json of bodies) {
      const answer = await api('POST', snippets(pub), { token: owner.token, json });
      expect(answer.status, JSON.stringify(json)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(json)).toBeLessThan(500);
      const changed = await api('PUT', `${snippets(pub)}/${snippet.id}`, { token: owner.token, json });
      expect(changed.status, JSON.stringify(json)).toBeLessThan(500);
      const noted = await api('PUT', `${snippets(pub)}/${snippet.id}/notes/${note.id}`, {
        token: owner.token,
        json,
      });
      expect(noted.status, JSON.stringify(json)).toBeLessThan(500);
    }
    const malformed = await api('POST', snippets(pub), {
      token: owner.token,
      body: '{"title":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
  });
});
