import { describe, expect, it } from 'vitest';
import { api, createUser } from '../support/api.ts';

interface TokenBody {
  id: number;
  name: string;
  token?: string;
  active: boolean;
  revoked: boolean;
  scopes: string[];
  user_id: number;
  expires_at: string | null;
}

describe('personal access tokens', () => {
  it('shows the secret once and accepts it in every GitLab position', async () => {
    const user = await createUser();
    const created = await api<TokenBody>('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'ci', scopes: ['api'], expires_at: '2099-01-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ci',
      scopes: ['api'],
      user_id: user.id,
      active: true,
      revoked: false,
      expires_at: '2099-01-01',
    });
    const secret = created.body.token as string;
    expect(secret).toMatch(/^glpat-/);

    for (const headers of [{ 'PRIVATE-TOKEN': secret }, { Authorization: `Bearer ${secret}` }] as Record<
      string,
      string
    >[]) {
      const response = await api('GET', '/user', { token: null, headers });
      expect(response.status).toBe(200);
    }
    const byParam = await api('GET', `/user?private_token=${secret}`, { token: null });
    expect(byParam.status).toBe(200);

    const listed = await api<TokenBody[]>('GET', '/personal_access_tokens', { token: secret });
    expect(listed.status).toBe(200);
    expect(listed.body.every((token) => token.user_id === user.id && token.token === undefined)).toBe(true);
    expect(listed.body.map((token) => token.id)).toContain(created.body.id);
  });

  it('answers unknown, revoked and expired tokens with 401', async () => {
    const unknown = await api('GET', '/user', { token: 'glpat-not-a-real-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: '401 Unauthorized' });

    const user = await createUser();
    const created = await api<TokenBody>('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'short', scopes: ['api'] },
    });
    const revoke = await api('DELETE', `/personal_access_tokens/${created.body.id}`, { token: user.token });
    expect(revoke.status).toBe(204);
    const revoked = await api('GET', '/user', { token: created.body.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({
      error: 'invalid_token',
      error_description: 'Token was revoked. You have to re-authorize from the user.',
    });

    const today = new Date().toISOString().slice(0, 10);
    const expiring = await api<TokenBody>('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'expired', scopes: ['api'], expires_at: today },
    });
    expect(expiring.status).toBe(201);
    const expired = await api('GET', '/user', { token: expiring.body.token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error: 'invalid_token',
      error_description: 'Token is expired. You can either do re-authorization or token refresh.',
    });
  });

  it('limits a read_user token to user reads', async () => {
    const user = await createUser({ scopes: ['read_user'] });
    const me = await api('GET', '/user', { token: user.token });
    expect(me.status).toBe(200);
    const write = await api('DELETE', '/personal_access_tokens/1', { token: user.token });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
  });

  it('lets a user revoke only their own tokens; admins revoke any', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const token = await api<TokenBody>('POST', `/users/${owner.id}/personal_access_tokens`, {
      json: { name: 'mine', scopes: ['api'] },
    });
    const denied = await api('DELETE', `/personal_access_tokens/${token.body.id}`, { token: stranger.token });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual({ message: '400 Bad request' });
    const missing = await api('DELETE', '/personal_access_tokens/987654321');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    const byAdmin = await api('DELETE', `/personal_access_tokens/${token.body.id}`);
    expect(byAdmin.status).toBe(204);

    const others = await api('GET', `/personal_access_tokens?user_id=${owner.id}`, { token: stranger.token });
    expect(others.status).toBe(403);
  });

  it('refuses invalid scopes and dates', async () => {
    const user = await createUser();
    const scope = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'x', scopes: ['everything'] },
    });
    expect(scope.status).toBe(400);
    expect(scope.body).toEqual({ error: 'scopes does not have a valid value' });
    const date = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: 'x', scopes: ['api'], expires_at: '2020-13-45' },
    });
    expect(date.status).toBe(400);
    expect(date.body).toEqual({ error: 'expires_at is invalid' });
    const noUser = await api('POST', '/users/987654321/personal_access_tokens', {
      json: { name: 'x', scopes: ['api'] },
    });
    expect(noUser.status).toBe(404);
    expect(noUser.body).toEqual({ message: '404 User Not Found' });
  });
});
