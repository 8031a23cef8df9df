/**
 * Downloads too large for a Lambda response: a 302 to a presigned GET of the object, signed for five
 * minutes and carrying the type and disposition a direct answer has, both decided by the object's
 * leading bytes, of which no more is read. Files up to the threshold are still answered with their
 * bytes, within Lambda's 6 MiB.
 */
import { Readable } from 'node:stream';
import { GetObjectCommand, type GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as getProjectAvatar } from '../../functions/avatars/project.ts';
import { handler as getUpload } from '../../functions/projects/get-upload.ts';
import { DIRECT_DOWNLOAD_MAX_BYTES } from '../../shared/blob/downloads.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
import { BUCKET, emptyHeaders, resetMocks, sentCommands } from './fixtures.ts';
import {
  dotfiles,
  givenWorld,
  PROJECT_NOT_FOUND,
  projectItem,
  projectRead,
  store,
} from './resource-fixtures.ts';

// The presigner signs with the function's credentials; in a function they come from its role.
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';

const s3 = mockClient(S3Client);
const SECRET = '0123456789abcdef0123456789abcdef';
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/** The leading bytes of an MP4 (an `ftyp` box, brand isom) and of a PNG. */
const MP4 = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom'), Buffer.alloc(12)]);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const CHUNK = 64 * 1024;

/**
 * An object of `size` bytes (opening with `leading`) as GetObject hands it over, a stream of 64 KiB
 * chunks; `read` (the whole body), `destroy` and `pulled` (chunks produced) record what was done.
 */
function givenObject(
  size: number,
  contentType: string,
  options: { lengthKnown?: boolean; leading?: Buffer } = {},
) {
  const bytes = Buffer.alloc(size, 0x61);
  options.leading?.copy(bytes);
  let pulled = 0;
  const stream = Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += CHUNK) {
        pulled += 1;
        yield bytes.subarray(at, at + CHUNK);
      }
    })(),
  );
  const read = vi.fn(async () => new Uint8Array(bytes));
  const destroy = vi.spyOn(stream, 'destroy');
  s3.on(GetObjectCommand).resolves({
    Body: Object.assign(stream, { transformToByteArray: read }) as unknown as GetObjectCommandOutput['Body'],
    ContentType: contentType,
    ...(options.lengthKnown === false ? {} : { ContentLength: size }),
  });
  return { bytes, read, destroy, pulled: () => pulled, chunks: Math.ceil(size / CHUNK) };
}

const CSP = { 'Content-Security-Policy': "sandbox; default-src 'none'" };

const fetchUpload = (filename: string) =>
  getUpload(apiEvent('GET', `/api/v4/projects/43/uploads/${SECRET}/${filename}`), lambdaContext());

/** The redirect's URL, checked to be a five-minute presigned GET of `key` in the bucket. */
function presignedUrl(location: string | undefined, key: string): URLSearchParams {
  const url = new URL(String(location));
  expect(url.origin).toBe(`https://${BUCKET}.s3.us-east-1.amazonaws.com`);
  expect(url.pathname).toBe(`/${key}`);
  expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
  expect(url.searchParams.get('X-Amz-Credential')).toMatch(
    /^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/,
  );
  expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
  expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  return url.searchParams;
}

function redirectResponse(location: string) {
  return {
    statusCode: 302,
    headers: {
      ...emptyHeaders(),
      'Content-Type': 'text/plain',
      Location: location,
      'Cache-Control': 'no-store',
    },
    body: Buffer.from(`This resource has been moved temporarily to ${location}.`).toString('base64'),
    isBase64Encoded: true,
  };
}

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
});

