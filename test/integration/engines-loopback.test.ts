/**
 * The engines behind the local runtime answer this machine only, as its gateway does: DynamoDB
 * Local (which has no option for it: bin/local/java/LoopbackDynamoDbLocal.java) and s3rver accept
 * any credentials, so on every interface anyone on the network could read and write the whole
 * table and bucket. Every socket listening on their ports is a loopback one, read from the
 * kernel's tables (/proc/net/tcp, tcp6). Only `npm run sam-env -- --serve` asks for every
 * interface, for Docker's containers, and gets it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { startDynamoDbLocal, startS3rver } from '../../bin/local/engines.ts';

const LISTEN = '0A';

/** The local addresses of the sockets listening on `port`, as ss prints them. */
function listeningOn(port: number): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== LISTEN) continue;
      const [address = '', hexPort = ''] = local.split(':');
      if (Number.parseInt(hexPort, 16) === port) found.push(readable(address));
    }
  }
  return found;
}

/** The kernel writes addresses as 32-bit words in host order (little-endian here). */
function readable(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) =>
    (word.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16)),
  );
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.every((b) => b === 0)) return '::';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return '::1';
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const portOf = (endpoint: string) => Number(new URL(endpoint).port);
const kernelTables = existsSync('/proc/net/tcp');

describe.skipIf(!kernelTables)('the engines listen on loopback only', () => {
  it('reads the kernel’s tables as ss does', () => {
    expect(
      ['0100007F', '00000000', '00000000000000000000000001000000', '0000000000000000FFFF00000100007F'].map(
        readable,
      ),
    ).toEqual(['127.0.0.1', '0.0.0.0', '::1', '::ffff:127.0.0.1']);
    expect(readable('00000000000000000000000000000000')).toBe('::');
  });

  it.each([
    ['DynamoDB Local', inject('dynamodbEndpoint')],
    ['s3rver', inject('s3Endpoint')],
    ['the gateway', inject('baseUrl')],
  ])('%s', (_name, endpoint) => {
    const addresses = listeningOn(portOf(endpoint));
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !LOOPBACK.test(address))).toEqual([]);
  });

  it('every interface only when asked for it (sam local’s containers)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engines-everywhere-'));
    const dynamodb = await startDynamoDbLocal({ address: '0.0.0.0' });
    const s3 = await startS3rver({ dataDir, bucket: 'everywhere', address: '0.0.0.0' });
    try {
      // IPv4's wildcard, or IPv6's that takes IPv4 too (the jar as it is, when no JDK built the launcher).
      const everywhere = [expect.stringMatching(/^(0\.0\.0\.0|::)$/)];
      expect(listeningOn(portOf(dynamodb.endpoint))).toEqual(everywhere);
      expect(listeningOn(portOf(s3.endpoint))).toEqual(everywhere);
    } finally {
      await s3.stop();
      await dynamodb.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
