/**
 * Which IP addresses a webhook may reach. Pure: the address guard feeds it every address it is about to
 * dial. Only public unicast is allowed by default; local ranges open up with "allow local requests";
 * cloud metadata endpoints stay closed unless an allowlist entry names them.
 */
import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from './address-guard.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

// Instance metadata services hand out cloud credentials; reachable from link-local / ULA space, so
// "allow local requests" alone must not open them.
const metadataAddresses = ['169.254.169.254', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toString());

// What "allow local requests" opens: this machine and the networks it sits on.
const loopbackRanges = new Set(['loopback']);
const localNetworkRanges = new Set([
  'private',
  'linkLocal',
  'carrierGradeNat',
  'uniqueLocal',
  'deprecatedSiteLocal',
]);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Parses an IP in any spelling ipaddr.js knows, unwrapping IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function parseAddress(text: string): Address | undefined {
  if (!ipaddr.isValid(text)) return undefined;
  return ipaddr.process(text);
}

export function addressVerdict(text: string, policy: AddressPolicy): AddressVerdict {
  const address = parseAddress(text);
  if (address === undefined) return { allowed: false, reason: `${text} is not an IP address` };
  if (allowlistedAddress(address, policy.allowlist)) return { allowed: true };
  const shown = address.toString();
  if (metadataAddresses.includes(shown)) {
    return { allowed: false, reason: `Requests to the cloud metadata address ${shown} are not allowed` };
  }
  const range = rangeOf(address);
  if (range === 'unicast') return { allowed: true };
  if (loopbackRanges.has(range)) {
    return policy.allowLocal
      ? { allowed: true }
      : { allowed: false, reason: `Requests to localhost (${shown}) are not allowed` };
  }
  if (localNetworkRanges.has(range)) {
    return policy.allowLocal
      ? { allowed: true }
      : { allowed: false, reason: `Requests to the local network (${shown}) are not allowed` };
  }
  return { allowed: false, reason: `Requests to ${range} address ${shown} are not allowed` };
}

function rangeOf(address: Address): string {
  // ::/96 minus :: and ::1 holds the deprecated IPv4-compatible addresses (::127.0.0.1); ipaddr.js calls
  // them unicast, but they are not routable public destinations.
  if (address.kind() === 'ipv6') {
    const parts = (address as ipaddr.IPv6).parts;
    const range = address.range();
    if (range === 'unicast' && parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
    return range;
  }
  return address.range();
}

function allowlistedAddress(address: Address, allowlist: readonly string[]): boolean {
  for (const entry of allowlist) {
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) continue;
      if (inCidr(address, ipaddr.parseCIDR(entry))) return true;
      continue;
    }
    const listed = parseAddress(entry);
    if (
      listed !== undefined &&
      listed.kind() === address.kind() &&
      listed.toString() === address.toString()
    ) {
      return true;
    }
  }
  return false;
}

function inCidr(address: Address, [network, prefix]: [Address, number]): boolean {
  // A mapped network (::ffff:10.0.0.0/104) is compared as its IPv4 equivalent, as addresses are.
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return inCidr(address, [(network as ipaddr.IPv6).toIPv4Address(), prefix - 96]);
  }
  if (address.kind() === 'ipv4' && network.kind() === 'ipv4') {
    return (address as ipaddr.IPv4).match(network as ipaddr.IPv4, prefix);
  }
  if (address.kind() === 'ipv6' && network.kind() === 'ipv6') {
    return (address as ipaddr.IPv6).match(network as ipaddr.IPv6, prefix);
  }
  return false;
}

/** Host-name allowlist entries: exact names and `*.example.com` for any subdomain, case-insensitive. */
export function allowlistedHost(host: string, allowlist: readonly string[]): boolean {
  const name = normaliseHost(host);
  for (const raw of allowlist) {
    if (raw.includes('/') || ipaddr.isValid(raw)) continue;
    const entry = normaliseHost(raw);
    if (entry.startsWith('*.')) {
      if (name.endsWith(entry.slice(1))) return true;
    } else if (entry === name) {
      return true;
    }
  }
  return false;
}

function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}
