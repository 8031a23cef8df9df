/**
 * isomorphic-git's HTTP transport, through the same SSRF guard as webhook delivery. isomorphic-git
 * makes every request of a fetch (the ref advertisement GET, the upload-pack POST) through the
 * `http` plugin it is given; this plugin checks each request's host with the address guard
 * (resolved once, every address checked against the policy) and then connects with node's own
 * http/https client pinned to the checked addresses, so a second DNS answer (rebinding) is never
 * used. Redirects are not followed (isomorphic-git would send its POST to the original URL anyway),
 * and no connection is kept alive for a host that may resolve elsewhere next time.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { type AddressPolicy, addressPolicy, resolveDestination } from '#egress/address-guard.ts';
import { parseHookUrl } from '#egress/hook-url.ts';
import { isIpLiteral, pinnedLookup } from '#egress/pinned-lookup.ts';
import { FetchLimitExceeded, sizeText } from './pack-scan.ts';

/** The guard refused the address: nothing was contacted. */
export class RemoteRefusedError extends Error {
  override readonly name = 'RemoteRefusedError';
}

export interface GuardedHttpOptions {
  /** Read when each request is made unless given (tests pass one). */
  policy?: AddressPolicy;
  /** A connection silent for this long is dropped (default 60 s): a stalled remote must not hold a worker. */
  idleTimeoutMs?: number;
  /**
   * Bytes the answers of all this client's requests may carry together (one client per fetch);
   * past it the answer is cut and its reading fails with FetchLimitExceeded.
   */
  maxBytes?: number;
}

const defaultIdleTimeoutMs = 60_000;

export function guardedHttp(options: GuardedHttpOptions = {}): HttpClient {
  const received = { bytes: 0 };
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const parsed = parseHookUrl(request.url);
      if (!parsed.ok) throw new RemoteRefusedError(parsed.reason);
      const destination = await resolveDestination(parsed.target, options.policy ?? addressPolicy());
      if (destination.kind === 'refused') throw new RemoteRefusedError(destination.reason);
      if (destination.kind === 'unresolved') throw new Error(destination.error);
      // isomorphic-git hands the POST body as chunks; upload-pack wants a Content-Length (some
      // servers hang up on a chunked request), and the body is a small list of wants and haves.
      const body = request.body ? Buffer.concat(await collect(request.body)) : undefined;
      const url = parsed.target.url;
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      const host = parsed.target.host;
      const idleMs = options.idleTimeoutMs ?? defaultIdleTimeoutMs;
      return new Promise<GitHttpResponse>((resolve, reject) => {
        const outgoing = send(
          {
            protocol: url.protocol,
            host,
            port: url.port || (secure ? 443 : 80),
            path: `${url.pathname}${url.search}`,
            method: request.method ?? 'GET',
            headers: {
              ...request.headers,
              ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
            },
            agent: false,
            lookup: pinnedLookup(host, destination.addresses),
            ...(secure ? { servername: isIpLiteral(host) ? undefined : host } : {}),
            ...(request.signal ? { signal: request.signal } : {}),
          },
          (response: IncomingMessage) => resolve(answerOf(request, response, received, options.maxBytes)),
        );
        outgoing.setTimeout(idleMs, () =>
          outgoing.destroy(new Error(`No answer from ${url.host} for ${idleMs} ms`)),
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    },
  };
}

function answerOf(
  request: GitHttpRequest,
  response: IncomingMessage,
  received: { bytes: number },
  maxBytes: number | undefined,
): GitHttpResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    url: request.url,
    method: request.method ?? 'GET',
    statusCode: response.statusCode ?? 0,
    statusMessage: response.statusMessage ?? '',
    headers,
    body: maxBytes === undefined ? response[Symbol.asyncIterator]() : bounded(response, received, maxBytes),
  };
}

/** The answer's chunks, cut (the connection dropped) once the client's answers pass `maxBytes`. */
async function* bounded(
  response: IncomingMessage,
  received: { bytes: number },
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of response as AsyncIterable<Buffer>) {
    received.bytes += chunk.length;
    if (received.bytes > maxBytes) {
      response.destroy();
      throw new FetchLimitExceeded(`The remote sent more than the ${sizeText(maxBytes)} a fetch may take`);
    }
    yield chunk;
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}
