/**
 * Reading a directory for LDAP group sync: the members of a linked LDAP group (by cn) or the users of
 * a link's filter, as GitLab EE reads them — `member` and `uniqueMember` DNs, `memberUid` names, a
 * member that is itself a group expanded one level. One connection per read, always unbound (after a
 * failed bind an open connection keeps the process alive). Failures become a DirectoryError with a
 * reason and a message fit to show and record: it names the provider and its URL, never the password.
 */
import { checkServerIdentity, rootCertificates } from 'node:tls';
import { Client, type Entry, NoSuchObjectError, ResultCodeError, TimeLimitExceededError } from 'ldapts';
import type { LdapProvider } from '#config/ldap.ts';
import { BindPasswordUnavailable, bindPassword } from './bind-password.ts';
import {
  dnKey,
  groupByCnFilter,
  isGroupEntry,
  memberDn,
  memberEntryFilter,
  usersByLinkFilter,
  usersByNameFilter,
  values,
} from './filters.ts';

export type DirectoryFailure = 'unreachable' | 'bind' | 'timeout' | 'search';

export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
  constructor(
    readonly reason: DirectoryFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface DirectoryMember {
  /** The entry's DN: GitLab's `extern_uid` of an LDAP identity. */
  dn: string;
  /** The value of the provider's username attribute (`uid`). */
  username: string;
  /** The first value of the provider's mail attribute, if the entry has one. */
  email: string | null;
}

/** A link's source: GitLab's `cn` (an LDAP group) or `filter` (users matching an LDAP filter). */
export type GroupSelector = { cn: string } | { filter: string };

export interface GroupMembers {
  /** False when no group of that cn exists under the group base (a filter always "exists"). */
  found: boolean;
  /** Sorted by username; each person once. */
  members: DirectoryMember[];
}

/** Base-scoped reads in flight at once on the one connection. */
const PARALLEL_READS = 16;
/** Names per `memberUid` lookup search (one OR filter each). */
const NAMES_PER_SEARCH = 100;

export async function readLdapGroupMembers(
  provider: LdapProvider,
  selector: GroupSelector,
): Promise<GroupMembers> {
  const password = await bindPassword(provider).catch((error: unknown) => {
    throw error instanceof BindPasswordUnavailable ? new DirectoryError('bind', error.message) : error;
  });
  // A CA of the provider's own is trusted beside Node's (`ca` alone would replace them).
  const tls = provider.tlsCa === undefined ? {} : { ca: [...rootCertificates, provider.tlsCa] };
  const ldaps = /^ldaps:/i.test(provider.url);
  const client = new Client({
    url: provider.url,
    timeout: provider.timeoutMs,
    connectTimeout: provider.timeoutMs,
    // Given TLS options, ldapts speaks TLS from the first byte: only for ldaps.
    ...(ldaps ? { tlsOptions: tls } : {}),
  });
  let phase: Phase = 'connect';
  try {
    if (provider.startTls && !ldaps) {
      phase = 'tls';
      // The certificate is checked against the URL's host: the upgraded socket knows none.
      const host = new URL(provider.url).hostname.replace(/^\[|\]$/g, '');
      await client.startTLS({
        ...tls,
        checkServerIdentity: (_name, cert) => checkServerIdentity(host, cert),
      });
    }
    phase = 'bind';
    await client.bind(provider.bindDn, password);
    phase = 'search';
    const reader = new EntryReader(client, provider);
    return 'cn' in selector ? await reader.group(selector.cn) : await reader.filtered(selector.filter);
  } catch (error) {
    throw directoryError(error, phase, provider, password);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

class EntryReader {
  private readonly attributes: string[];

  constructor(
    private readonly client: Client,
    private readonly provider: LdapProvider,
  ) {
    this.attributes = [
      'objectClass',
      provider.uidAttribute,
      provider.mailAttribute,
      'member',
      'uniqueMember',
      'memberUid',
    ];
  }

  async group(cn: string): Promise<GroupMembers> {
    const { searchEntries: groups } = await this.client.search(this.provider.groupBase, {
      scope: 'sub',
      filter: groupByCnFilter(cn),
      attributes: ['member', 'uniqueMember', 'memberUid'],
    });
    if (groups.length === 0) return { found: false, members: [] };

    const people = new Members(this.provider);
    const direct = membership(groups);
    const nested: Entry[] = [];
    for (const entry of await this.entries(direct.dns, true)) {
      if (isGroupEntry(entry)) nested.push(entry);
      else people.add(entry);
    }
    // One level only: a group inside a nested group is not read (GitLab reads no deeper either).
    const inner = membership(nested);
    const seen = new Set(direct.dns.map(dnKey));
    for (const entry of await this.entries(
      inner.dns.filter((dn) => !seen.has(dnKey(dn))),
      false,
    )) {
      people.add(entry);
    }
    for (const entry of await this.usersNamed([...direct.names, ...inner.names])) people.add(entry);
    return { found: true, members: people.list() };
  }

  async filtered(filter: string): Promise<GroupMembers> {
    const { searchEntries } = await this.client.search(this.provider.base, {
      scope: 'sub',
      filter: usersByLinkFilter(this.provider.userFilter, filter),
      attributes: this.attributes,
    });
    const people = new Members(this.provider);
    for (const entry of searchEntries) people.add(entry);
    return { found: true, members: people.list() };
  }

  /** Each DN's entry if it is a user (or, when `groups`, a group); a DN naming nothing is skipped. */
  private async entries(dns: readonly string[], groups: boolean): Promise<Entry[]> {
    const filter = memberEntryFilter(this.provider.userFilter, groups);
    const found: Entry[] = [];
    for (let start = 0; start < dns.length; start += PARALLEL_READS) {
      const batch = dns.slice(start, start + PARALLEL_READS);
      const results = await Promise.all(
        batch.map((dn) =>
          this.client.search(dn, { scope: 'base', filter, attributes: this.attributes }).then(
            (result) => result.searchEntries,
            (error: unknown) => {
              if (error instanceof NoSuchObjectError) return [];
              throw error;
            },
          ),
        ),
      );
      found.push(...results.flat());
    }
    return found;
  }

  /** Users under the base whose username attribute is one of `names` (posixGroup's memberUid). */
  private async usersNamed(names: readonly string[]): Promise<Entry[]> {
    const unique = [...new Set(names)];
    const found: Entry[] = [];
    for (let start = 0; start < unique.length; start += NAMES_PER_SEARCH) {
      const { searchEntries } = await this.client.search(this.provider.base, {
        scope: 'sub',
        filter: usersByNameFilter(
          this.provider.userFilter,
          this.provider.uidAttribute,
          unique.slice(start, start + NAMES_PER_SEARCH),
        ),
        attributes: this.attributes,
      });
      found.push(...searchEntries);
    }
    return found;
  }
}

/** Member DNs (deduplicated) and member names of a set of group entries. */
function membership(groups: readonly Entry[]): { dns: string[]; names: string[] } {
  const dns = new Map<string, string>();
  const names: string[] = [];
  for (const group of groups) {
    for (const value of [...values(group, 'member'), ...values(group, 'uniqueMember')]) {
      const dn = memberDn(value);
      if (dn !== '' && !dns.has(dnKey(dn))) dns.set(dnKey(dn), dn);
    }
    names.push(...values(group, 'memberUid'));
  }
  return { dns: [...dns.values()], names };
}

class Members {
  private readonly byDn = new Map<string, DirectoryMember>();

  constructor(private readonly provider: LdapProvider) {}

  /** An entry without a username is no GitLab user (GitLab skips it too). */
  add(entry: Entry): void {
    const username = values(entry, this.provider.uidAttribute)[0];
    if (username === undefined || this.byDn.has(dnKey(entry.dn))) return;
    const email = values(entry, this.provider.mailAttribute)[0] ?? null;
    this.byDn.set(dnKey(entry.dn), { dn: entry.dn, username, email });
  }

  list(): DirectoryMember[] {
    return [...this.byDn.values()].sort(
      (a, b) => a.username.localeCompare(b.username) || a.dn.localeCompare(b.dn),
    );
  }
}

type Phase = 'connect' | 'tls' | 'bind' | 'search';

/** Node's socket errors carry a string code (ECONNREFUSED, ENOTFOUND, ECONNRESET, …). */
/** Node's codes for a peer certificate that does not verify (untrusted, expired, wrong name). */
const isCertificateError = (error: Error): boolean =>
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME_INVALID/.test(
    String((error as { code?: unknown }).code ?? ''),
  );

const isSocketError = (error: Error): boolean =>
  typeof (error as { code?: unknown }).code === 'string' ||
  /^(Socket error|Connection closed|Socket connection not established)/.test(error.message);

function directoryError(
  error: unknown,
  phase: Phase,
  provider: LdapProvider,
  password: string,
): DirectoryError {
  if (error instanceof DirectoryError) return error;
  const cause = error instanceof Error ? error : new Error(String(error));
  const server = `LDAP server ${provider.name} (${provider.url})`;
  const detail = describe(cause);
  let reason: DirectoryFailure;
  let message: string;
  if (cause instanceof TimeLimitExceededError || /timed out|timeout/i.test(cause.message)) {
    reason = 'timeout';
    message = `${server} did not answer within ${provider.timeoutMs} ms`;
  } else if (isCertificateError(cause)) {
    reason = 'unreachable';
    message = `${server}: its TLS certificate was refused: ${detail}`;
  } else if (isSocketError(cause) || phase === 'connect') {
    reason = 'unreachable';
    message = `${server} is unreachable: ${detail}`;
  } else if (phase === 'tls') {
    reason = 'unreachable';
    message = `${server}: StartTLS failed: ${detail}`;
  } else if (phase === 'bind') {
    reason = 'bind';
    message = `${server} refused the bind as ${provider.bindDn}: ${detail}`;
  } else {
    reason = 'search';
    message = `${server}: search failed: ${detail}`;
  }
  // Servers may echo what they were sent; the password never leaves in a message.
  if (password !== '') message = message.split(password).join('[FILTERED]');
  return new DirectoryError(reason, message);
}

/** LDAP result codes a sync meets (RFC 4511 §4.1.9), named where the server sent no diagnostic. */
const RESULT_CODES: Record<number, string> = {
  3: 'time limit exceeded',
  4: 'size limit exceeded',
  8: 'strong authentication required',
  13: 'confidentiality required',
  32: 'no such object',
  34: 'invalid DN syntax',
  48: 'inappropriate authentication',
  49: 'invalid credentials',
  50: 'insufficient access rights',
  51: 'busy',
  52: 'unavailable',
  53: 'unwilling to perform',
};

function describe(error: Error): string {
  const text = (error.message.split('\n')[0] ?? '').trim();
  if (!(error instanceof ResultCodeError)) return text || 'unknown error';
  const name = RESULT_CODES[error.code] ?? `result code ${error.code}`;
  return text === '' || /^Code: 0x/i.test(text) ? name : `${name} (${text})`;
}
