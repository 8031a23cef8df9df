/**
 * Project uploads: multipart `file` → 201 {alt,url,markdown,full_path}; the bytes come back exactly
 * (binary-safe) to whoever can read the project; GitLab's errors; a too-large upload is refused and
 * stores nothing, checked by key in the runtime's s3rver.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, apiUrl, createUser, type TestUser, unique } from '../support/api.ts';

interface ProjectBody {
  id: number;
  path_with_namespace: string;
}

interface UploadBody {
  alt: string;
  url: string;
  markdown: string;
  full_path: string;
}

let s3: S3Client;
let bucket: string;
let owner: TestUser;
let project: ProjectBody;

beforeAll(async () => {
  bucket = inject('bucketName');
  s3 = new S3Client({
    endpoint: inject('s3Endpoint'),
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  owner = await createUser();
  project = await createProject(owner, 'private');
});

async function createProject(user: TestUser, visibility: string): Promise<ProjectBody> {
  const response = await api<ProjectBody>('POST', '/projects', {
    token: user.token,
    json: { name: unique('Uploads'), visibility },
  });
  if (response.status !== 201) throw new Error(`project create failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Every key stored under the project's upload prefix. */
async function storedKeys(projectId: number): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: `uploads/${projectId}/`, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.NextContinuationToken;
  } while (token);
  return keys.sort();
}

