/**
 * The connection goes to the address the guard checked, with no second lookup. The guard's resolver is
 * replaced by one that knows names the system resolver does not: a delivery to such a name can only arrive
 * if the connection used the checked answer, since any other lookup would fail.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const answers = new Map<string, LookupAddress[]>();
const lookup = vi.fn(async (host: string) => {
  const found = answers.get(host);
  if (found === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
});
vi.mock('node:dns/promises', () => ({ lookup, default: { lookup } }));

const { sendDelivery } = await import('../../shared/delivery/send.ts');
const { checkHookUrl } = await import('../../shared/egress/address-guard.ts');

const seen: string[] = [];
const server = createServer((request: IncomingMessage, response) => {
  seen.push(`${request.headers.host} ${request.url}`);
  response.end('ok');
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  answers.clear();
  lookup.mockClear();
  seen.length = 0;
});

const deliver = (url: string, allowLocal: boolean) =>
  sendDelivery({ url, headers: {}, body: '{}', verifyTls: true, policy: { allowLocal, allowlist: [] } });

describe('address pinning', () => {
  it('connects to the checked address after exactly one lookup', async () => {
    answers.set('pinned.test', [{ address: '127.0.0.1', family: 4 }]);
    const result = await deliver(`http://pinned.test:${port}/hook`, true);
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'ok' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([`pinned.test:${port} /hook`]);
  });

  it('refuses a name when any of its addresses is blocked, without connecting', async () => {
    answers.set('mixed.test', [
      { address: '8.8.8.8', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    expect(await deliver(`http://mixed.test:${port}/hook`, false)).toMatchObject({
      kind: 'refused',
      reason:
        'mixed.test resolves to a blocked address: Requests to the local network (10.0.0.7) are not allowed',
    });
    answers.set('rebind.test', [{ address: '::ffff:127.0.0.1', family: 6 }]);
    expect(await deliver(`http://rebind.test:${port}/hook`, false)).toMatchObject({
      kind: 'refused',
      reason: 'rebind.test resolves to a blocked address: Requests to localhost (127.0.0.1) are not allowed',
    });
    expect(seen).toEqual([]);
  });

  it('checks a literal address without any lookup', async () => {
    const result = await deliver(`http://127.0.0.1:${port}/literal`, true);
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('applies the same check when a hook is saved', async () => {
    answers.set('internal.test', [{ address: '192.168.0.10', family: 4 }]);
    expect(await checkHookUrl('https://internal.test/hook', { allowLocal: false, allowlist: [] })).toEqual({
      ok: false,
      reason:
        'internal.test resolves to a blocked address: Requests to the local network (192.168.0.10) are not allowed',
    });
    expect(await checkHookUrl('https://internal.test/hook', { allowLocal: true, allowlist: [] })).toEqual({
      ok: true,
    });
  });
});
