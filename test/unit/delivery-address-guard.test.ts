import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressPolicy, checkHookUrl } from '../../shared/egress/address-guard.ts';
import { parseHookUrl } from '../../shared/egress/hook-url.ts';
import { addressVerdict, allowlistedHost } from '../../shared/egress/ip-policy.ts';

const strict = { allowLocal: false, allowlist: [] };
const local = { allowLocal: true, allowlist: [] };

describe('checkHookUrl', () => {
  it('refuses schemes other than http and https', async () => {
    expect(await checkHookUrl('ftp://example.com/hook', strict)).toEqual({
      ok: false,
      reason: 'Only http and https URLs are allowed',
    });
    expect(await checkHookUrl('javascript:alert(1)', strict)).toEqual({
      ok: false,
      reason: 'Only http and https URLs are allowed',
    });
  });

  it('refuses garbage and urls the parser would silently rewrite', async () => {
    expect(await checkHookUrl('not a url', strict)).toEqual({
      ok: false,
      reason: 'Only http and https URLs are allowed',
    });
    expect(await checkHookUrl('http://exa mple.com/', strict)).toEqual({
      ok: false,
      reason: 'URL contains whitespace or control characters',
    });
    expect(await checkHookUrl('http://exa\nmple.com/', strict)).toEqual({
      ok: false,
      reason: 'URL contains whitespace or control characters',
    });
    expect(await checkHookUrl('http://[::1/', strict)).toEqual({ ok: false, reason: 'URL is invalid' });
    expect(await checkHookUrl('http://1.2.3.256/', strict)).toEqual({ ok: false, reason: 'URL is invalid' });
    expect(await checkHookUrl('http:example.com/', strict)).toEqual({
      ok: false,
      reason: 'Only http and https URLs are allowed',
    });
  });

  it('refuses urls over 2000 characters and accepts one of exactly 2000', async () => {
    const prefix = 'http://8.8.8.8/';
    expect(await checkHookUrl(prefix + 'a'.repeat(2001 - prefix.length), strict)).toEqual({
      ok: false,
      reason: 'URL is longer than 2000 characters',
    });
    expect(await checkHookUrl(prefix + 'a'.repeat(2000 - prefix.length), strict)).toEqual({ ok: true });
  });

  it('lets a name that does not resolve pass (it is checked again at delivery)', async () => {
    expect(await checkHookUrl('https://hook.nonexistent.invalid/receive', strict)).toEqual({ ok: true });
  });

  it('accepts public addresses in any spelling', async () => {
    expect(await checkHookUrl('https://8.8.8.8/hook', strict)).toEqual({ ok: true });
    expect(await checkHookUrl('http://134744072/hook', strict)).toEqual({ ok: true });
    expect(await checkHookUrl('https://[2606:4700:4700::1111]/hook', strict)).toEqual({ ok: true });
    expect(await checkHookUrl('https://user:secret@8.8.8.8/hook', strict)).toEqual({ ok: true });
  });

  const blockedLiterals: [string, string][] = [
    ['http://127.0.0.1/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://127.1/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://0x7f000001/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://2130706433/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://0177.0.0.1/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://[::1]/', 'Requests to localhost (::1) are not allowed'],
    ['http://[::ffff:127.0.0.1]/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://[::ffff:7f00:1]/', 'Requests to localhost (127.0.0.1) are not allowed'],
    ['http://10.0.0.1/', 'Requests to the local network (10.0.0.1) are not allowed'],
    ['http://172.16.5.4/', 'Requests to the local network (172.16.5.4) are not allowed'],
    ['http://192.168.1.1/', 'Requests to the local network (192.168.1.1) are not allowed'],
    ['http://[fc00::1]/', 'Requests to the local network (fc00::1) are not allowed'],
    ['http://169.254.1.1/', 'Requests to the local network (169.254.1.1) are not allowed'],
    ['http://[fe80::1]/', 'Requests to the local network (fe80::1) are not allowed'],
    ['http://100.64.0.1/', 'Requests to the local network (100.64.0.1) are not allowed'],
    ['http://[::ffff:10.0.0.1]/', 'Requests to the local network (10.0.0.1) are not allowed'],
  ];

  it.each(blockedLiterals)(
    'refuses %s when local requests are disallowed and allows it when allowed',
    async (url, reason) => {
      expect(await checkHookUrl(url, strict)).toEqual({ ok: false, reason });
      expect(await checkHookUrl(url, local)).toEqual({ ok: true });
    },
  );

  const alwaysBlocked: [string, string][] = [
    [
      'http://169.254.169.254/latest/meta-data/',
      'Requests to the cloud metadata address 169.254.169.254 are not allowed',
    ],
    [
      'http://[::ffff:169.254.169.254]/',
      'Requests to the cloud metadata address 169.254.169.254 are not allowed',
    ],
    ['http://[fd00:ec2::254]/', 'Requests to the cloud metadata address fd00:ec2::254 are not allowed'],
    ['http://0.0.0.0/', 'Requests to unspecified address 0.0.0.0 are not allowed'],
    ['http://0/', 'Requests to unspecified address 0.0.0.0 are not allowed'],
    ['http://[::]/', 'Requests to unspecified address :: are not allowed'],
    ['http://255.255.255.255/', 'Requests to broadcast address 255.255.255.255 are not allowed'],
    ['http://224.0.0.1/', 'Requests to multicast address 224.0.0.1 are not allowed'],
    ['http://[ff02::1]/', 'Requests to multicast address ff02::1 are not allowed'],
    ['http://240.0.0.1/', 'Requests to reserved address 240.0.0.1 are not allowed'],
    ['http://[::127.0.0.1]/', 'Requests to ipv4Compatible address ::7f00:1 are not allowed'],
    ['http://[64:ff9b::7f00:1]/', 'Requests to rfc6052 address 64:ff9b::7f00:1 are not allowed'],
  ];

  it.each(alwaysBlocked)('refuses %s even when local requests are allowed', async (url, reason) => {
    expect(await checkHookUrl(url, strict)).toEqual({ ok: false, reason });
    expect(await checkHookUrl(url, local)).toEqual({ ok: false, reason });
  });

  it('resolves a name and refuses it when it resolves to a blocked address', async () => {
    expect(await checkHookUrl('http://localhost:8080/hook', strict)).toEqual({
      ok: false,
      reason: 'localhost resolves to a blocked address: Requests to localhost (127.0.0.1) are not allowed',
    });
    expect(await checkHookUrl('http://localhost:8080/hook', local)).toEqual({ ok: true });
  });

  it('lets allowlisted hosts, addresses and networks through', async () => {
    expect(await checkHookUrl('http://localhost/', { allowLocal: false, allowlist: ['LOCALHOST'] })).toEqual({
      ok: true,
    });
    expect(await checkHookUrl('http://0x7f000001/', { allowLocal: false, allowlist: ['127.0.0.1'] })).toEqual(
      {
        ok: true,
      },
    );
    expect(await checkHookUrl('http://10.1.2.3/', { allowLocal: false, allowlist: ['10.0.0.0/8'] })).toEqual({
      ok: true,
    });
    expect(
      await checkHookUrl('http://169.254.169.254/', { allowLocal: true, allowlist: ['169.254.169.254'] }),
    ).toEqual({ ok: true });
    expect(await checkHookUrl('http://10.1.2.3/', { allowLocal: false, allowlist: ['10.0.0.0/16'] })).toEqual(
      {
        ok: false,
        reason: 'Requests to the local network (10.1.2.3) are not allowed',
      },
    );
  });
});

