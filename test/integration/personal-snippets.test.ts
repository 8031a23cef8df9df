/**
 * Personal snippets (/snippets) over HTTP: every operation with GitLab's statuses and whole bodies,
 * who reads each visibility (anonymous callers included), raw content with the file headers, the
 * three lists with their totals and pages, the client recorded for admins, the line between
 * personal and project snippets, bad input that is never a 5xx, and a removed user's snippets.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, listSize, storedListCount } from '../support/db.ts';

const base = () => baseUrl().replace(/\/+$/, '');

interface SnippetBody {
  id: number;
  title: string;
  file_name: string;
  description: string | null;
  visibility: string;
  created_at: string;
  updated_at: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SNIPPET_NOT_FOUND = { message: '404 Snippet Not Found' };
const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };

const userBasic = (user: TestUser) => ({
  id: user.id,
  name: user.username,
  username: user.username,
  state: 'active',
  avatar_url: `${base()}/assets/no_avatar.png`,
  web_url: `${base()}/${user.username}`,
});

/** GitLab's PersonalSnippet entity of a snippet as answered. */
function snippetView(snippet: SnippetBody, author: TestUser) {
  const webUrl = `${base()}/-/snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: userBasic(author),
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    project_id: null,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    file_name: snippet.file_name,
    files: [
      { path: snippet.file_name, raw_url: `${webUrl}/raw/main/${encodeURIComponent(snippet.file_name)}` },
    ],
    expires_at: null,
    imported: false,
    imported_from: 'none',
  };
}

async function externalUser(): Promise<TestUser> {
  const user = await createUser();
  const changed = await api('PUT', `/users/${user.id}`, { json: { external: true } });
  expect(changed.status, changed.text).toBe(200);
  return user;
}

async function newSnippet(author: TestUser, fields: Record<string, unknown> = {}): Promise<SnippetBody> {
  const created = await api<SnippetBody>('POST', '/snippets', {
    token: author.token,
    json: { title: unique('T'), file_name: 'hello.rb', content: 'puts 1', visibility: 'public', ...fields },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const total = (response: { headers: Headers }) => Number(response.headers.get('x-total'));

describe('personal snippets', () => {
  let author: TestUser;
  let other: TestUser;
  let external: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    [author, other, external, admin] = await Promise.all([
      createUser(),
      createUser(),
      externalUser(),
      createUser({ admin: true }),
    ]);
  });

  it('create, read, raw, change and delete, with GitLab’s bodies', async () => {
    const created = await api<SnippetBody>('POST', '/snippets', {
      token: author.token,
      json: { title: 'Hello', file_name: 'hello.rb', content: 'puts "hello"', description: 'greets' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    // Internal unless told.
    const expected = snippetView(
      {
        ...created.body,
        title: 'Hello',
        file_name: 'hello.rb',
        description: 'greets',
        visibility: 'internal',
      },
      author,
    );
    expect(created.body).toEqual(expected);

    const read = await api('GET', `/snippets/${created.body.id}`, { token: author.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);

    const raw = await api('GET', `/snippets/${created.body.id}/raw`, { token: author.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(raw.text).toBe('puts "hello"');

    const changed = await api<SnippetBody>('PUT', `/snippets/${created.body.id}`, {
      token: author.token,
      json: { title: 'Bye', content: 'puts "bye"', visibility: 'private', file_name: 'bye.rb' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual(
      snippetView(
        {
          ...created.body,
          title: 'Bye',
          file_name: 'bye.rb',
          visibility: 'private',
          updated_at: changed.body.updated_at,
        },
        author,
      ),
    );
    expect(changed.body.updated_at >= created.body.updated_at).toBe(true);
    const rawAfter = await api('GET', `/snippets/${created.body.id}/raw`, { token: author.token });
    expect(rawAfter.status).toBe(200);
    expect(rawAfter.text).toBe('puts "bye"');

    const removed = await api('DELETE', `/snippets/${created.body.id}`, { token: author.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    for (const suffix of ['', '/raw']) {
      const gone = await api('GET', `/snippets/${created.body.id}${suffix}`, { token: author.token });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(SNIPPET_NOT_FOUND);
    }
    const again = await api('DELETE', `/snippets/${created.body.id}`, { token: author.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(SNIPPET_NOT_FOUND);
    expect(await itemsLeft(`SNIPPET#${created.body.id}`)).toEqual([]);
  });

  it('long content is kept whole and read back raw', async () => {
    const content = `${'0123456789abcdef'.repeat(4096)}\nend`;
    const snippet = await newSnippet(author, { content, visibility: 'private' });
    const raw = await api('GET', `/snippets/${snippet.id}/raw`, { token: author.token });
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(content);
    const changed = await api('PUT', `/snippets/${snippet.id}`, {
      token: author.token,
      json: { content: 'short' },
    });
    expect(changed.status).toBe(200);
    expect((await api('GET', `/snippets/${snippet.id}/raw`, { token: author.token })).text).toBe('short');
    expect((await api('DELETE', `/snippets/${snippet.id}`, { token: author.token })).status).toBe(204);
    expect(await itemsLeft(`SNIPPET#${snippet.id}`)).toEqual([]);
  });

  it('who reads each visibility: author and admins all, signed-in users internal, anyone public', async () => {
    const byVisibility = {
      private: await newSnippet(author, { visibility: 'private', content: 'p' }),
      internal: await newSnippet(author, { visibility: 'internal', content: 'i' }),
      public: await newSnippet(author, { visibility: 'public', content: 'u' }),
    };
    const callers: [string, string | null, Record<keyof typeof byVisibility, boolean>][] = [
      ['author', author.token, { private: true, internal: true, public: true }],
      ['admin', admin.token, { private: true, internal: true, public: true }],
      ['other user', other.token, { private: false, internal: true, public: true }],
      ['external user', external.token, { private: false, internal: false, public: true }],
      ['anonymous', null, { private: false, internal: false, public: true }],
    ];
    for (const [who, token, sees] of callers) {
      for (const [visibility, snippet] of Object.entries(byVisibility)) {
        const seen = sees[visibility as keyof typeof byVisibility];
        const read = await api('GET', `/snippets/${snippet.id}`, { token });
        expect(read.status, `${who} GET ${visibility}`).toBe(seen ? 200 : 404);
        expect(read.body, `${who} GET ${visibility}`).toEqual(
          seen ? snippetView(snippet, author) : SNIPPET_NOT_FOUND,
        );
        const raw = await api('GET', `/snippets/${snippet.id}/raw`, { token });
        expect(raw.status, `${who} raw ${visibility}`).toBe(seen ? 200 : 404);
        if (seen)
          expect(raw.text).toBe(visibility === 'private' ? 'p' : visibility === 'internal' ? 'i' : 'u');
        else expect(raw.body).toEqual(SNIPPET_NOT_FOUND);
      }
    }
  });

  it('only the author changes or deletes a snippet: others’ (an admin’s too) are not found; anonymous → 401; external users create none', async () => {
    const snippet = await newSnippet(author, { visibility: 'public' });
    for (const caller of [other, admin, external]) {
      const put = await api('PUT', `/snippets/${snippet.id}`, {
        token: caller.token,
        json: { title: 'mine' },
      });
      expect(put.status).toBe(404);
      expect(put.body).toEqual(SNIPPET_NOT_FOUND);
      const removed = await api('DELETE', `/snippets/${snippet.id}`, { token: caller.token });
      expect(removed.status).toBe(404);
      expect(removed.body).toEqual(SNIPPET_NOT_FOUND);
    }
    for (const [method, json] of [
      ['PUT', { title: 'x' }],
      ['DELETE', undefined],
      ['POST', undefined],
    ] as const) {
      const path = method === 'POST' ? '/snippets' : `/snippets/${snippet.id}`;
      const anonymous = await api(method, path, {
        token: null,
        json: json ?? { title: 'x', file_name: 'x', content: 'x' },
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(UNAUTHORIZED);
    }
    const read = await api('GET', `/snippets/${snippet.id}`, { token: author.token });
    expect(read.body).toEqual(snippetView(snippet, author));

    // External users create no personal snippets.
    const before = await api('GET', '/snippets', { token: external.token });
    const byExternal = await api('POST', '/snippets', {
      token: external.token,
      json: { title: 'x', file_name: 'x', content: 'x' },
    });
    expect(byExternal.status).toBe(403);
    expect(byExternal.body).toEqual(FORBIDDEN);
    const after = await api('GET', '/snippets', { token: external.token });
    expect(after.body).toEqual([]);
    expect(after.headers.get('x-total')).toBe(before.headers.get('x-total'));
  });

  it('GET /snippets: the caller’s own, newest first, paged; 401 anonymous', async () => {
    const owner = await createUser();
    const first = await newSnippet(owner, { visibility: 'private' });
    const second = await newSnippet(owner, { visibility: 'internal' });
    const third = await newSnippet(owner, { visibility: 'public' });
    await newSnippet(other, { visibility: 'public' });

    const all = await api('GET', '/snippets', { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([third, second, first].map((snippet) => snippetView(snippet, owner)));
    expect(all.headers.get('x-total')).toBe('3');

    const page = await api('GET', '/snippets?per_page=2&page=2', { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body).toEqual([snippetView(first, owner)]);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-next-page')).toBe('');

    const windows: [string, SnippetBody[]][] = [
      [`created_after=${second.created_at}`, [third, second]],
      [`created_before=${second.created_at}`, [second, first]],
      [`created_after=${second.created_at}&created_before=${second.created_at}`, [second]],
      [`created_after=${third.created_at}&created_before=${first.created_at}`, []],
    ];
    for (const [query, expected] of windows) {
      const narrowed = await api('GET', `/snippets?${query}`, { token: owner.token });
      expect(narrowed.status, query).toBe(200);
      expect(narrowed.body, query).toEqual(expected.map((snippet) => snippetView(snippet, owner)));
      expect(narrowed.headers.get('x-total'), query).toBe(String(expected.length));
    }
    const badDate = await api('GET', '/snippets?created_after=yesterday', { token: owner.token });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toEqual({ error: 'created_after is invalid' });

    const anonymous = await api('GET', '/snippets', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it('GET /snippets/public: every public personal snippet, newest first; 401 anonymous', async () => {
    const before = await api('GET', '/snippets/public', { token: other.token });
    expect(before.status).toBe(200);
    const owner = await createUser();
    const older = await newSnippet(owner, { visibility: 'public' });
    await newSnippet(owner, { visibility: 'internal' });
    await newSnippet(owner, { visibility: 'private' });
    const newer = await newSnippet(author, { visibility: 'public' });

    const after = await api<unknown[]>('GET', '/snippets/public?per_page=2', { token: other.token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual([snippetView(newer, author), snippetView(older, owner)]);
    expect(total(after)).toBe(total(before) + 2);
    expect(await storedListCount('SNIPPETS#PERSONAL#public')).toBe(total(after));
    const latest = await api('GET', `/snippets/public?created_after=${newer.created_at}`, {
      token: other.token,
    });
    expect(latest.body).toEqual([snippetView(newer, author)]);
    expect(latest.headers.get('x-total')).toBe('1');

    // A change of visibility moves it out of the list, and back.
    const hidden = await api('PUT', `/snippets/${newer.id}`, {
      token: author.token,
      json: { visibility: 'internal' },
    });
    expect(hidden.status).toBe(200);
    const without = await api<unknown[]>('GET', '/snippets/public?per_page=1', { token: other.token });
    expect(without.body).toEqual([snippetView(older, owner)]);
    expect(total(without)).toBe(total(before) + 1);

    const anonymous = await api('GET', '/snippets/public', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it('GET /snippets/all: public and internal ones and one’s own for users, every one for admins', async () => {
    const reader = await createUser();
    const readerBefore = await api('GET', '/snippets/all', { token: reader.token });
    const adminBefore = await api('GET', '/snippets/all', { token: admin.token });
    const externalBefore = await api('GET', '/snippets/all', { token: external.token });
    expect([readerBefore.status, adminBefore.status, externalBefore.status]).toEqual([200, 200, 200]);

    const owner = await createUser();
    const secret = await newSnippet(owner, { visibility: 'private' });
    const inside = await newSnippet(owner, { visibility: 'internal' });
    const open = await newSnippet(owner, { visibility: 'public' });
    const readersOwn = await newSnippet(reader, { visibility: 'private' });

    const forReader = await api('GET', '/snippets/all?per_page=3', { token: reader.token });
    expect(forReader.status).toBe(200);
    expect(forReader.body).toEqual([
      snippetView(readersOwn, reader),
      snippetView(open, owner),
      snippetView(inside, owner),
    ]);
    expect(total(forReader)).toBe(total(readerBefore) + 3);

    const forAdmin = await api('GET', '/snippets/all?per_page=4', { token: admin.token });
    expect(forAdmin.body).toEqual([
      snippetView(readersOwn, reader),
      snippetView(open, owner),
      snippetView(inside, owner),
      snippetView(secret, owner),
    ]);
    expect(total(forAdmin)).toBe(total(adminBefore) + 4);

    const since = `created_after=${secret.created_at}`;
    const readerSince = await api('GET', `/snippets/all?${since}`, { token: reader.token });
    expect(readerSince.body).toEqual([
      snippetView(readersOwn, reader),
      snippetView(open, owner),
      snippetView(inside, owner),
    ]);
    expect(readerSince.headers.get('x-total')).toBe('3');
    const adminSince = await api('GET', `/snippets/all?${since}`, { token: admin.token });
    expect(adminSince.body).toEqual([
      snippetView(readersOwn, reader),
      snippetView(open, owner),
      snippetView(inside, owner),
      snippetView(secret, owner),
    ]);
    expect(adminSince.headers.get('x-total')).toBe('4');

    const forExternal = await api('GET', '/snippets/all?per_page=1', { token: external.token });
    expect(forExternal.body).toEqual([snippetView(open, owner)]);
    expect(total(forExternal)).toBe(total(externalBefore) + 1);

    const anonymous = await api('GET', '/snippets/all', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it('user_agent_detail: admins see the creating client; others 403, anonymous 401; none recorded → 404', async () => {
    const created = await api<SnippetBody>('POST', '/snippets', {
      token: author.token,
      headers: { 'User-Agent': 'snippet-client/1.0' },
      json: { title: 'ua', file_name: 'a.txt', content: 'a', visibility: 'private' },
    });
    expect(created.status).toBe(201);
    const detail = await api('GET', `/snippets/${created.body.id}/user_agent_detail`, { token: admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      user_agent: 'snippet-client/1.0',
      ip_address: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/),
      akismet_submitted: false,
    });

    const notAdmin = await api('GET', `/snippets/${created.body.id}/user_agent_detail`, {
      token: author.token,
    });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual(FORBIDDEN);
    const anonymous = await api('GET', `/snippets/${created.body.id}/user_agent_detail`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    const unknown = await api('GET', '/snippets/999999999/user_agent_detail', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Not found' });

    const anonymousClient = await api<SnippetBody>('POST', '/snippets', {
      token: author.token,
      headers: { 'User-Agent': '' },
      json: { title: 'no ua', file_name: 'a.txt', content: 'a' },
    });
    expect(anonymousClient.status).toBe(201);
    const none = await api('GET', `/snippets/${anonymousClient.body.id}/user_agent_detail`, {
      token: admin.token,
    });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: '404 UserAgentDetail Not Found' });
  });

  it('personal and project snippets never answer for each other', async () => {
    const project = await api<{ id: number }>('POST', '/projects', {
      token: author.token,
      json: { name: unique('snip'), visibility: 'public' },
    });
    expect(project.status, project.text).toBe(201);
    const inProject = await api<SnippetBody>('POST', `/projects/${project.body.id}/snippets`, {
      token: author.token,
      json: { title: 'p', file_name: 'p.rb', content: 'p', visibility: 'public' },
    });
    expect(inProject.status, inProject.text).toBe(201);
    const personal = await newSnippet(author, { visibility: 'public' });

    for (const path of [`/snippets/${inProject.body.id}`, `/snippets/${inProject.body.id}/raw`]) {
      const read = await api('GET', path, { token: author.token });
      expect(read.status, path).toBe(404);
      expect(read.body).toEqual(SNIPPET_NOT_FOUND);
    }
    const put = await api('PUT', `/snippets/${inProject.body.id}`, {
      token: author.token,
      json: { title: 'x' },
    });
    expect(put.status).toBe(404);
    expect(put.body).toEqual(SNIPPET_NOT_FOUND);
    const removed = await api('DELETE', `/snippets/${inProject.body.id}`, { token: author.token });
    expect(removed.status).toBe(404);
    expect(removed.body).toEqual(SNIPPET_NOT_FOUND);

    const viaProject = await api('GET', `/projects/${project.body.id}/snippets/${personal.id}`, {
      token: author.token,
    });
    expect(viaProject.status).toBe(404);
    expect(viaProject.body).toEqual({ message: '404 Not found' });
    const rawViaProject = await api('GET', `/projects/${project.body.id}/snippets/${personal.id}/raw`, {
      token: author.token,
    });
    expect(rawViaProject.status).toBe(404);
    expect(rawViaProject.body).toEqual(SNIPPET_NOT_FOUND);
    const deleteViaProject = await api('DELETE', `/projects/${project.body.id}/snippets/${personal.id}`, {
      token: author.token,
    });
    expect(deleteViaProject.status).toBe(404);
    expect(deleteViaProject.body).toEqual(SNIPPET_NOT_FOUND);

    const projectList = await api('GET', `/projects/${project.body.id}/snippets`, { token: author.token });
    expect(projectList.body).toEqual([expect.objectContaining({ id: inProject.body.id })]);
    const ownList = await api<{ id: number }[]>('GET', '/snippets?per_page=100', { token: author.token });
    expect(ownList.body.map((snippet) => snippet.id)).not.toContain(inProject.body.id);
  });

  it('bad input → GitLab’s 400s, never a 5xx, nothing written', async () => {
    const before = await api('GET', '/snippets', { token: other.token });
    const cases: [Record<string, unknown>, unknown][] = [
      [{}, { error: 'title is missing, file_name is missing, content is missing' }],
      [{ title: 'x', file_name: 'x' }, { error: 'content is missing' }],
      [
        { title: 'x', file_name: 'x', content: 'x', visibility: 'secret' },
        { error: 'visibility does not have a valid value' },
      ],
      [{ title: '  ', file_name: 'x', content: 'x' }, { message: { title: ["can't be blank"] } }],
      [
        { title: 't'.repeat(256), file_name: 'x', content: 'x' },
        { message: { title: ['is too long (maximum is 255 characters)'] } },
      ],
      [
        { title: 'x', file_name: 'f'.repeat(256), content: 'x' },
        { message: { file_name: ['is too long (maximum is 255 characters)'] } },
      ],
      [{ title: 'x', file_name: 'x', content: ' \n ' }, { message: { content: ["can't be blank"] } }],
      [
        { title: 'x', file_name: 'x', content: 'x', description: 'd'.repeat(65_536) },
        { message: { description: ['is too long (maximum is 65535 characters)'] } },
      ],
    ];
    for (const [json, body] of cases) {
      const refused = await api('POST', '/snippets', { token: other.token, json });
      expect(refused.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(refused.body).toEqual(body);
    }
    const after = await api('GET', '/snippets', { token: other.token });
    expect(after.headers.get('x-total')).toBe(before.headers.get('x-total'));

    const snippet = await newSnippet(other);
    const nothing = await api('PUT', `/snippets/${snippet.id}`, { token: other.token, json: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({
      error:
        'content, description, file_name, title, visibility are missing, at least one parameter must be provided',
    });
    const badVisibility = await api('PUT', `/snippets/${snippet.id}`, {
      token: other.token,
      json: { visibility: 'hidden' },
    });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body).toEqual({ error: 'visibility does not have a valid value' });

    for (const list of ['/snippets', '/snippets/public', '/snippets/all']) {
      const reversed = await api(
        'GET',
        `${list}?created_after=2026-02-01T00:00:00Z&created_before=2026-01-01T00:00:00Z`,
        { token: other.token },
      );
      expect(reversed.status, list).toBe(200);
      expect(reversed.body, list).toEqual([]);
      expect(reversed.headers.get('x-total'), list).toBe('0');
      const badDate = await api('GET', `${list}?created_before=13/2026`, { token: other.token });
      expect(badDate.status, list).toBe(400);
      expect(badDate.body, list).toEqual({ error: 'created_before is invalid' });
    }

    const badId = await api('GET', '/snippets/abc', { token: other.token });
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({ error: 'id is invalid' });
    const unknown = await api('GET', '/snippets/999999999', { token: other.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(SNIPPET_NOT_FOUND);
  });

  it('concurrent changes of visibility and removals keep every list’s total exact', async () => {
    const owner = await createUser();
    const snippets = await Promise.all(
      ['private', 'internal', 'public', 'public'].map((visibility) => newSnippet(owner, { visibility })),
    );
    const requests = snippets.flatMap((snippet, index) => [
      ...['public', 'private', 'internal', 'public', 'private'].map((visibility) =>
        api('PUT', `/snippets/${snippet.id}`, { token: owner.token, json: { visibility } }),
      ),
      ...(index % 2 === 0 ? [api('DELETE', `/snippets/${snippet.id}`, { token: owner.token })] : []),
    ]);
    const answers = await Promise.all(requests);
    for (const answer of answers) expect([200, 204, 404]).toContain(answer.status);
    for (const visibility of ['private', 'internal', 'public']) {
      const list = `SNIPPETS#PERSONAL#${visibility}`;
      expect(await storedListCount(list), list).toBe(await listSize('l2', list));
    }
    const own = `SNIPPETS#USER#${owner.id}`;
    expect(await storedListCount(own)).toBe(2);
    expect(await listSize('l1', own)).toBe(2);
    const listed = await api('GET', '/snippets', { token: owner.token });
    expect(listed.headers.get('x-total')).toBe('2');
  });

  it('a removed user’s personal snippets go with it, out of every list', async () => {
    const leaving = await createUser();
    const publicOne = await newSnippet(leaving, { visibility: 'public' });
    const privateOne = await newSnippet(leaving, { visibility: 'private' });
    const publicBefore = await api('GET', '/snippets/public', { token: other.token });

    const removed = await api('DELETE', `/users/${leaving.id}`);
    expect(removed.status).toBe(204);
    await idle();

    for (const snippet of [publicOne, privateOne]) {
      const read = await api('GET', `/snippets/${snippet.id}`, { token: admin.token });
      expect(read.status).toBe(404);
      expect(read.body).toEqual(SNIPPET_NOT_FOUND);
      expect(await itemsLeft(`SNIPPET#${snippet.id}`)).toEqual([]);
    }
    const publicAfter = await api('GET', '/snippets/public', { token: other.token });
    expect(total(publicAfter)).toBe(total(publicBefore) - 1);
    expect(await storedListCount(`SNIPPETS#USER#${leaving.id}`)).toBe(0);
  });
});
