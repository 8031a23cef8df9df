/** A webhook receiver on 127.0.0.1 for tests: records every request and answers as scripted. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  at: number;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests to one path (each hook of a test gets a path of its own). */
  at(path: string): ReceivedRequest[];
  /** Resolves once `count` requests reached `path` (or any path), rejects after `timeoutMs`. */
  waitFor(count: number, options?: { path?: string; timeoutMs?: number }): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `answer` decides each response (the nth request to its path, from 1); 200 `{}` by default. */
export async function startReceiver(
  answer: (request: ReceivedRequest, nth: number) => ScriptedAnswer = () => ({ status: 200 }),
  /** `::` listens on IPv6 and IPv4 loopback alike. */
  host = '127.0.0.1',
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = incoming.url ?? '/';
      const request = {
        method: incoming.method ?? '',
        path,
        headers: incoming.headers,
        body,
        json,
        at: Date.now(),
      };
      requests.push(request);
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const scripted = answer(request, nth);
      response.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      response.end(scripted.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string) => requests.filter((request) => request.path === path);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    at,
    async waitFor(count, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 20_000);
      for (;;) {
        const seen = options.path === undefined ? requests : at(options.path);
        if (seen.length >= count) return seen;
        if (Date.now() > deadline)
          throw new Error(
            `receiver got ${seen.length} of ${count} requests${options.path ? ` at ${options.path}` : ''}`,
          );
        await sleep(25);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
