import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  COMPRESSION_THRESHOLD_BYTES,
  entityTag,
  matchesNoneMatch,
  preferredCoding,
  represent,
} from '../../shared/http/representation.ts';

const big = JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id, name: `project-${id}` })));
const ok = (body: string) => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body });

describe('preferredCoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.9', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=abc, gzip;q=0.2', 'gzip'],
  ])('%s → %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('matchesNoneMatch', () => {
  const tag = entityTag('[]');
  it('compares weakly, any of a list, and * matches anything', () => {
    expect(tag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(matchesNoneMatch(tag, tag)).toBe(true);
    expect(matchesNoneMatch(tag.slice(2), tag)).toBe(true);
    expect(matchesNoneMatch(`W/"other", ${tag}`, tag)).toBe(true);
    expect(matchesNoneMatch('*', tag)).toBe(true);
    expect(matchesNoneMatch('W/"other"', tag)).toBe(false);
    expect(matchesNoneMatch(undefined, tag)).toBe(false);
  });
});

describe('represent', () => {
  it('tags a JSON 200 to a GET and compresses it with gzip when asked', () => {
    const answer = represent(ok(big), 'GET', { 'accept-encoding': 'gzip, deflate' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toMatchObject({
      ETag: entityTag(big),
      Vary: 'Accept-Encoding',
      'Content-Encoding': 'gzip',
      'Content-Type': 'application/json',
    });
    expect(answer.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(answer.body!, 'base64')).toString('utf8')).toBe(big);
  });

  it('uses br when the client prefers it', () => {
    const answer = represent(ok(big), 'GET', { 'accept-encoding': 'gzip, br' });
    expect(answer.headers?.['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(Buffer.from(answer.body!, 'base64')).toString('utf8')).toBe(big);
  });

  it('sends small bodies and bodies to clients that accept no coding as they are', () => {
    const small = JSON.stringify({ id: 1 });
    expect(Buffer.byteLength(small)).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(represent(ok(small), 'GET', { 'accept-encoding': 'gzip' })).toEqual({
      ...ok(small),
      headers: { 'Content-Type': 'application/json', ETag: entityTag(small), Vary: 'Accept-Encoding' },
    });
    expect(represent(ok(big), 'GET', {})).toEqual({
      ...ok(big),
      headers: { 'Content-Type': 'application/json', ETag: entityTag(big), Vary: 'Accept-Encoding' },
    });
  });

  it('answers 304 with no body when the client holds the body', () => {
    const answer = represent(ok(big), 'GET', {
      'if-none-match': entityTag(big),
      'accept-encoding': 'gzip',
    });
    expect(answer).toEqual({ statusCode: 304, headers: { ETag: entityTag(big), Vary: 'Accept-Encoding' } });
  });

  it('leaves writes, errors and raw bodies alone, and never compresses a HEAD', () => {
    expect(represent(ok(big), 'POST', { 'accept-encoding': 'gzip' })).toEqual(ok(big));
    const notFound = { statusCode: 404, headers: { 'Content-Type': 'application/json' }, body: big };
    expect(represent(notFound, 'GET', { 'accept-encoding': 'gzip' })).toEqual(notFound);
    const raw = { ...ok(Buffer.from(big).toString('base64')), isBase64Encoded: true };
    expect(represent(raw, 'GET', { 'accept-encoding': 'gzip' })).toEqual(raw);
    const text = { statusCode: 200, headers: { 'Content-Type': 'text/plain' }, body: big };
    expect(represent(text, 'GET', { 'accept-encoding': 'gzip' })).toEqual(text);
    const head = represent(ok(big), 'HEAD', { 'accept-encoding': 'gzip' });
    expect(head.headers?.['Content-Encoding']).toBeUndefined();
    expect(head.headers?.ETag).toBe(entityTag(big));
  });
});
