/**
 * No request can kill the server: multipart bodies cut at every byte, mutated at every byte, with
 * bad boundaries, huge part headers, empty, nameless and nested parts, sent to POST
 * /projects/:id/uploads over HTTP, get 400 (or 201 where the body is still whole and valid), never
 * a 5xx; the gateway survives clients that abort or send garbage; and only the valid requests
 * stored anything, checked by key in the runtime's s3rver.
 */
import { connect } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiResponse, api, apiUrl, must, unique } from '../support/api.ts';

interface UploadBody {
  url: string;
}

const BOUNDARY = 'fuzzBoundary0123';
const CONCURRENCY = 8;

let s3: S3Client;
let projectId: number;
/** The url of every upload a request was answered 201 for. */
const created: string[] = [];

beforeAll(async () => {
  s3 = new S3Client({
    endpoint: inject('s3Endpoint'),
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const project = await must(
    api<{ id: number }>('POST', '/projects', { json: { name: unique('multipart-fuzz') } }),
    201,
    'project create',
  );
  projectId = project.id;
});

afterAll(() => s3?.destroy());

/** Every key stored under the project's upload prefix. */
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: inject('bucketName'),
        Prefix: `uploads/${projectId}/`,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.NextContinuationToken;
  } while (token);
  return keys.sort();
}

const part = (
  disposition: string | undefined,
  content: string,
  headers: string[] = [],
  boundary = BOUNDARY,
) =>
  [
    `--${boundary}`,
    ...(disposition === undefined ? [] : [`Content-Disposition: ${disposition}`]),
    ...headers,
    '',
    content,
  ].join('\r\n');
const whole = (parts: string[], boundary = BOUNDARY) => `${parts.join('\r\n')}\r\n--${boundary}--\r\n`;
const filePart = (content = 'fuzz contents', boundary = BOUNDARY) =>
  part('form-data; name="file"; filename="fuzz.txt"', content, ['Content-Type: text/plain'], boundary);

interface Case {
  what: string;
  body: string | Buffer;
  contentType?: string;
  token?: string | null;
  /** The statuses this body may get. */
  allowed: number[];
}

/** POSTs a case as raw bytes; a 201 is recorded as created. */
async function send(item: Case): Promise<ApiResponse<UploadBody>> {
  const response = await api<UploadBody>('POST', `/projects/${projectId}/uploads`, {
    token: item.token,
    headers: { 'Content-Type': item.contentType ?? `multipart/form-data; boundary=${BOUNDARY}` },
    body: new Uint8Array(Buffer.from(item.body)),
  });
  if (response.status === 201) created.push(response.body.url);
  return response;
}

/** What is wrong with an answer to a case, or undefined when nothing is. */
function problem(item: Case, response: ApiResponse<UploadBody>): string | undefined {
  const { status, body, text } = response;
  if (!item.allowed.includes(status)) return `${item.what}: ${status} ${text.slice(0, 200)}`;
  if (status === 201) {
    return /^\/uploads\/[0-9a-f]{32}\/[\w.-]+$/.test(body?.url ?? '')
      ? undefined
      : `${item.what}: 201 ${text}`;
  }
  const error = body as unknown as { message?: unknown; error?: unknown } | undefined;
  const said = typeof error?.message === 'string' || typeof error?.error === 'string';
  return said ? undefined : `${item.what}: ${status} without a message: ${text.slice(0, 200)}`;
}

/** Sends every case, CONCURRENCY at a time; the problems found, in the cases' order. */
async function sendAll(cases: Case[]): Promise<string[]> {
  const problems: (string | undefined)[] = new Array(cases.length);
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const index = next++;
      const item = cases[index] as Case;
      try {
        problems[index] = problem(item, await send(item));
      } catch (error) {
        problems[index] = `${item.what}: no answer (${String(error)})`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return problems.filter((found): found is string => found !== undefined);
}

/** The server still answers an ordinary request. */
async function stillServing(): Promise<void> {
  const user = await api<{ username: string }>('GET', '/user');
  expect(user.status).toBe(200);
  expect(user.body.username).toBe('root');
}

/** A deterministic byte source, so a failing mutation can be sent again. */
function bytesFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state >>> 24;
  };
}

