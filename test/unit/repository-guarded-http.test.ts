/**
 * isomorphic-git's HTTP goes through the address guard. The guard's resolver is replaced by one that
 * knows names the system resolver does not: a request to such a name can only arrive if the
 * connection used the checked answer; a refused address is never dialled.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const answers = new Map<string, LookupAddress[]>();
const lookup = vi.fn(async (host: string) => {
  const found = answers.get(host);
  if (found === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
});
vi.mock('node:dns/promises', () => ({ lookup, default: { lookup } }));

const { guardedHttp, RemoteRefusedError } = await import('../../shared/repository/guarded-http.ts');

const seen: { host: string | undefined; url: string | undefined; length: string | undefined }[] = [];
const server = createServer((request: IncomingMessage, response) => {
  seen.push({ host: request.headers.host, url: request.url, length: request.headers['content-length'] });
  request.resume();
  request.on('end', () => response.end('advertisement'));
});
let port = 0;
const local = { allowLocal: true, allowlist: [] };
const publicOnly = { allowLocal: false, allowlist: [] };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  answers.clear();
  lookup.mockClear();
  seen.length = 0;
});

async function text(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function* chunks(...parts: string[]): AsyncIterableIterator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('guarded HTTP for isomorphic-git', () => {
  it('connects to the address the guard checked, resolving the name once', async () => {
    answers.set('git.pinned.test', [{ address: '127.0.0.1', family: 4 }]);
    const response = await guardedHttp({ policy: local }).request({
      url: `http://git.pinned.test:${port}/group/project.git/info/refs?service=git-upload-pack`,
    });
    expect(response.statusCode).toBe(200);
    expect(await text(response.body)).toBe('advertisement');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([
      {
        host: `git.pinned.test:${port}`,
        url: '/group/project.git/info/refs?service=git-upload-pack',
        length: undefined,
      },
    ]);
  });

  it('sends a POST body whole, with its length', async () => {
    const response = await guardedHttp({ policy: local }).request({
      url: `http://127.0.0.1:${port}/project.git/git-upload-pack`,
      method: 'POST',
      body: chunks('0032want ', 'abc\n', '0000'),
    });
    await text(response.body);
    expect(seen[0]?.length).toBe(String('0032want abc\n0000'.length));
  });

  it.each([
    ['a loopback literal when local requests are not allowed', 'http://127.0.0.1:1/x.git', publicOnly],
    ['a name resolving to loopback', 'http://git.rebound.test:1/x.git', publicOnly],
    ['the metadata address even when local requests are allowed', 'http://169.254.169.254/x.git', local],
    ['a scheme other than http and https', 'ftp://127.0.0.1/x.git', local],
  ])('refuses %s without dialling', async (_case, url, policy) => {
    answers.set('git.rebound.test', [{ address: '127.0.0.1', family: 4 }]);
    await expect(guardedHttp({ policy }).request({ url })).rejects.toBeInstanceOf(RemoteRefusedError);
    expect(seen).toEqual([]);
  });
});
