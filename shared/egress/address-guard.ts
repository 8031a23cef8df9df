/**
 * The SSRF guard. A hook url is checked when it is saved (so an obviously blocked url is rejected early)
 * and again at delivery, where the host is resolved exactly once and the connection may only use the
 * addresses that passed: a name that resolves differently the second time (DNS rebinding) never gets a
 * second lookup.
 */
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { config } from '#config/env.ts';
import { type HookTarget, parseHookUrl } from './hook-url.ts';
import { addressVerdict, allowlistedHost } from './ip-policy.ts';

export interface AddressPolicy {
  allowLocal: boolean;
  /** Host names (`*.example.com` allowed), IPs or CIDRs reachable whatever their range. */
  allowlist: readonly string[];
}

/** Read on every call, so a changed setting applies without a new process. */
export function addressPolicy(): AddressPolicy {
  return { allowLocal: config.allowLocalRequests, allowlist: config.hookAllowlist };
}

export type Destination =
  /** The checked addresses: the only ones the connection may use. */
  | { kind: 'allowed'; addresses: LookupAddress[] }
  | { kind: 'refused'; reason: string }
  | { kind: 'unresolved'; error: string };

/** Resolves the target's host once (no lookup for an IP literal) and checks every address it yields. */
export async function resolveDestination(
  target: HookTarget,
  policy: AddressPolicy,
  signal?: AbortSignal,
): Promise<Destination> {
  if (target.literalFamily !== 0) {
    const verdict = addressVerdict(target.host, policy);
    if (!verdict.allowed) return { kind: 'refused', reason: verdict.reason };
    return { kind: 'allowed', addresses: [{ address: target.host, family: target.literalFamily }] };
  }
  let addresses: LookupAddress[];
  try {
    addresses = unique(await untilAborted(lookup(target.host, { all: true }), signal));
  } catch (error) {
    return { kind: 'unresolved', error: `Host ${target.host} cannot be resolved: ${messageOf(error)}` };
  }
  if (addresses.length === 0) return { kind: 'unresolved', error: `Host ${target.host} has no address` };
  if (allowlistedHost(target.host, policy.allowlist)) return { kind: 'allowed', addresses };
  // Any blocked address refuses the host: which address a connection ends up on is not ours to predict.
  for (const { address } of addresses) {
    const verdict = addressVerdict(address, policy);
    if (!verdict.allowed) {
      return { kind: 'refused', reason: `${target.host} resolves to a blocked address: ${verdict.reason}` };
    }
  }
  return { kind: 'allowed', addresses };
}

// A save must not hang on a slow resolver; an unanswered name passes and is checked again at delivery.
const saveTimeLookupMs = 3_000;

/** Save-time check of a hook url: http/https only, parseable, ≤ 2000 chars; literal IPs (any spelling) checked;
 *  a host name is resolved and refused if any address is blocked; a name that does not resolve passes (checked
 *  again at delivery). */
export async function checkHookUrl(
  url: string,
  policy: AddressPolicy = addressPolicy(),
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const parsed = parseHookUrl(url);
  if (!parsed.ok) return parsed;
  const destination = await resolveDestination(parsed.target, policy, AbortSignal.timeout(saveTimeLookupMs));
  return destination.kind === 'refused' ? { ok: false, reason: destination.reason } : { ok: true };
}

function unique(addresses: LookupAddress[]): LookupAddress[] {
  const seen = new Set<string>();
  return addresses.filter(({ address }) => !seen.has(address) && seen.add(address) !== undefined);
}

/** getaddrinfo cannot be cancelled; stop waiting for it instead. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