/** A raw exchange on a socket: `act` writes to it; the answer's status, or undefined without one. */
async function rawExchange(act: (socket: ReturnType<typeof connect>) => void): Promise<number | undefined> {
  const url = new URL(apiUrl());
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  act(socket);
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, 5_000).unref();
  });
  const status = /^HTTP\/1\.1 (\d+)/.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
  return status === undefined ? undefined : Number(status);
}

describe('multipart bodies that are not whole or not well formed', () => {
  it('the body from the issue, anonymously: 400, and the next request is answered', async () => {
    const body = '--xx\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc';
    const response = await api<{ error?: string }>('POST', '/projects/1/uploads', {
      token: null,
      headers: { 'Content-Type': 'multipart/form-data; boundary=xx' },
      body,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: '400 Bad request - The multipart body could not be read' });
    await stillServing();
  });

  it('a valid body cut at every byte offset: 400 until its closing boundary is whole, then 201', async () => {
    const body = whole([part('form-data; name="note"', 'a field first'), filePart()]);
    // `--boundary--` ends the body; the CRLF after it is epilogue, so the last two cuts are whole too.
    const wholeFrom = body.length - 2;
    const cases = Array.from(
      { length: body.length + 1 },
      (_, length): Case => ({
        what: `cut at ${length}`,
        body: body.slice(0, length),
        allowed: length >= wholeFrom ? [201] : [400],
      }),
    );
    expect(await sendAll(cases)).toEqual([]);
  });

  it('a valid body with one byte changed at every offset: 400 or 201, never a 5xx', async () => {
    const body = Buffer.from(whole([filePart()]));
    const next = bytesFrom(0x5eed);
    const cases = Array.from({ length: body.length }, (_, offset): Case => {
      const mutated = Buffer.from(body);
      const byte = next();
      mutated[offset] = byte === body[offset] ? byte ^ 0x20 : byte;
      return { what: `byte ${offset} as ${mutated[offset]}`, body: mutated, allowed: [201, 400] };
    });
    expect(await sendAll(cases)).toEqual([]);
  });

  it('bad boundaries, huge part headers, empty, nameless and nested parts', async () => {
    const long = 'b'.repeat(71);
    const longest = 'c'.repeat(70);
    const nested = ['--inner', 'Content-Type: text/plain', '', 'inside', '--inner--'].join('\r\n');
    const cases: Case[] = [
      {
        what: 'no boundary parameter',
        contentType: 'multipart/form-data',
        body: whole([filePart()]),
        allowed: [400],
      },
      {
        what: 'an empty boundary',
        contentType: 'multipart/form-data; boundary=',
        body: whole([filePart()]),
        allowed: [400],
      },
      {
        what: 'a boundary the body does not use',
        contentType: 'multipart/form-data; boundary=other',
        body: whole([filePart()]),
        allowed: [400],
      },
      {
        what: 'a boundary of 71 characters',
        contentType: `multipart/form-data; boundary=${long}`,
        body: whole([filePart('x', long)], long),
        allowed: [400],
      },
      {
        what: 'a boundary of 70 characters',
        contentType: `multipart/form-data; boundary="${longest}"`,
        body: whole([filePart('x', longest)], longest),
        allowed: [201],
      },
      {
        what: '17 KB of part headers',
        body: whole([
          part('form-data; name="file"; filename="a"', 'abc', [`X-Pad: ${'p'.repeat(17 * 1024)}`]),
        ]),
        allowed: [400],
      },
      {
        what: '2,100 part header lines',
        body: whole([part('form-data; name="file"; filename="a"', 'abc', Array(2100).fill('X-A: b'))]),
        allowed: [201, 400],
      },
      {
        what: 'a header without a colon',
        body: whole([part('form-data; name="file"; filename="a"', 'abc', ['Broken header'])]),
        allowed: [201, 400],
      },
      // A part without headers (RFC 2046 allows one; Rack drops it, having no name) is a malformed
      // part header to busboy: the body is refused whole.
      {
        what: 'zero-length parts only',
        body: whole([part(undefined, ''), part(undefined, '')]),
        allowed: [400],
      },
      {
        what: 'a zero-length part, then the file',
        body: whole([part(undefined, ''), filePart()]),
        allowed: [400],
      },
      {
        what: 'a zero-length part with its disposition',
        body: whole([part('form-data; name="empty"', ''), filePart()]),
        allowed: [201],
      },
      { what: 'a zero-length file', body: whole([filePart('')]), allowed: [201] },
      { what: 'no parts at all', body: `--${BOUNDARY}--\r\n`, allowed: [400] },
      {
        what: 'a file input with nothing chosen',
        body: whole([
          part('form-data; name="file"; filename=""', '', ['Content-Type: application/octet-stream']),
        ]),
        allowed: [400],
      },
      {
        what: 'a file part with no name',
        body: whole([part('form-data; filename="a.txt"', 'abc')]),
        allowed: [400],
      },
      {
        what: 'a part with no Content-Disposition',
        body: whole([part(undefined, 'abc', ['Content-Type: text/plain'])]),
        allowed: [400],
      },
      {
        what: 'a disposition that is not form-data',
        body: whole([part('attachment; name="file"; filename="a"', 'abc')]),
        allowed: [400],
      },
      {
        what: 'a nested multipart/mixed field named file',
        body: whole([
          part('form-data; name="file"', nested, ['Content-Type: multipart/mixed; boundary=inner']),
        ]),
        allowed: [400],
      },
      {
        what: 'a nested multipart/mixed file',
        body: whole([
          part('form-data; name="file"; filename="n.eml"', nested, [
            'Content-Type: multipart/mixed; boundary=inner',
          ]),
        ]),
        allowed: [201],
      },
      {
        what: 'a field with a 15 KB name beside the file',
        body: whole([part(`form-data; name="${'n'.repeat(15 * 1024)}"`, 'v'), filePart()]),
        allowed: [201],
      },
      {
        what: 'duplicate fields and two files named file',
        body: whole([
          part('form-data; name="a"', '1'),
          part('form-data; name="a"', '2'),
          filePart('one'),
          filePart('two'),
        ]),
        allowed: [201],
      },
      {
        what: '4,097 parts',
        body: whole(Array.from({ length: 4097 }, () => part('form-data; name="a[]"', 'x'))),
        allowed: [400],
      },
      {
        what: '129 files',
        body: whole(
          Array.from({ length: 129 }, (_, i) => part(`form-data; name="f${i}"; filename="f"`, 'x')),
        ),
        allowed: [400],
      },
      {
        what: 'a file not closed, with a token',
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc`,
        allowed: [400],
      },
      {
        what: 'a file not closed, anonymously',
        token: null,
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc`,
        allowed: [400],
      },
      { what: 'random bytes', body: Buffer.from(Array.from({ length: 512 }, bytesFrom(7))), allowed: [400] },
    ];
    expect(await sendAll(cases)).toEqual([]);
  });

  it('clients that abort mid-body, reset their connection or send garbage cost only their request', async () => {
    const url = new URL(apiUrl());
    const head = (length: number) =>
      `POST /api/v4/projects/${projectId}/uploads HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`;
    const started = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab`;
    // Half the body, then the client's side ends (an answer, if any, is 400) or resets (no answer).
    expect([undefined, 400]).toContain(await rawExchange((socket) => socket.end(head(1000) + started)));
    expect(
      await rawExchange((socket) => socket.write(head(1000) + started, () => socket.resetAndDestroy())),
    ).toBeUndefined();
    expect(await rawExchange((socket) => socket.end('GARBAGE\r\n\r\n'))).toBe(400);
    // A chunk size that is no number, after the request's head was handed on.
    const badChunk =
      `POST /api/v4/projects/${projectId}/uploads HTTP/1.1\r\nHost: ${url.host}\r\n` +
      'Content-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n';
    expect([undefined, 400]).toContain(await rawExchange((socket) => socket.end(badChunk)));
    await stillServing();
  });

  it('the server still answers, and only the requests answered 201 stored anything', async () => {
    await stillServing();
    const stored = await storedKeys();
    expect(stored).toEqual(
      created.map((url) => `uploads/${projectId}${url.replace(/^\/uploads/, '')}`).sort(),
    );
  });
});
