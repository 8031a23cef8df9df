/**
 * One webhook POST. The host is resolved and checked once (address-guard); the connection is then pinned
 * to the checked addresses, so no second lookup can hand it a different one. undici does the HTTP: its
 * connector takes a custom `lookup` and TLS options, it never follows redirects unless asked, and a
 * one-shot Agent per delivery keeps the pinned lookup from leaking into any other connection.
 */
import type { LookupAddress } from 'node:dns';
import { Agent, buildConnector, request } from 'undici';
import { type AddressPolicy, addressPolicy, messageOf, resolveDestination } from './address-guard.ts';
import { type HookTarget, parseHookUrl } from './hook-url.ts';
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
    const answer = await post(parsed.target, destination.addresses, delivery, timeoutMs, deadline);
    return { kind: 'response', ...answer, durationMs: durationMs() };
  } catch (error) {
    return {
      kind: 'failed',
      error: isTimeout(error, deadline) ? timedOut : describe(error),
      durationMs: durationMs(),
    };
  }
}

async function post(
  target: HookTarget,
  addresses: LookupAddress[],
  delivery: OutgoingDelivery,
  timeoutMs: number,
  deadline: AbortSignal,
): Promise<{ status: number; headers: Record<string, string>; body: string; retryAfterSeconds?: number }> {
  const agent = new Agent({
    connect: pinnedConnector(target.host, addresses, {
      // SNI and certificate verification use the url's host name (undici sets `servername` from it).
      rejectUnauthorized: delivery.verifyTls,
      timeout: timeoutMs,
    }),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    const response = await request(target.url, {
      dispatcher: agent,
      method: 'POST',
      headers: withAuthorization(delivery.headers, target.authorization),
      body: delivery.body,
      signal: deadline,
    });
    const headers = lowercasedHeaders(response.headers);
    const body = await readCappedText(response.body);
    const retryAfterSeconds = retryAfterFor(response.statusCode, headers);
    return {
      status: response.statusCode,
      headers,
      body,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  } finally {
    // One connection per delivery: nothing is kept alive for a host that may resolve elsewhere next time.
    await agent.destroy().catch(() => undefined);
  }
}

/**
 * A connector that dials only what the guard checked: an IP literal is connected to as-is (Node does no
 * lookup for it), a name only through a lookup that answers with the checked addresses.
 */
function pinnedConnector(
  host: string,
  addresses: LookupAddress[],
  options: { rejectUnauthorized: boolean; timeout: number },
): buildConnector.connector {
  const connect = buildConnector({ ...options, lookup: pinnedLookup(host, addresses) });
  return (connectOptions, callback) => {
    if (connectOptions.hostname !== host) {
      callback(
        new Error(`Refusing to connect to ${connectOptions.hostname}: only ${host} was checked`),
        null,
      );
      return;
    }
    connect(connectOptions, callback);
  };
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

function pinnedLookup(host: string, addresses: LookupAddress[]) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    const first = addresses[0];
    if (hostname !== host || first === undefined) {
      callback(new Error(`No checked address for ${hostname}`), []);
      return;
    }
    // Node asks for all addresses when it tries IPv4 and IPv6 in turn (autoSelectFamily).
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
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

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function isTimeout(error: unknown, deadline: AbortSignal): boolean {
  return deadline.aborted || timeoutCodes.has(codeOf(error) ?? '');
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