describe('addressVerdict', () => {
  it('compares IPv4-mapped addresses and networks as their IPv4 equivalents', () => {
    expect(addressVerdict('::ffff:10.1.2.3', { allowLocal: false, allowlist: ['10.1.0.0/16'] })).toEqual({
      allowed: true,
    });
    expect(addressVerdict('10.1.2.3', { allowLocal: false, allowlist: ['::ffff:10.1.0.0/112'] })).toEqual({
      allowed: true,
    });
    expect(addressVerdict('fd00::5', { allowLocal: false, allowlist: ['fd00::/64'] })).toEqual({
      allowed: true,
    });
    expect(addressVerdict('fd00:1::5', { allowLocal: false, allowlist: ['fd00::/64'] })).toEqual({
      allowed: false,
      reason: 'Requests to the local network (fd00:1::5) are not allowed',
    });
  });

  it('ignores malformed allowlist entries and rejects non-addresses', () => {
    expect(
      addressVerdict('127.0.0.1', { allowLocal: false, allowlist: ['127.0.0.0/99', 'nonsense/8'] }),
    ).toEqual({
      allowed: false,
      reason: 'Requests to localhost (127.0.0.1) are not allowed',
    });
    expect(addressVerdict('example.com', strict)).toEqual({
      allowed: false,
      reason: 'example.com is not an IP address',
    });
  });
});

describe('allowlistedHost', () => {
  it('matches names exactly or by *. suffix, case-insensitively and ignoring a trailing dot', () => {
    expect(allowlistedHost('hooks.example.com', ['*.example.com'])).toBe(true);
    expect(allowlistedHost('example.com', ['*.example.com'])).toBe(false);
    expect(allowlistedHost('evilexample.com', ['*.example.com'])).toBe(false);
    expect(allowlistedHost('Example.COM.', ['example.com'])).toBe(true);
    expect(allowlistedHost('127.0.0.1', ['127.0.0.0/8', '127.0.0.1'])).toBe(false);
  });
});

describe('parseHookUrl', () => {
  it('strips userinfo into Basic auth and keeps the canonical host that will be dialled', () => {
    const parsed = parseHookUrl('https://us%40er:p%3Ass@[::ffff:127.0.0.1]:8443/hook?x=1#frag');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.target.url.href).toBe('https://[::ffff:7f00:1]:8443/hook?x=1');
    expect(parsed.target.host).toBe('::ffff:7f00:1');
    expect(parsed.target.literalFamily).toBe(6);
    expect(parsed.target.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
  });
});

describe('addressPolicy', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads ALLOW_LOCAL_REQUESTS and HOOK_ALLOWLIST on every call', () => {
    vi.stubEnv('ALLOW_LOCAL_REQUESTS', '');
    vi.stubEnv('HOOK_ALLOWLIST', '');
    expect(addressPolicy()).toEqual({ allowLocal: false, allowlist: [] });
    vi.stubEnv('ALLOW_LOCAL_REQUESTS', 'true');
    vi.stubEnv('HOOK_ALLOWLIST', ' hooks.internal , 10.0.0.0/8,,192.168.1.5 ');
    expect(addressPolicy()).toEqual({
      allowLocal: true,
      allowlist: ['hooks.internal', '10.0.0.0/8', '192.168.1.5'],
    });
  });
});