function upload(
  projectRef: string | number,
  file: { name: string; content: Uint8Array | string; type?: string } | undefined,
  token: string | null,
  extra: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  if (file) {
    const bytes = typeof file.content === 'string' ? file.content : new Uint8Array(file.content);
    form.append('file', new Blob([bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  return api<UploadBody>('POST', `/projects/${projectRef}/uploads`, { token, body: form });
}

/** GET an upload as raw bytes (the JSON helper would decode them as text). */
async function download(projectId: number, url: string, token: string | null) {
  const headers: Record<string, string> = token ? { 'PRIVATE-TOKEN': token } : {};
  const response = await fetch(`${apiUrl()}/projects/${projectId}${url}`, { headers });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const secretUrl = (filename: string) =>
  new RegExp(`^/uploads/[0-9a-f]{32}/${filename.replace(/\./g, '\\.')}$`);

describe('POST /projects/:id/uploads', () => {
  it('an image: alt without extension, ![alt](url) markdown, full_path; stored under its key', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);
    const before = await storedKeys(project.id);
    const response = await upload(
      project.id,
      { name: 'dk.png', content: png, type: 'image/png' },
      owner.token,
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      alt: 'dk',
      url: expect.stringMatching(secretUrl('dk.png')),
      markdown: `![dk](${response.body.url})`,
      full_path: `/${project.path_with_namespace}${response.body.url}`,
    });
    const secret = response.body.url.split('/')[2];
    expect(await storedKeys(project.id)).toEqual(
      [...before, `uploads/${project.id}/${secret}/dk.png`].sort(),
    );

    const fetched = await download(project.id, response.body.url, owner.token);
    expect(fetched.status).toBe(200);
    expect(fetched.contentType).toBe('image/png');
    expect(fetched.bytes.equals(png)).toBe(true);
  });

  it('a text file: [name.txt](url) and alt with the extension', async () => {
    const response = await upload(
      project.id,
      { name: 'name.txt', content: 'hello\n', type: 'text/plain' },
      owner.token,
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      alt: 'name.txt',
      url: expect.stringMatching(secretUrl('name.txt')),
      markdown: `[name.txt](${response.body.url})`,
      full_path: `/${project.path_with_namespace}${response.body.url}`,
    });
    const fetched = await download(project.id, response.body.url, owner.token);
    expect(fetched.status).toBe(200);
    // Text is no image, audio or video: served as opaque bytes, whatever type was declared.
    expect(fetched.contentType).toBe('application/octet-stream');
    expect(fetched.bytes.toString('utf8')).toBe('hello\n');
  });

  it('300 KB of random bytes come back exactly', async () => {
    const bytes = randomBytes(300 * 1024);
    const response = await upload(project.id, { name: 'blob.bin', content: bytes }, owner.token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ alt: 'blob.bin', markdown: `[blob.bin](${response.body.url})` });
    const fetched = await download(project.id, response.body.url, owner.token);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.length).toBe(bytes.length);
    expect(fetched.bytes.equals(bytes)).toBe(true);
  });

  it('the same file twice gets two secrets; file names are sanitized; the project may be named by path', async () => {
    const first = await upload(project.id, { name: 'same.txt', content: 'a' }, owner.token);
    const second = await upload(
      encodeURIComponent(project.path_with_namespace),
      { name: 'same.txt', content: 'b' },
      owner.token,
    );
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.url).not.toBe(second.body.url);
    expect((await download(project.id, first.body.url, owner.token)).bytes.toString()).toBe('a');
    expect((await download(project.id, second.body.url, owner.token)).bytes.toString()).toBe('b');

    const odd = await upload(project.id, { name: 'my file (1).txt', content: 'x' }, owner.token);
    expect(odd.status).toBe(201);
    expect(odd.body).toMatchObject({
      alt: 'my_file__1_.txt',
      url: expect.stringMatching(secretUrl('my_file__1_.txt')),
    });
  });

  it('no file → 400 file is missing (other fields only, or no body at all)', async () => {
    const before = await storedKeys(project.id);
    const fieldsOnly = await upload(project.id, undefined, owner.token, { other: 'x' });
    expect(fieldsOnly.status).toBe(400);
    expect(fieldsOnly.body).toEqual({ error: 'file is missing' });
    const empty = await api('POST', `/projects/${project.id}/uploads`, { token: owner.token });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'file is missing' });
    const wrongField = await api('POST', `/projects/${project.id}/uploads`, {
      token: owner.token,
      body: (() => {
        const form = new FormData();
        form.append('attachment', new Blob(['x']), 'x.txt');
        return form;
      })(),
    });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body).toEqual({ error: 'file is missing' });
    expect(await storedKeys(project.id)).toEqual(before);
  });

  it('a 10 MB file → 413 and nothing new is stored', async () => {
    const own = await createProject(owner, 'private');
    const before = await storedKeys(own.id);
    expect(before).toEqual([]);
    const response = await upload(
      own.id,
      { name: 'huge.bin', content: randomBytes(10 * 1024 * 1024) },
      owner.token,
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: '413 Request Entity Too Large' });
    expect(await storedKeys(own.id)).toEqual([]);

    const small = await upload(own.id, { name: 'ok.txt', content: 'ok' }, owner.token);
    expect(small.status).toBe(201);
    expect(await storedKeys(own.id)).toEqual([`uploads/${own.id}/${small.body.url.split('/')[2]}/ok.txt`]);
  });

  it('anonymous → 401; a stranger on a private project → 404; a stranger on a public one may upload', async () => {
    const before = await storedKeys(project.id);
    const anonymous = await upload(project.id, { name: 'a.txt', content: 'a' }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });

    const stranger = await createUser();
    const hidden = await upload(project.id, { name: 'a.txt', content: 'a' }, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect(await storedKeys(project.id)).toEqual(before);

    const open = await createProject(owner, 'public');
    const allowed = await upload(open.id, { name: 'from-stranger.txt', content: 'hi' }, stranger.token);
    expect(allowed.status).toBe(201);
    expect(allowed.body.alt).toBe('from-stranger.txt');

    const missing = await upload(987654321, { name: 'a.txt', content: 'a' }, owner.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /projects/:id/uploads/:secret/:filename', () => {
  it('members and admins read a private project’s upload; strangers and anonymous get 404', async () => {
    const response = await upload(project.id, { name: 'secret.txt', content: 'classified' }, owner.token);
    expect(response.status).toBe(201);
    const member = await createUser();
    const added = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: member.id, access_level: 10 },
    });
    expect(added.status).toBe(201);

    for (const token of [member.token, inject('rootToken')]) {
      const fetched = await download(project.id, response.body.url, token);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.toString()).toBe('classified');
    }
    const stranger = await createUser();
    for (const token of [stranger.token, null]) {
      const hidden = await api('GET', `/projects/${project.id}${response.body.url}`, { token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    }
  });

  it('anonymous reads a public project’s upload', async () => {
    const open = await createProject(owner, 'public');
    const response = await upload(open.id, { name: 'open.txt', content: 'for all' }, owner.token);
    expect(response.status).toBe(201);
    const fetched = await download(open.id, response.body.url, null);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.toString()).toBe('for all');
  });

  it('unknown secret, bad secret, wrong filename or another project → 404 Not found', async () => {
    const response = await upload(project.id, { name: 'real.txt', content: 'real' }, owner.token);
    expect(response.status).toBe(201);
    const secret = response.body.url.split('/')[2];
    const other = await createProject(owner, 'private');
    const misses = [
      `/projects/${project.id}/uploads/${'0'.repeat(32)}/real.txt`,
      `/projects/${project.id}/uploads/not-a-secret/real.txt`,
      `/projects/${project.id}/uploads/${secret}/other.txt`,
      `/projects/${other.id}/uploads/${secret}/real.txt`,
    ];
    for (const path of misses) {
      const miss = await api('GET', path, { token: owner.token });
      expect(miss.status, path).toBe(404);
      expect(miss.body, path).toEqual({ message: '404 Not found' });
    }
  });
});
