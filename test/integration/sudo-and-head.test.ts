/** Sudo, HEAD on GET routes and a token revoking itself, over HTTP against the local runtime. */
import { describe, expect, it } from 'vitest';
import { api, apiUrl, createUser, rootToken, type TestUser, unique } from '../support/api.ts';

interface UserBody {
  id: number;
  username: string;
}
interface ProjectBody {
  id: number;
  creator_id: number;
  owner: { id: number };
  namespace: { kind: string; path: string };
  path_with_namespace: string;
}

const SCOPE = 'The request requires higher privileges than provided by the access token.';
const REVOKED = 'Token was revoked. You have to re-authorize from the user.';

/** A raw HEAD (fetch gives the headers and an empty body). */
async function head(path: string, token: string | null = rootToken()) {
  const response = await fetch(`${apiUrl()}${path}`, {
    method: 'HEAD',
    headers: token ? { 'PRIVATE-TOKEN': token } : {},
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const newToken = async (user: TestUser, scopes: string[]) => {
  const created = await api<{ token: string }>('POST', `/users/${user.id}/personal_access_tokens`, {
    json: { name: unique('t'), scopes },
  });
  expect(created.status).toBe(201);
  return created.body.token;
};

describe('sudo', () => {
  it('an admin token with the sudo scope acts as the user named by id, username or header', async () => {
    const user = await createUser();
    const byId = await api<UserBody>('GET', `/user?sudo=${user.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: user.id, username: user.username });

    const byName = await api<UserBody>('GET', `/user?sudo=${user.username}`);
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ id: user.id, username: user.username });

    const byHeader = await api<UserBody>('GET', '/user', { headers: { Sudo: String(user.id) } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({ id: user.id, username: user.username });
  });

  it('a project created under sudo belongs to the impersonated user', async () => {
    const user = await createUser();
    const name = unique('sudo-project');
    const created = await api<ProjectBody>('POST', '/projects', {
      json: { name, sudo: user.username },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      creator_id: user.id,
      owner: { id: user.id },
      namespace: { kind: 'user', path: user.username },
      path_with_namespace: `${user.username}/${name}`,
    });
    // The user sees it as their own; the `sudo` parameter never reached the route's parameters.
    const own = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body.map((project) => project.id)).toEqual([created.body.id]);
  });

  it('a non-admin token → 403 Must be admin to use sudo', async () => {
    const user = await createUser({ scopes: ['api', 'sudo'] });
    const response = await api('GET', '/user?sudo=1', { token: user.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden  - Must be admin to use sudo' });
  });

  it('an admin token without the sudo scope → 403 insufficient_scope sudo', async () => {
    const admin = await createUser({ admin: true, scopes: ['api'] });
    const response = await api('GET', '/user', { token: admin.token, headers: { Sudo: '1' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', error_description: SCOPE, scope: 'sudo' });
  });

  it('an unknown user → 404 naming the value; no credential → 401', async () => {
    const missing = await api('GET', '/user?sudo=no-such-user-anywhere');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      message: "404 User with ID or username 'no-such-user-anywhere' Not Found",
    });
    const anonymous = await api('GET', '/projects?sudo=1', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('HEAD', () => {
  it('on a paginated list answers GET’s status and headers, X-Total included, without a body', async () => {
    const user = await createUser();
    for (const name of [unique('a'), unique('b'), unique('c')]) {
      expect((await api('POST', '/projects', { token: user.token, json: { name } })).status).toBe(201);
    }
    const path = `/users/${user.id}/projects?per_page=2`;
    const got = await api<unknown[]>('GET', path);
    const headed = await head(path);
    expect(got.status).toBe(200);
    expect(got.body).toHaveLength(2);
    expect(headed.status).toBe(200);
    expect(headed.text).toBe('');
    expect(headed.headers.get('x-total')).toBe('3');
    for (const name of [
      'x-total',
      'x-total-pages',
      'x-per-page',
      'x-page',
      'x-next-page',
      'link',
      'content-type',
    ]) {
      expect([name, headed.headers.get(name)]).toEqual([name, got.headers.get(name)]);
    }
  });

  it('on a single item: 200 with its content type, no body; on what the caller cannot see 404 without a body', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const project = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('private'), visibility: 'private' },
    });
    const mine = await head(`/projects/${project.body.id}`, owner.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/json');
    expect(mine.text).toBe('');
    const hidden = await head(`/projects/${project.body.id}`, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe('');
  });

  it('on an unknown path → 404 without a body', async () => {
    const response = await head('/no/such/route');
    expect(response.status).toBe(404);
    expect(response.text).toBe('');
  });
});

describe('DELETE /personal_access_tokens/self', () => {
  it('revokes the token used, of any scope; the same token then gets 401 revoked', async () => {
    const user = await createUser();
    const token = await newToken(user, ['read_user']);
    const revoked = await api('DELETE', '/personal_access_tokens/self', { token });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const after = await api('GET', '/user', { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid_token', error_description: REVOKED });
    // The user's other token is untouched.
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);
  });

  it('authorization: anonymous and unknown tokens 401, owners and admins revoke their own, sudo cannot revoke the admin’s', async () => {
    const anonymous = await api('DELETE', '/personal_access_tokens/self', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });

    const unknown = await api('DELETE', '/personal_access_tokens/self', { token: 'glpat-not-a-real-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: '401 Unauthorized' });

    const admin = await createUser({ admin: true, scopes: ['api', 'sudo'] });
    const user = await createUser();
    // Under sudo the impersonated user acts: the token is the admin's, so they may not revoke it.
    const underSudo = await api('DELETE', `/personal_access_tokens/self?sudo=${user.id}`, {
      token: admin.token,
    });
    expect(underSudo.status).toBe(400);
    expect(underSudo.body).toEqual({ message: '400 Bad request' });
    expect((await api('GET', '/user', { token: admin.token })).status).toBe(200);

    for (const who of [user, admin]) {
      const response = await api('DELETE', '/personal_access_tokens/self', { token: who.token });
      expect(response.status).toBe(204);
      const again = await api('DELETE', '/personal_access_tokens/self', { token: who.token });
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ error: 'invalid_token', error_description: REVOKED });
    }
  });
});
