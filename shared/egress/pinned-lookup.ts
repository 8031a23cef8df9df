/**
 * Connecting to the addresses the guard checked (./address-guard.ts) and to nothing else: node's
 * http(s) request is given a `lookup` that answers only those addresses, so a second DNS answer
 * (rebinding) is never used. Shared by webhook delivery (shared/delivery/send.ts) and the git
 * transport (shared/repository/guarded-http.ts).
 */
import type { LookupAddress } from 'node:dns';

export const isIpLiteral = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for node's http(s) request that answers only the guard's checked addresses, never the resolver. */
export function pinnedLookup(host: string, addresses: LookupAddress[]) {
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
