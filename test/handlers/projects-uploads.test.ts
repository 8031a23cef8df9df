/** Uploads: storing a multipart file under a random secret, and serving it back from the bucket. */
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as getUpload } from '../../functions/projects/get-upload.ts';
import { handler as upload } from '../../functions/projects/upload.ts';
import { apiEvent, invoke, lambdaContext } from '../support/events.ts';
import { BUCKET, emptyHeaders, pinCounterShards, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import {
  BOB_TOKEN,
  batchGet,
  created,
  givenWorld,
  liveCounterAdd,
  memberKey,
  NOT_FOUND,
  ok,
  PROJECT_NOT_FOUND,
  projectRead,
  tokenRead,
} from './resource-fixtures.ts';

const s3 = mockClient(S3Client);
const BOUNDARY = 'vitest-boundary-0123';
const SECRET = '0123456789abcdef0123456789abcdef';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

/** A multipart body with one file field. */
function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  const head = [
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="${field}"; filename="${filename}"`,
    `Content-Type: ${contentType}`,
    '',
    '',
  ].join('\r\n');
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]).toString(
      'base64',
    ),
    isBase64Encoded: true,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const putObjects = () => s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  s3.reset();
  givenWorld();
});

describe('POST /projects/:id/uploads', () => {
  it('stores the file under a new secret and describes it as Markdown → 201', async () => {
    s3.on(PutObjectCommand).resolves({});
    const response = await invoke(upload, 'POST', '/api/v4/projects/43/uploads', {
      token: USER_TOKEN,
      ...multipart('file', 'my diagram.png', 'image/png', PNG),
    });
    const key = String(putObjects()[0]?.Key);
    const secret = /^uploads\/43\/([0-9a-f]{32})\/my_diagram\.png$/.exec(key)?.[1] as string;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(response).toEqual(
      created({
        alt: 'my_diagram',
        url: `/uploads/${secret}/my_diagram.png`,
        full_path: `/bob/dotfiles/uploads/${secret}/my_diagram.png`,
        markdown: `![my_diagram](/uploads/${secret}/my_diagram.png)`,
      }),
    );
    expect(putObjects()).toEqual([{ Bucket: BUCKET, Key: key, Body: PNG, ContentType: 'image/png' }]);
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 2)),
      // The file's bytes join the project's storage statistics: a counter, on one of its shards,
      // written alone unless the project is marked deleted.
      { UpdateCommand: liveCounterAdd(keys.project(43).pk, { uploads_size: PNG.length }).Update },
    ]);
  });

  it('stores the type the bytes show, never the declared one: HTML declared text/html as x.png → octet-stream', async () => {
    s3.on(PutObjectCommand).resolves({});
    const html = Buffer.from('<html><script>alert(document.domain)</script></html>');
    const response = await invoke(upload, 'POST', '/api/v4/projects/43/uploads', {
      token: USER_TOKEN,
      ...multipart('file', 'x.png', 'text/html', html),
    });
    expect(response.statusCode).toBe(201);
    const key = String(putObjects()[0]?.Key);
    expect(key).toMatch(/^uploads\/43\/[0-9a-f]{32}\/x\.png$/);
    expect(putObjects()).toEqual([
      { Bucket: BUCKET, Key: key, Body: html, ContentType: 'application/octet-stream' },
    ]);
  });

  it('no file → 400 file is missing, nothing stored', async () => {
    expect(
      await invoke(upload, 'POST', '/api/v4/projects/43/uploads', {
        token: USER_TOKEN,
        ...multipart('attachment', 'a.txt', 'text/plain', Buffer.from('hello')),
      }),
    ).toEqual(ok({ error: 'file is missing' }, 400));
    expect(s3.calls()).toHaveLength(0);
  });

  it('a private project the caller cannot see → 404 Project Not Found, nothing stored', async () => {
    expect(
      await invoke(upload, 'POST', '/api/v4/projects/42/uploads', {
        token: BOB_TOKEN,
        ...multipart('file', 'a.png', 'image/png', PNG),
      }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('GET /projects/:id/uploads/:secret/:filename', () => {
  const fetchUpload = (path: string) => getUpload(apiEvent('GET', path), lambdaContext());

  it('serves the bytes of an image inline, base64-encoded, to anonymous callers of a public project', async () => {
    s3.on(GetObjectCommand).resolves({
      Body: {
        transformToByteArray: async () => new Uint8Array(PNG),
      } as unknown as GetObjectCommandOutput['Body'],
      ContentType: 'image/png',
    });
    expect(await fetchUpload(`/api/v4/projects/43/uploads/${SECRET}/diagram.png`)).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        'Content-Type': 'image/png',
        'Content-Disposition': `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
      body: PNG.toString('base64'),
      isBase64Encoded: true,
    });
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, Key: `uploads/43/${SECRET}/diagram.png` },
    ]);
    expect(sentCommands()).toEqual([...projectRead(43)]);
  });

  it('an upload stored with a client’s type (before types were decided here) → served as its bytes show, an attachment', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    s3.on(GetObjectCommand).resolves({
      Body: {
        transformToByteArray: async () => new Uint8Array(svg),
      } as unknown as GetObjectCommandOutput['Body'],
      ContentType: 'image/svg+xml',
    });
    expect(await fetchUpload(`/api/v4/projects/43/uploads/${SECRET}/a.jpg`)).toEqual({
      statusCode: 200,
      headers: {
        ...emptyHeaders(),
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': `attachment; filename="a.jpg"; filename*=UTF-8''a.jpg`,
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
      body: svg.toString('base64'),
      isBase64Encoded: true,
    });
  });

  it('an upload the bucket does not hold → 404 Not found', async () => {
    s3.on(GetObjectCommand).rejects(
      new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }),
    );
    expect(await invoke(getUpload, 'GET', `/api/v4/projects/43/uploads/${SECRET}/other.pdf`)).toEqual(
      NOT_FOUND,
    );
  });

  it('a malformed secret → 404 Not found without reading the bucket', async () => {
    expect(await invoke(getUpload, 'GET', '/api/v4/projects/43/uploads/not-a-secret/diagram.png')).toEqual(
      NOT_FOUND,
    );
    expect(s3.calls()).toHaveLength(0);
  });

  it('a private project to anonymous callers → 404 Project Not Found', async () => {
    expect(await invoke(getUpload, 'GET', `/api/v4/projects/42/uploads/${SECRET}/diagram.png`)).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(s3.calls()).toHaveLength(0);
  });
});
