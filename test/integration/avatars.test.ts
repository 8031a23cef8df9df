/**
 * Avatars of groups, projects and users over HTTP against s3rver: a multipart `avatar` on create
 * and update, `avatar_url` serving the same bytes with the type the bytes show, GitLab's refusals
 * (wrong type, too big, a string) storing nothing, removal with a blank `avatar`, and who may fetch
 * what.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, createUser, type TestUser, unique } from '../support/api.ts';

interface Entity {
  id: number;
  avatar_url: string | null;
  path_with_namespace?: string;
  full_path?: string;
}

const FORMAT_ERROR =
  'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp';
const SIZE_ERROR = 'is too big (should be at most 200 KiB)';

const png = (size = 64) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(size)]);
const jpeg = (size = 64) => Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), randomBytes(size)]);
const gif = () => Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]);

let s3: S3Client;
let bucket: string;
let owner: TestUser;
let outsider: TestUser;
let admin: TestUser;

beforeAll(async () => {
  bucket = inject('bucketName');
  s3 = new S3Client({
    endpoint: inject('s3Endpoint'),
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  [owner, outsider, admin] = await Promise.all([createUser(), createUser(), createUser({ admin: true })]);
});

async function storedKeys(prefix: string): Promise<string[]> {
  const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])).sort();
}

const groupPrefix = (id: number) => `avatars/group/${id}/`;
const projectPrefix = (id: number) => `uploads/${id}/-/avatar/`;
const userPrefix = (id: number) => `avatars/user/${id}/`;

function form(fields: Record<string, string>, avatar?: { name: string; content: Buffer; type?: string }) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (avatar) {
    body.append(
      'avatar',
      new Blob([new Uint8Array(avatar.content)], { type: avatar.type ?? 'application/octet-stream' }),
      avatar.name,
    );
  }
  return body;
}

/** GET a URL (absolute, or under the API) as raw bytes. */
async function fetchBytes(url: string, token: string | null) {
  const headers: Record<string, string> = token ? { 'PRIVATE-TOKEN': token } : {};
  const response = await fetch(url, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    bytes,
    json: () => JSON.parse(bytes.toString('utf8')) as unknown,
  };
}

const apiBase = () => inject('apiUrl');
const siteBase = () => apiBase().replace(/\/api\/v4$/, '');

