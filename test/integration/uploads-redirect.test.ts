/**
 * Uploads too large for a Lambda response, through the local runtime and its s3rver: the download
 * is a 302 to a presigned URL of the bucket's, which answers with the same bytes, type and
 * disposition a direct answer has (both decided by the leading bytes, never the declared type); a client that follows redirects (fetch, as @gitbeaker does) gets
 * the file in one call. Small uploads are still answered directly, and a caller who may not see
 * the project gets 404, never a URL.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DIRECT_DOWNLOAD_MAX_BYTES } from '../../shared/blob/downloads.ts';
import { api, apiUrl, createUser, type TestUser, unique } from '../support/api.ts';

interface UploadBody {
  url: string;
}

let owner: TestUser;
let stranger: TestUser;
let projectId: number;
/** Over the threshold, yet within what API Gateway and Lambda take as a request once base64-encoded. */
const large = randomBytes(DIRECT_DOWNLOAD_MAX_BYTES + 256 * 1024);
let largeUrl: string;

async function upload(name: string, content: Buffer, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), name);
  const response = await api<UploadBody>('POST', `/projects/${projectId}/uploads`, {
    token: owner.token,
    body: form,
  });
  expect(response.status).toBe(201);
  return response.body.url;
}

/** Where s3rver serves an upload (`url` is `/uploads/<secret>/<file>`; the key adds the project). */
const objectPath = (url: string) =>
  `/${inject('bucketName')}/uploads/${projectId}/${url.replace(/^\/uploads\//, '')}`;

/** The upload's API address (`url` is relative to the project). */
const downloadUrl = (url: string) => `${apiUrl()}/projects/${projectId}${url}`;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createUser(), createUser()]);
  const project = await api<{ id: number }>('POST', '/projects', {
    token: owner.token,
    json: { name: unique('Large uploads'), visibility: 'private' },
  });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  largeUrl = await upload('big-report.pdf', large, 'application/pdf');
});

describe('GET /projects/:id/uploads/:secret/:filename over the direct-download threshold', () => {
  it('→ 302 to a five-minute presigned URL of s3rver, which serves the same bytes, type and disposition', async () => {
    const response = await fetch(downloadUrl(largeUrl), {
      headers: { 'PRIVATE-TOKEN': owner.token },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const location = String(response.headers.get('location'));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe(`This resource has been moved temporarily to ${location}.`);

    const url = new URL(location);
    expect(url.origin).toBe(inject('s3Endpoint'));
    expect(url.pathname).toBe(objectPath(largeUrl));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');

    // The URL alone is the credential: no token travels to the bucket.
    const object = await fetch(location);
    expect(object.status).toBe(200);
    // Random bytes declared application/pdf: no image, audio or video, so opaque and downloaded.
    expect(object.headers.get('content-type')).toBe('application/octet-stream');
    expect(object.headers.get('content-disposition')).toBe(
      `attachment; filename="big-report.pdf"; filename*=UTF-8''big-report.pdf`,
    );
    expect(Buffer.from(await object.arrayBuffer()).equals(large)).toBe(true);
  });

  it('a large video (declared text/html) → a URL serving it in place as the video its bytes show', async () => {
    const ftyp = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.alloc(12)]);
    const video = Buffer.concat([ftyp, randomBytes(DIRECT_DOWNLOAD_MAX_BYTES)]);
    const url = await upload('clip.mp4', video, 'text/html');
    const response = await fetch(downloadUrl(url), {
      headers: { 'PRIVATE-TOKEN': owner.token },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const object = await fetch(String(response.headers.get('location')));
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('video/mp4');
    expect(object.headers.get('content-disposition')).toBe(
      `inline; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
    );
    expect(Buffer.from(await object.arrayBuffer()).equals(video)).toBe(true);
  });

  it('a client that follows redirects, token header and all, receives the file in one call', async () => {
    const response = await fetch(downloadUrl(largeUrl), { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(response.status).toBe(200);
    expect(response.redirected).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(large)).toBe(true);
  });

  it('HEAD → the same 302 and Location, without a body', async () => {
    const response = await fetch(downloadUrl(largeUrl), {
      method: 'HEAD',
      headers: { 'PRIVATE-TOKEN': owner.token },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(new URL(String(response.headers.get('location'))).pathname).toBe(objectPath(largeUrl));
    expect(await response.text()).toBe('');
  });

  it('a caller who cannot see the project → 404 Project Not Found, no URL', async () => {
    for (const token of [stranger.token, null]) {
      const response = await api('GET', `/projects/${projectId}${largeUrl}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Not Found' });
      expect(response.headers.get('location')).toBeNull();
    }
  });
});

describe('GET /projects/:id/uploads/:secret/:filename at or under the threshold', () => {
  it('a small image → 200 with its bytes, inline, no redirect', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(1024)]);
    const url = await upload('chart.png', png, 'image/png');
    const response = await fetch(downloadUrl(url), {
      headers: { 'PRIVATE-TOKEN': owner.token },
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="chart.png"; filename*=UTF-8''chart.png`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it('exactly the threshold → 200 with its bytes, no redirect', async () => {
    const bytes = randomBytes(DIRECT_DOWNLOAD_MAX_BYTES);
    const url = await upload('limit.bin', bytes, 'application/octet-stream');
    const response = await fetch(downloadUrl(url), {
      headers: { 'PRIVATE-TOKEN': owner.token },
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="limit.bin"; filename*=UTF-8''limit.bin`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
