/**
 * Answers GitLab gives that clients rely on: a second block, tokens without a name or scopes,
 * comma-separated scopes, members expiring in the past, private emails in user search, and
 * project statistics only for reporters and up.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, unique } from '../support/api.ts';

describe('users', () => {
  it('a second block of a blocked user is 201 with null', async () => {
    const user = await createUser();
    const first = await api('POST', `/users/${user.id}/block`);
    expect(first.status).toBe(201);
    expect(first.body).toBe(true);
    const second = await api('POST', `/users/${user.id}/block`);
    expect(second.status).toBe(201);
    expect(second.text).toBe('null');
  });

  it('only admins find a user by their private email', async () => {
    const target = await createUser();
    const other = await createUser();
    const asUser = await api<unknown[]>('GET', `/users?search=${encodeURIComponent(target.email)}`, {
      token: other.token,
    });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toEqual([]);
    const asAdmin = await api<{ id: number }[]>('GET', `/users?search=${encodeURIComponent(target.email)}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.map((user) => user.id)).toEqual([target.id]);
  });
});

describe('personal access tokens', () => {
  it('an empty name or empty scopes is 400 in the model shape', async () => {
    const user = await createUser();
    const noName = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: '', scopes: ['api'] },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ message: { name: ["can't be blank"] } });
    const noScopes = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'ci', scopes: [] },
    });
    expect(noScopes.status).toBe(400);
    expect(noScopes.body).toEqual({ message: { scopes: ["can't be blank"] } });
  });

  it('a comma-separated scopes string is a list', async () => {
    const user = await createUser();
    const token = await api<{ scopes: string[] }>('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'ci', scopes: 'api,read_user' },
    });
    expect(token.status).toBe(201);
    expect(token.body.scopes).toEqual(['api', 'read_user']);
  });
});

describe('members', () => {
  it('an expires_at in the past is 400 on add and update, for groups and projects', async () => {
    const member = await createUser();
    const group = await api<{ id: number }>('POST', '/groups', {
      json: { name: unique('g'), path: unique('g') },
    });
    const project = await api<{ id: number }>('POST', '/projects', { json: { name: unique('p') } });
    for (const source of [`/groups/${group.body.id}`, `/projects/${project.body.id}`]) {
      const past = await api('POST', `${source}/members`, {
        json: { user_id: member.id, access_level: 30, expires_at: '2020-01-01' },
      });
      expect(past.status, source).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
      const added = await api('POST', `${source}/members`, {
        json: { user_id: member.id, access_level: 30 },
      });
      expect(added.status).toBe(201);
      const update = await api('PUT', `${source}/members/${member.id}`, {
        json: { access_level: 30, expires_at: '2001-02-03' },
      });
      expect(update.status).toBe(400);
      expect(update.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    }
  });
});

describe('project statistics', () => {
  it('shown to reporters and up and admins; never to anonymous callers, non-members or guests', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    const project = await api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('p'), visibility: 'public' },
    });
    for (const [user, level] of [
      [guest, 10],
      [reporter, 20],
    ] as const) {
      const added = await api('POST', `/projects/${project.body.id}/members`, {
        token: owner.token,
        json: { user_id: user.id, access_level: level },
      });
      expect(added.status).toBe(201);
    }
    const statisticsFor = async (token: string | null) => {
      const response = await api<Record<string, unknown>>(
        'GET',
        `/projects/${project.body.id}?statistics=true`,
        {
          token,
        },
      );
      expect(response.status).toBe(200);
      return 'statistics' in response.body;
    };
    expect(await statisticsFor(null)).toBe(false);
    expect(await statisticsFor(stranger.token)).toBe(false);
    expect(await statisticsFor(guest.token)).toBe(false);
    expect(await statisticsFor(reporter.token)).toBe(true);
    expect(await statisticsFor(owner.token)).toBe(true);
    expect(await statisticsFor(undefined as unknown as string)).toBe(true);
  });
});