describe('group avatars', () => {
  let group: Entity;
  const first = png();

  it('POST /groups with an avatar: avatar_url in GitLab’s shape, the same bytes back as image/png', async () => {
    const path = unique('avatar-group');
    const created = await api<Entity>('POST', '/groups', {
      token: owner.token,
      body: form(
        { name: path, path, visibility: 'public' },
        { name: 'dk.png', content: first, type: 'image/png' },
      ),
    });
    expect(created.status).toBe(201);
    group = created.body;
    expect(group.avatar_url).toBe(`${siteBase()}/uploads/-/system/group/avatar/${group.id}/dk.png`);
    const served = await fetchBytes(group.avatar_url as string, null);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('image/png');
    expect(served.bytes.equals(first)).toBe(true);
    const download = await fetchBytes(`${apiBase()}/groups/${group.id}/avatar`, null);
    expect(download.status).toBe(200);
    expect(download.contentType).toBe('image/png');
    expect(download.disposition).toBe(`attachment; filename="dk.png"; filename*=UTF-8''dk.png`);
    expect(download.bytes.equals(first)).toBe(true);
    expect(await storedKeys(groupPrefix(group.id))).toHaveLength(1);
    // The group read shows it too.
    const read = await api<Entity>('GET', `/groups/${group.id}`, { token: null });
    expect(read.body.avatar_url).toBe(group.avatar_url);
  });

  it('a text file named .png → 400 with GitLab’s message; the avatar and the bucket are unchanged', async () => {
    const before = await storedKeys(groupPrefix(group.id));
    const response = await api('PUT', `/groups/${group.id}`, {
      token: owner.token,
      body: form({ description: 'changed?' }, { name: 'evil.png', content: Buffer.from('<html>hi</html>') }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(await storedKeys(groupPrefix(group.id))).toEqual(before);
    const read = await api<Entity & { description: string }>('GET', `/groups/${group.id}`, {
      token: owner.token,
    });
    expect(read.body.avatar_url).toBe(group.avatar_url);
    expect(read.body.description).toBe('');
  });

  it('an image over 200 KiB → 400 "is too big"; nothing stored', async () => {
    const before = await storedKeys(groupPrefix(group.id));
    const response = await api('PUT', `/groups/${group.id}`, {
      token: owner.token,
      body: form({}, { name: 'big.png', content: png(200 * 1024) }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [SIZE_ERROR] } });
    expect(await storedKeys(groupPrefix(group.id))).toEqual(before);
  });

  it('a non-empty string as avatar → 400 "avatar is invalid"', async () => {
    const response = await api('PUT', `/groups/${group.id}`, {
      token: owner.token,
      form: { avatar: 'x.png' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'avatar is invalid' });
  });

  it('PUT with a new avatar replaces it: new bytes served, the old object removed', async () => {
    const next = gif();
    const response = await api<Entity>('PUT', `/groups/${group.id}`, {
      token: owner.token,
      body: form({}, { name: 'next.gif', content: next }),
    });
    expect(response.status).toBe(200);
    expect(response.body.avatar_url).toBe(`${siteBase()}/uploads/-/system/group/avatar/${group.id}/next.gif`);
    const served = await fetchBytes(response.body.avatar_url as string, null);
    expect(served.contentType).toBe('image/gif');
    expect(served.bytes.equals(next)).toBe(true);
    expect(await storedKeys(groupPrefix(group.id))).toHaveLength(1);
    // The old URL names nothing any more.
    expect((await fetchBytes(group.avatar_url as string, null)).status).toBe(404);
    group = response.body;
  });

  it('PUT avatar="" removes it: avatar_url null, the object gone, both reads 404', async () => {
    const response = await api<Entity>('PUT', `/groups/${group.id}`, {
      token: owner.token,
      form: { avatar: '' },
    });
    expect(response.status).toBe(200);
    expect(response.body.avatar_url).toBeNull();
    expect(await storedKeys(groupPrefix(group.id))).toEqual([]);
    const download = await fetchBytes(`${apiBase()}/groups/${group.id}/avatar`, null);
    expect(download.status).toBe(404);
    expect(download.json()).toEqual({ message: '404 Avatar Not Found' });
    const served = await fetchBytes(group.avatar_url as string, null);
    expect(served.status).toBe(404);
    expect(served.json()).toEqual({ message: '404 Not found' });
  });

  it('POST /groups with a bad avatar → 400 "Failed to save group", no group created', async () => {
    const path = unique('avatar-bad');
    const response = await api('POST', '/groups', {
      token: owner.token,
      body: form({ name: path, path }, { name: 'a.png', content: Buffer.from('not an image at all') }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: `Failed to save group {:avatar=>[${JSON.stringify(FORMAT_ERROR)}]}`,
    });
    const read = await api('GET', `/groups/${path}`, { token: owner.token });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('project avatars', () => {
  let project: Entity;

  it('POST /projects with JPEG bytes named avatar.png (as python-gitlab names it) → served as image/jpeg', async () => {
    const bytes = jpeg();
    const created = await api<Entity>('POST', '/projects', {
      token: owner.token,
      body: form(
        { name: unique('avatar-project') },
        { name: 'avatar.png', content: bytes, type: 'image/png' },
      ),
    });
    expect(created.status).toBe(201);
    project = created.body;
    expect(project.avatar_url).toBe(`${siteBase()}/uploads/-/system/project/avatar/${project.id}/avatar.png`);
    const served = await fetchBytes(project.avatar_url as string, owner.token);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('image/jpeg');
    expect(served.bytes.equals(bytes)).toBe(true);
    const download = await fetchBytes(`${apiBase()}/projects/${project.id}/avatar`, owner.token);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(bytes)).toBe(true);
    expect(await storedKeys(projectPrefix(project.id))).toHaveLength(1);
  });

  it('PUT /projects/:id with a too-big file and a wrong type: both errors, in GitLab’s order; nothing stored', async () => {
    const before = await storedKeys(projectPrefix(project.id));
    const response = await api('PUT', `/projects/${project.id}`, {
      token: owner.token,
      body: form({ description: 'no' }, { name: 'big.txt', content: png(200 * 1024) }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR, SIZE_ERROR] } });
    expect(await storedKeys(projectPrefix(project.id))).toEqual(before);
  });

  it('POST /projects with a bad avatar → 400, no project created', async () => {
    const name = unique('avatar-bad-project');
    const response = await api('POST', '/projects', {
      token: owner.token,
      body: form({ name }, { name: 'x.webp', content: Buffer.from('RIFF0000NOPE') }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    const read = await api('GET', `/projects/${encodeURIComponent(`${owner.username}/${name}`)}`, {
      token: owner.token,
    });
    expect(read.status).toBe(404);
  });

  it('POST /projects/user/:user_id (admin) with an avatar', async () => {
    const bytes = png();
    const created = await api<Entity>('POST', `/projects/user/${outsider.id}`, {
      token: admin.token,
      body: form({ name: unique('avatar-for-user') }, { name: 'p.png', content: bytes }),
    });
    expect(created.status).toBe(201);
    const served = await fetchBytes(created.body.avatar_url as string, outsider.token);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
  });

  it('PUT replaces, then avatar="" removes; the objects go with them', async () => {
    const next = png(100);
    const replaced = await api<Entity>('PUT', `/projects/${project.id}`, {
      token: owner.token,
      body: form({}, { name: 'second.png', content: next }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.avatar_url).toBe(
      `${siteBase()}/uploads/-/system/project/avatar/${project.id}/second.png`,
    );
    expect((await fetchBytes(replaced.body.avatar_url as string, owner.token)).bytes.equals(next)).toBe(true);
    expect(await storedKeys(projectPrefix(project.id))).toHaveLength(1);

    const removed = await api<Entity>('PUT', `/projects/${project.id}`, {
      token: owner.token,
      form: { avatar: '' },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.avatar_url).toBeNull();
    expect(await storedKeys(projectPrefix(project.id))).toEqual([]);
    const download = await fetchBytes(`${apiBase()}/projects/${project.id}/avatar`, owner.token);
    expect(download.status).toBe(404);
    expect(download.json()).toEqual({ message: '404 Avatar Not Found' });
  });
});

describe('user avatars', () => {
  it('PUT /users/:id (admin) with an avatar: served to anyone; avatar="" removes it', async () => {
    const user = await createUser();
    const bytes = png();
    const updated = await api<Entity>('PUT', `/users/${user.id}`, {
      token: admin.token,
      body: form({}, { name: 'me.png', content: bytes }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.avatar_url).toBe(`${siteBase()}/uploads/-/system/user/avatar/${user.id}/me.png`);
    const served = await fetchBytes(updated.body.avatar_url as string, null);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('image/png');
    expect(served.bytes.equals(bytes)).toBe(true);

    const refused = await api('PUT', `/users/${user.id}`, {
      token: admin.token,
      body: form({}, { name: 'me.png', content: Buffer.from('plain text') }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(await storedKeys(userPrefix(user.id))).toHaveLength(1);

    const removed = await api<Entity>('PUT', `/users/${user.id}`, {
      token: admin.token,
      form: { avatar: '' },
    });
    expect(removed.status).toBe(200);
    // A user without an upload shows the default avatar (no Gravatar is configured here).
    expect(removed.body.avatar_url).toBe(`${baseUrl()}/assets/no_avatar.png`);
    expect(await storedKeys(userPrefix(user.id))).toEqual([]);
    expect((await fetchBytes(updated.body.avatar_url as string, null)).status).toBe(404);
  });
});

describe('who may fetch and change avatars', () => {
  let privateProject: Entity;
  let privateGroup: Entity;
  let publicProject: Entity;
  let guest: TestUser;
  let developer: TestUser;
  const bytes = png();

  beforeAll(async () => {
    [guest, developer] = await Promise.all([createUser(), createUser()]);
    const path = unique('avatar-private');
    const groupCreated = await api<Entity>('POST', '/groups', {
      token: owner.token,
      body: form({ name: path, path, visibility: 'private' }, { name: 'g.png', content: bytes }),
    });
    privateGroup = groupCreated.body;
    const projectCreated = await api<Entity>('POST', '/projects', {
      token: owner.token,
      body: form(
        { name: unique('private'), visibility: 'private', namespace_id: String(privateGroup.id) },
        { name: 'p.png', content: bytes },
      ),
    });
    privateProject = projectCreated.body;
    const publicCreated = await api<Entity>('POST', '/projects', {
      token: owner.token,
      body: form({ name: unique('public'), visibility: 'public' }, { name: 'q.png', content: bytes }),
    });
    publicProject = publicCreated.body;
    for (const [user, level] of [
      [guest, 10],
      [developer, 30],
    ] as const) {
      const added = await api('POST', `/groups/${privateGroup.id}/members`, {
        token: owner.token,
        json: { user_id: user.id, access_level: level },
      });
      if (added.status !== 201) throw new Error(`member add failed: ${added.status} ${added.text}`);
    }
  });

  const callers = () =>
    [
      ['anonymous', null],
      ['non-member', outsider.token],
      ['guest', guest.token],
      ['owner', owner.token],
      ['admin', admin.token],
    ] as const;

  it('a private project’s and group’s avatar: 404 to anonymous and non-members, the bytes to members and admins', async () => {
    const seen: Record<string, number[]> = {};
    for (const [who, token] of callers()) {
      const answers = await Promise.all([
        fetchBytes(privateProject.avatar_url as string, token),
        fetchBytes(`${apiBase()}/projects/${privateProject.id}/avatar`, token),
        fetchBytes(privateGroup.avatar_url as string, token),
        fetchBytes(`${apiBase()}/groups/${privateGroup.id}/avatar`, token),
      ]);
      seen[who] = answers.map((answer) => answer.status);
      for (const answer of answers) if (answer.status === 200) expect(answer.bytes.equals(bytes)).toBe(true);
      if (who === 'anonymous' || who === 'non-member') {
        expect(answers.map((answer) => answer.json())).toEqual([
          { message: '404 Not found' },
          { message: '404 Project Not Found' },
          { message: '404 Not found' },
          { message: '404 Group Not Found' },
        ]);
      }
    }
    expect(seen).toEqual({
      anonymous: [404, 404, 404, 404],
      'non-member': [404, 404, 404, 404],
      guest: [200, 200, 200, 200],
      owner: [200, 200, 200, 200],
      admin: [200, 200, 200, 200],
    });
  });

  it('a public project’s avatar: everyone', async () => {
    for (const [, token] of callers()) {
      const answers = await Promise.all([
        fetchBytes(publicProject.avatar_url as string, token),
        fetchBytes(`${apiBase()}/projects/${publicProject.id}/avatar`, token),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    }
  });

  it('changing one follows the update rule: developer 403, non-member 404, anonymous 401; nothing stored', async () => {
    const before = await storedKeys(projectPrefix(privateProject.id));
    const attempt = (token: string | null) =>
      api('PUT', `/projects/${privateProject.id}`, {
        token,
        body: form({}, { name: 'x.png', content: png() }),
      });
    const [asDeveloper, asOutsider, asAnonymous] = await Promise.all([
      attempt(developer.token),
      attempt(outsider.token),
      attempt(null),
    ]);
    expect([asDeveloper.status, asDeveloper.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect([asOutsider.status, asOutsider.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect([asAnonymous.status, asAnonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const groupAttempt = await api('PUT', `/groups/${privateGroup.id}`, {
      token: developer.token,
      body: form({}, { name: 'x.png', content: png() }),
    });
    expect([groupAttempt.status, groupAttempt.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(await storedKeys(projectPrefix(privateProject.id))).toEqual(before);
  });

  it('names that are no stored avatar: 404', async () => {
    const base = `${siteBase()}/uploads/-/system`;
    for (const url of [
      `${base}/project/avatar/${publicProject.id}/other.png`,
      `${base}/note/avatar/${publicProject.id}/q.png`,
      `${base}/project/avatar/abc/q.png`,
      `${base}/project/avatar/999999999/q.png`,
    ]) {
      const answer = await fetchBytes(url, admin.token);
      expect([url, answer.status, answer.json()]).toEqual([url, 404, { message: '404 Not found' }]);
    }
  });
});
