/** User avatars over HTTP: multipart `avatar` on POST and PUT /users, served back from avatar_url; nothing stored on refusal. */
import { describe, expect, it } from 'vitest';
import { api, baseUrl, createUser, unique } from '../support/api.ts';

interface UserBody {
  id: number;
  username: string;
  avatar_url: string | null;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const OTHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function userForm(fields: Record<string, string>, avatar?: { content: Buffer; filename: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (avatar) form.append('avatar', new Blob([avatar.content]), avatar.filename);
  return form;
}

const newUser = () => {
  const username = unique('av');
  return { username, email: `${username}@example.com`, name: username, password: 'password123' };
};

async function served(url: string | null) {
  expect(url).not.toBeNull();
  const response = await fetch(url as string);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('user avatars', () => {
  it('set on create and replaced on update: avatar_url serves the bytes sent; a blank avatar removes it', async () => {
    const fields = newUser();
    const created = await api<UserBody>('POST', '/users', {
      body: userForm(fields, { content: PNG, filename: 'me.png' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.avatar_url).toMatch(
      new RegExp(`/uploads/-/system/user/avatar/${created.body.id}/me\\.png$`),
    );
    expect(await served(created.body.avatar_url)).toEqual({ status: 200, type: 'image/png', bytes: PNG });

    const updated = await api<UserBody>('PUT', `/users/${created.body.id}`, {
      body: userForm({ bio: 'new picture' }, { content: OTHER_PNG, filename: 'new.png' }),
    });
    expect(updated.status).toBe(200);
    expect(await served(updated.body.avatar_url)).toEqual({
      status: 200,
      type: 'image/png',
      bytes: OTHER_PNG,
    });
    expect((await api<UserBody>('GET', `/users/${created.body.id}`)).body.avatar_url).toBe(
      updated.body.avatar_url,
    );

    const removed = await api<UserBody>('PUT', `/users/${created.body.id}`, { json: { avatar: '' } });
    // Without an upload (and no Gravatar configured): the service's default avatar, a PNG it serves.
    expect([removed.status, removed.body.avatar_url]).toEqual([200, `${baseUrl()}/assets/no_avatar.png`]);
    const fallback = await fetch(removed.body.avatar_url as string);
    const fallbackBytes = Buffer.from(await fallback.arrayBuffer());
    expect([fallback.status, fallback.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(fallback.headers.get('x-content-type-options')).toBe('nosniff');
    expect(fallbackBytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('a file that is no image → 400 and no user is created', async () => {
    const fields = newUser();
    const refused = await api('POST', '/users', {
      body: userForm(fields, { content: Buffer.from('plain text'), filename: 'notes.txt' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      message: {
        avatar: [
          'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp',
        ],
      },
    });
    const lookup = await api<UserBody[]>('GET', `/users?username=${fields.username}`);
    expect(lookup.body).toEqual([]);
  });

  it("a non-admin cannot set anyone's avatar through PUT /users/:id → 403", async () => {
    const user = await createUser();
    const refused = await api('PUT', `/users/${user.id}`, {
      token: user.token,
      body: userForm({}, { content: PNG, filename: 'me.png' }),
    });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api<UserBody>('GET', `/users/${user.id}`)).body.avatar_url).toBe(
      `${baseUrl()}/assets/no_avatar.png`,
    );
  });
});
