import { describe, expect, it } from 'vitest';
import { api, createUser, idle, unique } from '../support/api.ts';

interface UserBody {
  id: number;
  username: string;
  email?: string;
  state: string;
  is_admin?: boolean;
}

describe('users', () => {
  it('creates a user from a query-string POST as curl scripts do', async () => {
    const username = unique('curl');
    const response = await api<UserBody>(
      'POST',
      `/users?username=${username}&email=${username}@example.com&name=Curl%20User&password=password123`,
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      username,
      email: `${username}@example.com`,
      state: 'active',
      is_admin: false,
    });
  });

  it('refuses missing, malformed and invalid fields in GitLab shapes', async () => {
    const missing = await api('POST', '/users', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'email is missing, name is missing, username is missing' });

    const noPassword = await api('POST', '/users', {
      json: { email: 'x@example.com', name: 'x', username: 'x' },
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({
      error:
        'password, reset_password, force_random_password are missing, at least one parameter must be provided',
    });

    const invalid = await api('POST', '/users', {
      json: { email: 'not-an-email', name: 'x', username: '-bad', password: 'short' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      message: {
        email: ['is invalid'],
        username: [
          "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
        ],
        password: ['is too short (minimum is 8 characters)'],
      },
    });
  });

  it('20 parallel creations of one username: one 201, nineteen 409, one user stored', async () => {
    const username = unique('race');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api('POST', '/users', {
          json: { username, email: `${username}-${i}@example.com`, name: username, password: 'password123' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body).toEqual({ message: 'Username has already been taken' });
    }
    const found = await api<UserBody[]>('GET', `/users?username=${username}`);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.headers.get('x-total')).toBe('1');
  });

  it('20 parallel creations of one email: one 201, nineteen 409', async () => {
    const email = `${unique('mail')}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api('POST', '/users', {
          json: { username: unique(`m${i}`), email, name: 'm', password: 'password123' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body).toEqual({ message: 'Email has already been taken' });
    }
  });

  it('treats usernames and emails case-insensitively for uniqueness', async () => {
    const user = await createUser();
    const clash = await api('POST', '/users', {
      json: {
        username: user.username.toUpperCase(),
        email: `other-${user.email}`,
        name: 'x',
        password: 'password123',
      },
    });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ message: 'Username has already been taken' });
    const emailClash = await api('POST', '/users', {
      json: { username: unique('u'), email: user.email.toUpperCase(), name: 'x', password: 'password123' },
    });
    expect(emailClash.status).toBe(409);
    expect(emailClash.body).toEqual({ message: 'Email has already been taken' });
  });

  it('pages GET /users with GitLab headers and Link', async () => {
    const prefix = unique('page');
    for (let i = 0; i < 5; i++) {
      const created = await api('POST', '/users', {
        json: {
          username: `${prefix}-${i}`,
          email: `${prefix}-${i}@example.com`,
          name: `${prefix} ${i}`,
          password: 'password123',
        },
      });
      expect(created.status).toBe(201);
    }
    const page2 = await api<UserBody[]>('GET', `/users?search=${prefix}&per_page=2&page=2`);
    expect(page2.status).toBe(200);
    expect(page2.body.map((user) => user.username)).toEqual([`${prefix}-2`, `${prefix}-1`]);
    expect(page2.headers.get('x-total')).toBe('5');
    expect(page2.headers.get('x-total-pages')).toBe('3');
    expect(page2.headers.get('x-per-page')).toBe('2');
    expect(page2.headers.get('x-page')).toBe('2');
    expect(page2.headers.get('x-next-page')).toBe('3');
    expect(page2.headers.get('x-prev-page')).toBe('1');
    const link = page2.headers.get('link') ?? '';
    expect(link).toContain(`/api/v4/users?page=1&per_page=2&search=${prefix}>; rel="prev"`);
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="first"');
    expect(link).toContain(`/api/v4/users?page=3&per_page=2&search=${prefix}>; rel="last"`);

    const past = await api<UserBody[]>('GET', `/users?search=${prefix}&per_page=2&page=9`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-next-page')).toBe('');
    expect(past.headers.get('x-prev-page')).toBe('');

    const all = await api<UserBody[]>('GET', '/users?per_page=500');
    expect(all.headers.get('x-per-page')).toBe('100');
    expect(Number(all.headers.get('x-total'))).toBeGreaterThanOrEqual(6);
  });

  it('shows admins everything and others the basic entity; anonymous only by username', async () => {
    const user = await createUser();
    const asAdmin = await api<UserBody>('GET', `/users/${user.id}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ id: user.id, email: user.email, is_admin: false });

    const asUser = await api<UserBody>('GET', `/users/${user.id}`, { token: user.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body.email).toBeUndefined();

    const anonymousList = await api('GET', '/users', { token: null });
    expect(anonymousList.status).toBe(403);
    expect(anonymousList.body).toEqual({
      message: '403 Forbidden  - Not authorized to access /api/v4/users',
    });

    const anonymousLookup = await api<UserBody[]>('GET', `/users?username=${user.username}`, { token: null });
    expect(anonymousLookup.status).toBe(200);
    expect(anonymousLookup.body.map((found) => found.id)).toEqual([user.id]);

    const missing = await api('GET', '/users/987654321');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });

  it('lets only admins create, update and delete users', async () => {
    const user = await createUser();
    for (const [method, path] of [
      ['POST', '/users'],
      ['PUT', `/users/${user.id}`],
      ['DELETE', `/users/${user.id}`],
      ['POST', `/users/${user.id}/personal_access_tokens`],
    ] as const) {
      const asUser = await api(method, path, { token: user.token, json: { name: 'x' } });
      expect(asUser.status, `${method} ${path}`).toBe(403);
      expect(asUser.body).toEqual({ message: '403 Forbidden' });
      const anonymous = await api(method, path, { token: null, json: { name: 'x' } });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('updates a user: rename, clash, and admin rights take effect on its token at once', async () => {
    const user = await createUser();
    const other = await createUser();
    const renamed = unique('renamed');
    const update = await api<UserBody>('PUT', `/users/${user.id}`, {
      json: { username: renamed, admin: true },
    });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ id: user.id, username: renamed, is_admin: true });

    const me = await api<UserBody>('GET', '/user', { token: user.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: renamed, is_admin: true });

    const oldName = await api<UserBody[]>('GET', `/users?username=${user.username}`);
    expect(oldName.body).toEqual([]);

    const clash = await api('PUT', `/users/${user.id}`, { json: { username: other.username } });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ message: 'Username has already been taken' });

    const freed = await api('POST', '/users', {
      json: {
        username: user.username,
        email: `${unique('x')}@example.com`,
        name: 'x',
        password: 'password123',
      },
    });
    expect(freed.status).toBe(201);
  });

  it('blocks and unblocks: a blocked user gets 403 and is listed as blocked', async () => {
    const user = await createUser();
    const block = await api('POST', `/users/${user.id}/block`);
    expect(block.status).toBe(201);
    expect(block.body).toBe(true);
    const again = await api('POST', `/users/${user.id}/block`);
    expect(again.status).toBe(201);
    expect(again.body).toBeNull(); // GitLab answers a second block with 201 and no value

    const denied = await api('GET', '/user', { token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden  - User is blocked' });

    const blocked = await api<UserBody[]>('GET', '/users?blocked=true&per_page=100');
    expect(blocked.body.map((found) => found.id)).toContain(user.id);
    const active = await api<UserBody[]>('GET', `/users?active=true&username=${user.username}`);
    expect(active.body).toEqual([]);

    const unblock = await api('POST', `/users/${user.id}/unblock`);
    expect(unblock.status).toBe(201);
    expect(unblock.body).toBe(true);
    const allowed = await api('GET', '/user', { token: user.token });
    expect(allowed.status).toBe(200);
  });

  it('deletes a user: 204, its token stops at once, the worker removes its tokens', async () => {
    const user = await createUser();
    const removed = await api('DELETE', `/users/${user.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');

    const token = await api('GET', '/user', { token: user.token });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ message: '401 Unauthorized' });

    const gone = await api('GET', `/users/${user.id}`);
    expect(gone.status).toBe(404);

    const again = await api('DELETE', `/users/${user.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 User Not Found' });

    // The user-cleanup worker revokes the tokens.
    await idle();
    const tokens = await api<unknown[]>('GET', `/personal_access_tokens?user_id=${user.id}`);
    expect([tokens.status, tokens.body]).toEqual([200, []]);
  });
});
