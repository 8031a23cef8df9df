/**
 * GitLab's input rules at the edge: every string has a length limit (400 in the model's shape), an
 * over-long id or path is 404, a repeated scalar parameter takes its last value, and upload file
 * names are bounded so that what is stored can be read back.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, unique } from '../support/api.ts';

describe('length limits', () => {
  it('a 1 MB description, bio, token name or custom attribute value is 400, never 500', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const user = await createUser();
    const project = await api<{ id: number }>('POST', '/projects', {
      token: user.token,
      json: { name: unique('p') },
    });
    expect(project.status).toBe(201);

    const description = await api('PUT', `/projects/${project.body.id}`, { json: { description: huge } });
    expect(description.status).toBe(400);
    expect(description.body).toEqual({
      message: { description: ['is too long (maximum is 2000 characters)'] },
    });

    const bio = await api('PUT', `/users/${user.id}`, { json: { bio: huge } });
    expect(bio.status).toBe(400);
    expect(bio.body).toEqual({ message: { bio: ['is too long (maximum is 255 characters)'] } });

    const token = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      json: { name: huge, scopes: ['api'] },
    });
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });

    const attribute = await api('PUT', `/projects/${project.body.id}/custom_attributes/color`, {
      json: { value: huge },
    });
    expect(attribute.status).toBe(400);
    expect(attribute.body).toEqual({ message: { value: ['is too long (maximum is 255 characters)'] } });

    const group = await api('POST', '/groups', {
      json: { name: unique('g'), path: unique('g'), description: 'y'.repeat(256) },
    });
    expect(group.status).toBe(400);
    expect(group.body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
  });

  it('a description at the limit is stored whole', async () => {
    const created = await api<{ id: number; description: string }>('POST', '/projects', {
      json: { name: unique('p'), description: 'd'.repeat(2000) },
    });
    expect(created.status).toBe(201);
    expect(created.body.description).toHaveLength(2000);
  });

  it('an id or path of 2,100 characters is 404, also anonymously', async () => {
    const long = encodeURIComponent(`${'a'.repeat(1050)}/${'b'.repeat(1049)}`);
    for (const token of [undefined, null]) {
      const project = await api('GET', `/projects/${long}`, { token });
      expect(project.status).toBe(404);
      expect(project.body).toEqual({ message: '404 Project Not Found' });
      const group = await api('GET', `/groups/${long}`, { token });
      expect(group.status).toBe(404);
      expect(group.body).toEqual({ message: '404 Group Not Found' });
    }
    const userProjects = await api('GET', `/users/${'u'.repeat(2100)}/projects`);
    expect(userProjects.status).toBe(404);
    expect(userProjects.body).toEqual({ message: '404 User Not Found' });
  });

  it('a username filter of 3,000 characters is refused in GitLab shape', async () => {
    const response = await api('GET', `/users?username=${'u'.repeat(3000)}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { username: ['is too long (maximum is 255 characters)'] } });
  });
});

describe('repeated parameters', () => {
  it('per_page=5&per_page=10 takes the last value', async () => {
    const response = await api<unknown[]>('GET', '/users?per_page=5&per_page=10');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-per-page')).toBe('10');
  });

  it('array parameters still take every value', async () => {
    const user = await createUser();
    const token = await api<{ scopes: string[] }>('POST', `/users/${user.id}/personal_access_tokens`, {
      body: 'name=t&scopes[]=api&scopes[]=read_user',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(201);
    expect(token.body.scopes).toEqual(['api', 'read_user']);
  });
});

describe('upload file names', () => {
  const upload = (projectId: number, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob(['hello']), filename);
    return api<{ url: string; alt: string }>('POST', `/projects/${projectId}/uploads`, { body: form });
  };

  it('a 241-character name is stored (cut to 200, extension kept) and read back; the service stays up', async () => {
    const project = await api<{ id: number }>('POST', '/projects', { json: { name: unique('p') } });
    const name = `${'n'.repeat(237)}.txt`;
    const stored = await upload(project.body.id, name);
    expect(stored.status).toBe(201);
    const storedName = stored.body.url.split('/').pop() as string;
    expect(storedName).toBe(`${'n'.repeat(196)}.txt`);
    const back = await api('GET', `/projects/${project.body.id}${stored.body.url}`);
    expect(back.status).toBe(200);
    expect(back.text).toBe('hello');
    expect((await api('GET', '/version')).status).toBe(404);
    expect((await api('GET', '/user')).status).toBe(200);
  });

  it('a null byte or an over-long name on GET is 404', async () => {
    const project = await api<{ id: number }>('POST', '/projects', { json: { name: unique('p') } });
    const secret = '0123456789abcdef0123456789abcdef';
    for (const filename of ['a%00b.png', 'x'.repeat(300), 'a%2Fb', '.hidden', 'a b.png']) {
      const response = await api('GET', `/projects/${project.body.id}/uploads/${secret}/${filename}`);
      expect(response.status, filename).toBe(404);
      expect(response.body, filename).toEqual({ message: '404 Not found' });
    }
  });
});
