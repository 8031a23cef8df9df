/** The Idempotency-Key's rules: which keys are valid, how a record is named, what a request hashes to. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idempotencyRecordKey, recordable, requestHash, validIdempotencyKey } from '#http/idempotency.ts';

const as = (id: number, method = 'POST', path = '/api/v4/projects/42/issues', impersonatedBy?: number) => ({
  caller: { id } as never,
  impersonatedBy,
  info: { method, path } as never,
});

describe('validIdempotencyKey', () => {
  it('takes 1 to 255 printable ASCII characters, space to tilde', () => {
    for (const key of [
      'a',
      'retry-1',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      ' ',
      '~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}',
      'k'.repeat(255),
    ]) {
      expect(validIdempotencyKey(key), key).toBe(true);
    }
  });

  it('refuses an empty key, a longer one, control characters and anything beyond ASCII', () => {
    for (const key of [
      '',
      'k'.repeat(256),
      'tab\there',
      'line\nbreak',
      'nul\u0000',
      'del\u007f',
      'café',
      '🔑',
      'x\u0080',
    ]) {
      expect(validIdempotencyKey(key), JSON.stringify(key)).toBe(false);
    }
  });
});

describe('idempotencyRecordKey', () => {
  const base = idempotencyRecordKey(as(2), 'k1');

  it('is the base64url SHA-256 of the caller, the sudo admin, the method, the path and the key', () => {
    const expected = createHash('sha256')
      .update(JSON.stringify([2, undefined, 'POST', '/api/v4/projects/42/issues', 'k1']))
      .digest('base64url');
    expect(base).toBe(expected);
    expect(base).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(idempotencyRecordKey(as(2), 'k1')).toBe(base);
  });

  it('differs with each of them', () => {
    const others = [
      idempotencyRecordKey(as(3), 'k1'),
      idempotencyRecordKey(as(2, 'PUT'), 'k1'),
      idempotencyRecordKey(as(2, 'POST', '/api/v4/projects/43/issues'), 'k1'),
      idempotencyRecordKey(as(2, 'POST', '/api/v4/projects/42/issues', 1), 'k1'),
      idempotencyRecordKey(as(2), 'k2'),
    ];
    expect(new Set([base, ...others]).size).toBe(6);
  });

  it('keeps its parts apart: no two callers and keys run together', () => {
    expect(idempotencyRecordKey(as(1), '2k')).not.toBe(idempotencyRecordKey(as(12), 'k'));
  });

  it('names nothing for an anonymous request', () => {
    expect(idempotencyRecordKey({ caller: undefined, info: as(2).info }, 'k1')).toBeUndefined();
  });
});

describe('requestHash', () => {
  const file = (content: string, filename = 'a.txt') => ({
    filename,
    contentType: 'text/plain',
    content: Buffer.from(content),
  });

  it('is the same for the same parameters and files, and differs when any of them does', () => {
    const base = requestHash({ id: 42, title: 'Bolt', labels: ['a', 'b'] }, { file: file('x') });
    expect(requestHash({ id: 42, title: 'Bolt', labels: ['a', 'b'] }, { file: file('x') })).toBe(base);
    const others = [
      requestHash({ id: 43, title: 'Bolt', labels: ['a', 'b'] }, { file: file('x') }),
      requestHash({ id: 42, title: 'Nut', labels: ['a', 'b'] }, { file: file('x') }),
      requestHash({ id: 42, title: 'Bolt', labels: ['b', 'a'] }, { file: file('x') }),
      requestHash({ id: 42, title: 'Bolt', labels: ['a', 'b'] }, { file: file('y') }),
      requestHash({ id: 42, title: 'Bolt', labels: ['a', 'b'] }, { file: file('x', 'b.txt') }),
      requestHash({ id: 42, title: 'Bolt', labels: ['a', 'b'] }, {}),
    ];
    expect(new Set([base, ...others]).size).toBe(7);
  });

  it('hashes a file by its content, not its bytes spelled out', () => {
    const big = requestHash({}, { file: file('z'.repeat(1_000_000)) });
    expect(big).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('recordable', () => {
  it('records 2xx and the 4xx the request itself meets again', () => {
    for (const status of [200, 201, 202, 204, 400, 401, 403, 404, 405, 413, 422])
      expect(recordable(status), `${status}`).toBe(true);
  });

  it('records no redirect, no 5xx, and no 4xx a retry may not meet (timeout, conflict, lock, too early, rate limit)', () => {
    for (const status of [302, 304, 408, 409, 423, 425, 429, 500, 502, 503])
      expect(recordable(status), `${status}`).toBe(false);
  });
});
