/**
 * sendDelivery against real receivers on this machine: plain HTTP and HTTPS with a certificate made at test
 * time. Receivers listen on `::` (dual stack), so a refused spelling of 127.0.0.1 or ::1 would show up in
 * their counters had it been sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../shared/delivery/response.ts';
import { type DeliveryResult, sendDelivery } from '../../shared/delivery/send.ts';
import type { AddressPolicy } from '../../shared/egress/address-guard.ts';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  servername?: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Receiver {
  port: number;
  requests: Seen[];
  connections: number;
  handler: Handler;
  server: Server;
}

const ok: Handler = (_request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/plain', 'X-Receiver': 'Yes' });
  response.end('received');
};

async function listen(server: Server): Promise<Receiver> {
  const receiver: Receiver = { port: 0, requests: [], connections: 0, handler: ok, server };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  server.on('secureConnection', () => {
    receiver.connections += 1;
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (request.socket as TLSSocket).servername || undefined,
      });
      receiver.handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const strict: AddressPolicy = { allowLocal: false, allowlist: [] };
const local: AddressPolicy = { allowLocal: true, allowlist: [] };
const headers = {
  'Content-Type': 'application/json',
  'X-Gitlab-Event': 'Note Hook',
  'Idempotency-Key': 'key-1',
};
const body = '{"object_kind":"note","ü":"ß"}';

function send(url: string, policy: AddressPolicy, extra: { verifyTls?: boolean; timeoutMs?: number } = {}) {
  return sendDelivery({
    url,
    headers,
    body,
    verifyTls: extra.verifyTls ?? true,
    policy,
    timeoutMs: extra.timeoutMs,
  });
}

function expectKind<K extends DeliveryResult['kind']>(
  result: DeliveryResult,
  kind: K,
): asserts result is Extract<DeliveryResult, { kind: K }> {
  expect(result.kind, JSON.stringify(result)).toBe(kind);
}

let http: Receiver;

beforeAll(async () => {
  http = await listen(createHttpServer());
});
afterAll(async () => {
  await close(http.server);
});
beforeEach(() => {
  http.requests = [];
  http.connections = 0;
  http.handler = ok;
});

describe('sendDelivery to a reachable receiver', () => {
  it('POSTs the body with the given headers and captures status, lowercased headers and body', async () => {
    const result = await send(`http://127.0.0.1:${http.port}/hook?x=1`, local);
    expectKind(result, 'response');
    expect(result.status).toBe(200);
    expect(result.body).toBe('received');
    expect(result.headers['content-type']).toBe('text/plain');
    expect(result.headers['x-receiver']).toBe('Yes');
    expect(Object.keys(result.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(result.retryAfterSeconds).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(http.requests).toHaveLength(1);
    const seen = http.requests[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/hook?x=1');
    expect(seen.body).toBe(body);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['x-gitlab-event']).toBe('Note Hook');
    expect(seen.headers['idempotency-key']).toBe('key-1');
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('sends url userinfo as Basic auth, never in the request', async () => {
    const result = await send(`http://us%40er:p%3Ass@127.0.0.1:${http.port}/hook`, local);
    expectKind(result, 'response');
    expect(result.status).toBe(200);
    const seen = http.requests[0]!;
    expect(seen.headers.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    expect(seen.url).toBe('/hook');
  });

  it('does not follow redirects: a 3xx is the response', async () => {
    http.handler = (request, response) => {
      if (request.url === '/hook') {
        response.writeHead(302, { Location: '/elsewhere' });
        response.end();
      } else ok(request, response);
    };
    const result = await send(`http://127.0.0.1:${http.port}/hook`, local);
    expectKind(result, 'response');
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe('/elsewhere');
    expect(http.requests.map((seen) => seen.url)).toEqual(['/hook']);
  });

  it('keeps at most 8 KB of the response body', async () => {
    http.handler = (_request, response) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end('x'.repeat(100 * 1024));
    };
    const result = await send(`http://127.0.0.1:${http.port}/hook`, local);
    expectKind(result, 'response');
    expect(result.status).toBe(500);
    expect(result.body).toBe('x'.repeat(8192));
  });

  it('stops reading an endless body at 8 KB instead of waiting for it', async () => {
    let timer: NodeJS.Timeout | undefined;
    http.handler = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      timer = setInterval(() => response.write('y'.repeat(1024)), 5);
    };
    try {
      const result = await send(`http://127.0.0.1:${http.port}/hook`, local, { timeoutMs: 5_000 });
      expectKind(result, 'response');
      expect(result.body).toBe('y'.repeat(8192));
      expect(result.durationMs).toBeLessThan(2_000);
    } finally {
      clearInterval(timer);
    }
  });

  it('parses Retry-After on 429 (seconds) and 503 (HTTP date), and ignores it on other statuses', async () => {
    let answer: [number, string] = [429, '120'];
    http.handler = (_request, response) => {
      response.writeHead(answer[0], { 'Retry-After': answer[1] });
      response.end();
    };
    const tooMany = await send(`http://127.0.0.1:${http.port}/hook`, local);
    expectKind(tooMany, 'response');
    expect(tooMany.retryAfterSeconds).toBe(120);

    answer = [503, new Date(Date.now() + 60_000).toUTCString()];
    const unavailable = await send(`http://127.0.0.1:${http.port}/hook`, local);
    expectKind(unavailable, 'response');
    expect(unavailable.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(unavailable.retryAfterSeconds).toBeLessThanOrEqual(60);

    answer = [500, '30'];
    const failed = await send(`http://127.0.0.1:${http.port}/hook`, local);
    expectKind(failed, 'response');
    expect(failed.retryAfterSeconds).toBeUndefined();
  });

  it('reaches a name through its checked address when local requests are allowed', async () => {
    const result = await send(`http://localhost:${http.port}/named`, local);
    expectKind(result, 'response');
    expect(result.status).toBe(200);
    expect(http.requests.map((seen) => [seen.url, seen.headers.host])).toEqual([
      ['/named', `localhost:${http.port}`],
    ]);
  });
});

describe('sendDelivery failures', () => {
  it('times out a receiver that never answers', async () => {
    http.handler = () => {};
    const result = await send(`http://127.0.0.1:${http.port}/slow`, local, { timeoutMs: 300 });
    expectKind(result, 'failed');
    expect(result.error).toBe('Request timed out after 300 ms');
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(3_000);
  });

  it('times out a body that stalls after the headers', async () => {
    http.handler = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('partial');
    };
    const result = await send(`http://127.0.0.1:${http.port}/stall`, local, { timeoutMs: 300 });
    expectKind(result, 'failed');
    expect(result.error).toBe('Request timed out after 300 ms');
  });

  it('fails on a refused connection', async () => {
    const spare = createHttpServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await close(spare);
    const result = await send(`http://127.0.0.1:${port}/hook`, local);
    expectKind(result, 'failed');
    expect(result.error).toContain('ECONNREFUSED');
  });

  it('fails on a name that does not resolve', async () => {
    const result = await send('http://hook.nonexistent.invalid/hook', strict);
    expectKind(result, 'failed');
    expect(result.error).toMatch(/^Host hook\.nonexistent\.invalid cannot be resolved: /);
  });

  it('refuses an invalid url without contacting anything', async () => {
    const result = await send('ftp://127.0.0.1/hook', local);
    expect(result).toMatchObject({ kind: 'refused', reason: 'Only http and https URLs are allowed' });
  });
});

describe('SSRF guard at delivery', () => {
  const localSpellings = (port: number) => [
    `http://127.0.0.1:${port}/hook`,
    `http://[::1]:${port}/hook`,
    `http://0x7f000001:${port}/hook`,
    `http://2130706433:${port}/hook`,
    `http://0177.0.0.1:${port}/hook`,
    `http://127.1:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://localhost:${port}/hook`,
  ];

  it('refuses every spelling of this machine when local requests are disallowed: the receiver sees nothing', async () => {
    for (const url of localSpellings(http.port)) {
      const result = await send(url, strict);
      expectKind(result, 'refused');
      expect(result.reason, url).toMatch(/Requests to localhost \((127\.0\.0\.1|::1)\) are not allowed$/);
    }
    expect(http.connections).toBe(0);
    expect(http.requests).toEqual([]);
  });

  it('reaches the same receiver through every one of those spellings when local requests are allowed', async () => {
    for (const url of localSpellings(http.port)) {
      const result = await send(url, local);
      expectKind(result, 'response');
      expect(result.status, url).toBe(200);
    }
    expect(http.requests).toHaveLength(localSpellings(http.port).length);
  });

  it('refuses the cloud metadata address even when local requests are allowed, without connecting', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
    ]) {
      for (const policy of [strict, local]) {
        const result = await send(url, policy, { timeoutMs: 1_000 });
        expectKind(result, 'refused');
        expect(result.reason).toMatch(/^Requests to the cloud metadata address /);
        expect(result.durationMs).toBeLessThan(100);
      }
    }
  });

  it('lets an allowlisted address, network or host through while local requests are disallowed', async () => {
    const cases: [string, string[]][] = [
      [`http://127.0.0.1:${http.port}/ip`, ['127.0.0.1']],
      [`http://0x7f000001:${http.port}/cidr`, ['127.0.0.0/8']],
      [`http://localhost:${http.port}/host`, ['localhost']],
    ];
    for (const [url, allowlist] of cases) {
      const result = await send(url, { allowLocal: false, allowlist });
      expectKind(result, 'response');
      expect(result.status).toBe(200);
    }
    expect(http.requests.map((seen) => seen.url)).toEqual(['/ip', '/cidr', '/host']);
    const unlisted = await send(`http://127.0.0.1:${http.port}/other`, {
      allowLocal: false,
      allowlist: ['10.0.0.0/8'],
    });
    expectKind(unlisted, 'refused');
    expect(http.requests).toHaveLength(3);
  });

  it('reads the policy from configuration when none is given', async () => {
    vi.stubEnv('ALLOW_LOCAL_REQUESTS', 'false');
    vi.stubEnv('HOOK_ALLOWLIST', '');
    try {
      const refused = await sendDelivery({
        url: `http://127.0.0.1:${http.port}/`,
        headers,
        body,
        verifyTls: true,
      });
      expectKind(refused, 'refused');
      vi.stubEnv('ALLOW_LOCAL_REQUESTS', 'true');
      const reached = await sendDelivery({
        url: `http://127.0.0.1:${http.port}/`,
        headers,
        body,
        verifyTls: true,
      });
      expectKind(reached, 'response');
      expect(http.requests).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('sendDelivery over TLS with a self-signed certificate', () => {
  let https: Receiver;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'delivery-tls-'));
    const key = join(directory, 'key.pem');
    const cert = join(directory, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
        .concat(['-keyout', key, '-out', cert, '-subj', '/CN=localhost'])
        .concat(['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    https = await listen(
      createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }) as unknown as Server,
    );
  });
  afterAll(async () => {
    await close(https.server);
    rmSync(directory, { recursive: true, force: true });
  });
  beforeEach(() => {
    https.requests = [];
  });

  it('refuses the certificate when verification is on', async () => {
    const result = await send(`https://127.0.0.1:${https.port}/hook`, local);
    expectKind(result, 'failed');
    expect(result.error).toMatch(/self[- ]signed certificate/);
    expect(https.requests).toEqual([]);
  });

  it('accepts it when verification is off', async () => {
    const result = await send(`https://127.0.0.1:${https.port}/hook`, local, { verifyTls: false });
    expectKind(result, 'response');
    expect(result.status).toBe(200);
    expect(https.requests.map((seen) => seen.body)).toEqual([body]);
  });

  it('presents the url host name as SNI while connecting to the checked address', async () => {
    const result = await send(`https://localhost:${https.port}/hook`, local, { verifyTls: false });
    expectKind(result, 'response');
    expect(https.requests.map((seen) => seen.servername)).toEqual(['localhost']);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 90 ', now)).toBe(90);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