describe('GET /projects/:id/uploads/:secret/:filename, large files', () => {
  it('one byte over the threshold → 302 to a presigned URL with the type and disposition of a direct answer, only the leading bytes read', async () => {
    const object = givenObject(DIRECT_DOWNLOAD_MAX_BYTES + 1, 'application/pdf', {
      leading: Buffer.from('%PDF-1.7\n'),
    });
    const response = await fetchUpload('report.pdf');
    const location = String(response.headers?.Location);
    expect(response).toEqual(redirectResponse(location));
    const query = presignedUrl(location, `uploads/43/${SECRET}/report.pdf`);
    // Not an image, audio or video: opaque bytes, downloaded, whatever the object was stored as.
    expect(query.get('response-content-type')).toBe('application/octet-stream');
    expect(query.get('response-content-disposition')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(object.read).not.toHaveBeenCalled();
    expect(object.destroy).toHaveBeenCalled();
    expect(object.pulled()).toBeLessThan(object.chunks / 2);
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, Key: `uploads/43/${SECRET}/report.pdf` },
    ]);
    expect(sentCommands()).toEqual([...projectRead(43)]);
  });

  it('a video over the threshold → 302 to a URL serving it in place as the video its bytes show', async () => {
    const object = givenObject(DIRECT_DOWNLOAD_MAX_BYTES + 1, 'text/html', { leading: MP4 });
    const response = await fetchUpload('clip.mp4');
    const location = String(response.headers?.Location);
    expect(response).toEqual(redirectResponse(location));
    const query = presignedUrl(location, `uploads/43/${SECRET}/clip.mp4`);
    expect(query.get('response-content-type')).toBe('video/mp4');
    expect(query.get('response-content-disposition')).toBe(
      `inline; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
    );
    expect(object.read).not.toHaveBeenCalled();
  });

  it('exactly the threshold → 200 with the bytes, and the whole response fits Lambda’s 6 MiB', async () => {
    const object = givenObject(DIRECT_DOWNLOAD_MAX_BYTES, 'video/mp4', { leading: MP4 });
    const response = await fetchUpload('clip.mp4');
    expect(response).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        ...CSP,
        'Content-Type': 'video/mp4',
        'Content-Disposition': `inline; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
      },
      body: object.bytes.toString('base64'),
      isBase64Encoded: true,
    });
    // What Lambda measures is the serialized response; API Gateway then decodes the body.
    expect(Buffer.byteLength(JSON.stringify(response))).toBeLessThan(LAMBDA_RESPONSE_LIMIT - 512 * 1024);
    expect(object.destroy).not.toHaveBeenCalled();
  });

  it('an object whose length the bucket does not state is measured once read → 302 when too large', async () => {
    givenObject(DIRECT_DOWNLOAD_MAX_BYTES + 1, 'application/zip', { lengthKnown: false });
    const response = await fetchUpload('dump.zip');
    const location = String(response.headers?.Location);
    expect(response).toEqual(redirectResponse(location));
    expect(presignedUrl(location, `uploads/43/${SECRET}/dump.zip`).get('response-content-type')).toBe(
      'application/octet-stream',
    );
  });

  it('a private project to anonymous callers → 404 Project Not Found, no URL and no read of the bucket', async () => {
    givenObject(DIRECT_DOWNLOAD_MAX_BYTES + 1, 'application/pdf');
    expect(await invoke(getUpload, 'GET', `/api/v4/projects/42/uploads/${SECRET}/report.pdf`)).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('GET /projects/:id/avatar, an object over the threshold', () => {
  it('→ 302 to a presigned URL answering with the type its bytes show, as an attachment', async () => {
    const key = 'uploads/43/-/avatar/0123456789abcdef0123456789abcdef/dk.png';
    store({
      ...projectItem(dotfiles),
      avatar: { key, filename: 'dk.png', content_type: 'image/png', size: 1 },
    });
    // The object says otherwise; its leading bytes are what a direct answer would go by too.
    givenObject(DIRECT_DOWNLOAD_MAX_BYTES + 1, 'application/octet-stream', { leading: PNG });
    const response = await getProjectAvatar(apiEvent('GET', '/api/v4/projects/43/avatar'), lambdaContext());
    const location = String(response.headers?.Location);
    expect(response).toEqual(redirectResponse(location));
    const query = presignedUrl(location, key);
    expect(query.get('response-content-type')).toBe('image/png');
    expect(query.get('response-content-disposition')).toBe(
      `attachment; filename="dk.png"; filename*=UTF-8''dk.png`,
    );
  });
});
