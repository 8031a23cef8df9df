/**
 * Oversized request lines and headers get GitLab's JSON answers at API Gateway's limits (10,240
 * bytes of request line and headers; an 8 KB URI is 414), also past what Node parses at all.
 * Raw sockets, since fetch refuses to send some of these.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { apiUrl } from '../support/api.ts';

async function rawRequest(head: string): Promise<{ status: number; contentType: string; body: unknown }> {
  const url = new URL(apiUrl());
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  socket.write(head);
  await new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const text = Buffer.concat(chunks).toString('utf8');
  const [headers = '', body = ''] = text.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1]),
    contentType: /content-type: ([^\r\n]+)/i.exec(headers)?.[1] ?? '',
    body: body ? JSON.parse(body) : undefined,
  };
}

const host = () => new URL(apiUrl()).host;

describe('request head limits', () => {
  it('a 9 KB request URI is 414 in JSON', async () => {
    const answer = await rawRequest(
      `GET /api/v4/projects?search=${'a'.repeat(9000)} HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toEqual({
      status: 414,
      contentType: 'application/json',
      body: { message: '414 Request-URI Too Large' },
    });
  });

  it('12 KB of headers is 431 in JSON', async () => {
    const answer = await rawRequest(
      `GET /api/v4/projects HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'b'.repeat(12_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toEqual({
      status: 431,
      contentType: 'application/json',
      body: { message: '431 Request Header Fields Too Large' },
    });
  });

  it('past what the server parses: 100 KB of headers is 431, a 100 KB URI 414, both JSON', async () => {
    const headers = await rawRequest(
      `GET /api/v4/projects HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`,
    );
    expect(headers).toEqual({
      status: 431,
      contentType: 'application/json',
      body: { message: '431 Request Header Fields Too Large' },
    });
    const uri = await rawRequest(
      `GET /api/v4/projects?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
    );
    expect(uri).toEqual({
      status: 414,
      contentType: 'application/json',
      body: { message: '414 Request-URI Too Large' },
    });
  });

  it('a request just under the limits is served', async () => {
    const answer = await rawRequest(
      `GET /api/v4/projects?search=${'a'.repeat(100)} HTTP/1.1\r\nHost: ${host()}\r\nX-Pad: ${'p'.repeat(8000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(answer.body).toEqual([]);
  });
});
