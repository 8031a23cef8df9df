/**
 * One webhook POST. The host is resolved and checked once (address-guard); the connection is then pinned
 * to the checked addresses, so no second lookup can hand it a different one. Node's own http/https client
 * does the HTTP (a library would add half a megabyte to every function that delivers): it takes a custom
 * `lookup` per request, never follows redirects, and with `agent: false` keeps no connection alive for a
 * host that may resolve elsewhere next time.
 */
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressPolicy, addressPolicy, messageOf, resolveDestination } from '#egress/address-guard.ts';
import { type HookTarget, parseHookUrl } from '#egress/hook-url.ts';
import { isIpLiteral, pinnedLookup } from '#egress/pinned-lookup.ts';
import { lowercasedHeaders, readCappedText, retryAfterFor } from './response.ts';

export interface OutgoingDelivery {
  url: string; // may contain userinfo: stripped, sent as Basic auth
  headers: Record<string, string>; // built by deliveryHeaders
  body: string;
  verifyTls: boolean;
  timeoutMs?: number; // default 10_000
  policy?: AddressPolicy; // default addressPolicy()
}

export type DeliveryResult =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string>;
      body: string;
      durationMs: number;
      retryAfterSeconds?: number;
    }
  | { kind: 'refused'; reason: string; durationMs: number } // SSRF guard: never contacted
  | { kind: 'failed'; error: string; durationMs: number }; // DNS, connect, TLS, timeout, reset

const defaultTimeoutMs = 10_000;

/** POSTs the body; the timeout covers resolution, connection and reading the (capped) response. */
export async function sendDelivery(delivery: OutgoingDelivery): Promise<DeliveryResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const parsed = parseHookUrl(delivery.url);
  if (!parsed.ok) return { kind: 'refused', reason: parsed.reason, durationMs: durationMs() };

  const timeoutMs = delivery.timeoutMs ?? defaultTimeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const timedOut = `Request timed out after ${timeoutMs} ms`;
  const destination = await resolveDestination(parsed.target, delivery.policy ?? addressPolicy(), deadline);
  if (destination.kind === 'refused') {
    return { kind: 'refused', reason: destination.reason, durationMs: durationMs() };
  }
  if (destination.kind === 'unresolved') {
    return {
      kind: 'failed',
      error: deadline.aborted ? timedOut : destination.error,
      durationMs: durationMs(),
    };
  }

  try {
    const answer = await post(parsed.target, destination.addresses, delivery, deadline);
    return { kind: 'response', ...answer, durationMs: durationMs() };
  } catch (error) {
    return {
      kind: 'failed',
      error: isTimeout(error, deadline) ? timedOut : describe(error),
      durationMs: durationMs(),
    };
  }
}

function post(
  target: HookTarget,
  addresses: LookupAddress[],
  delivery: OutgoingDelivery,
  deadline: AbortSignal,
): Promise<{ status: number; headers: Record<string, string>; body: string; retryAfterSeconds?: number }> {
  const url = new URL(target.url);
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        protocol: url.protocol,
        host: target.host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...withAuthorization(delivery.headers, target.authorization),
          'Content-Length': String(Buffer.byteLength(delivery.body)),
        },
        agent: false,
        // Node does no lookup for an IP literal; a name is only ever resolved to the checked addresses.
        lookup: pinnedLookup(target.host, addresses),
        // SNI and certificate verification use the url's host name.
        ...(secure ? { servername: isIpLiteral(target.host) ? undefined : target.host } : {}),
        rejectUnauthorized: delivery.verifyTls,
        signal: deadline,
      },
      (response: IncomingMessage) => {
        const headers = lowercasedHeaders(response.headers);
        const status = response.statusCode ?? 0;
        readCappedText(response).then((body) => {
          const retryAfterSeconds = retryAfterFor(status, headers);
          resolve({
            status,
            headers,
            body,
            ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
          });
        }, reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(delivery.body);
  });
}

/** Userinfo from the url wins over any Authorization header, as in GitLab. */
function withAuthorization(
  headers: Record<string, string>,
  authorization: string | undefined,
): Record<string, string> {
  if (authorization === undefined) return headers;
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'authorization') result[name] = value;
  }
  result.Authorization = authorization;
  return result;
}

function isTimeout(error: unknown, deadline: AbortSignal): boolean {
  return deadline.aborted || codeOf(error) === 'ABORT_ERR';
}

function describe(error: unknown): string {
  const code = codeOf(error);
  const message = messageOf(error);
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
