/**
 * Reading a hook url the way delivery uses it: one WHATWG parse, userinfo split off (GitLab sends it as
 * Basic auth, never in the request line), and the host reduced to the exact string the connection will
 * use, so the address guard checks what is dialled and nothing else.
 */
import { isIP } from 'node:net';

export const maxHookUrlLength = 2000;

export interface HookTarget {
  /** The url without userinfo, canonicalised by the WHATWG parser (e.g. `0x7f000001` → `127.0.0.1`). */
  url: URL;
  /** Host without IPv6 brackets: what the connection is made to. */
  host: string;
  /** 4 or 6 when the host is an IP literal (no lookup happens), 0 for a name. */
  literalFamily: 0 | 4 | 6;
  /** `Basic …` when the url carried userinfo. */
  authorization?: string;
}

// Explicit `http://` or `https://` only: WHATWG also accepts `http:host` and `http:\\host`, spellings that
// would make the stored url and the dialled url disagree.
const schemePrefix = /^https?:\/\//i;
// Raw whitespace and control characters are silently dropped or rejected by the parser; refuse them so the
// stored url is exactly the one used.
function hasControlOrSpace(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function parseHookUrl(raw: string): { ok: true; target: HookTarget } | { ok: false; reason: string } {
  if (raw.length > maxHookUrlLength) {
    return { ok: false, reason: `URL is longer than ${maxHookUrlLength} characters` };
  }
  if (!schemePrefix.test(raw)) return { ok: false, reason: 'Only http and https URLs are allowed' };
  if (hasControlOrSpace(raw)) return { ok: false, reason: 'URL contains whitespace or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URL is invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'Only http and https URLs are allowed' };
  }
  if (url.hostname === '') return { ok: false, reason: 'URL has no host' };
  const authorization = basicAuthorization(url);
  url.username = '';
  url.password = '';
  url.hash = '';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  return {
    ok: true,
    target: { url, host, literalFamily: family === 4 || family === 6 ? family : 0, authorization },
  };
}

function basicAuthorization(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const credentials = `${percentDecode(url.username)}:${percentDecode(url.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

function percentDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export { displayUrl } from '#domain/urls.ts';
