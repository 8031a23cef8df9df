/**
 * Conditional and compressed answers through the local gateway: a JSON GET carries a weak ETag,
 * a matching If-None-Match gets 304 with no body, and a client accepting gzip or br gets the body
 * compressed (the bytes on the wire measured with node:http, which decodes nothing itself).
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiUrl, createUser, unique } from '../support/api.ts';

interface Wire {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent, before any decoding. */
  bytes: Buffer;
}

function get(path: string, headers: Record<string, string>): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${apiUrl()}${path}`, { headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const path = '/projects?per_page=100&order_by=id&sort=asc&owned=true';
/** A user of this file alone, so that no other test changes the page between two requests. */
let owner: string;
let token: Record<string, string>;

beforeAll(async () => {
  owner = (await createUser()).token;
  token = { 'PRIVATE-TOKEN': owner };
  // Enough projects for a page well over the compression threshold.
  for (let i = 0; i < 12; i += 1) {
    const created = await api('POST', '/projects', { token: owner, json: { name: unique('wire') } });
    expect(created.status).toBe(201);
  }
});

describe('GET /projects?per_page=100 on the wire', () => {
  it('gzip and br bodies decode to the plain body, several times smaller; the ETag names the body', async () => {
    const plain = await get(path, token);
    const gzip = await get(path, { ...token, 'Accept-Encoding': 'gzip, deflate' });
    const br = await get(path, { ...token, 'Accept-Encoding': 'gzip, deflate, br' });
    expect([plain.status, gzip.status, br.status]).toEqual([200, 200, 200]);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.bytes).toString('utf8')).toBe(plain.bytes.toString('utf8'));
    expect(brotliDecompressSync(br.bytes).toString('utf8')).toBe(plain.bytes.toString('utf8'));
    expect(Number(gzip.headers['content-length'])).toBe(gzip.bytes.length);
    expect(gzip.bytes.length * 4).toBeLessThan(plain.bytes.length);
    expect(gzip.headers.etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(gzip.headers.etag).toBe(plain.headers.etag);
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(gzip.headers['x-total']).toBe(plain.headers['x-total']);
    process.stdout.write(
      `GET ${path}: ${plain.bytes.length} bytes plain, ${gzip.bytes.length} gzip, ${br.bytes.length} br\n`,
    );
  });

  it('a matching If-None-Match → 304 with no body; a stale one → 200 with the body', async () => {
    const first = await get(path, token);
    const tag = String(first.headers.etag);
    const again = await get(path, { ...token, 'If-None-Match': tag, 'Accept-Encoding': 'gzip' });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.etag).toBe(tag);
    expect(again.headers['content-type']).toBeUndefined();
    const stale = await get(path, { ...token, 'If-None-Match': 'W/"0000"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.toString('utf8')).toBe(first.bytes.toString('utf8'));
  });

  it('a change of the listed data changes the tag', async () => {
    const before = await get(path, token);
    const created = await api('POST', '/projects', { token: owner, json: { name: unique('wire') } });
    expect(created.status).toBe(201);
    const after = await get(path, { ...token, 'If-None-Match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('errors and writes carry no tag', async () => {
    const missing = await get('/projects/999999999', token);
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(JSON.parse(missing.bytes.toString('utf8'))).toEqual({ message: '404 Project Not Found' });
  });
});
