import { describe, expect, it } from 'vitest';
import {
  accessTokenEntity,
  allowsSudo,
  generateTokenSecret,
  hashToken,
  isActive,
  isExpired,
  scopeAllows,
  sudoIdentifier,
  TOKEN_SCOPES,
  tokenUserHint,
} from '#domain/access-tokens.ts';

describe('hashToken()', () => {
  it('is the SHA-256 hex digest of the secret', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashToken('été')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('generateTokenSecret()', () => {
  it('gives glpat-, 20 url-safe characters and the user id in base 36, different each time', () => {
    const one = generateTokenSecret(1);
    const two = generateTokenSecret(1);
    expect(one).toMatch(/^glpat-[A-Za-z0-9_-]{20}\.1$/);
    expect(two).toMatch(/^glpat-[A-Za-z0-9_-]{20}\.1$/);
    expect(one).not.toBe(two);
    expect(generateTokenSecret(123_456_789)).toMatch(/^glpat-[A-Za-z0-9_-]{20}\.21i3v9$/);
  });
});

describe('tokenUserHint()', () => {
  it('reads back the user id of a secret generateTokenSecret made', () => {
    expect(tokenUserHint(generateTokenSecret(1))).toBe(1);
    expect(tokenUserHint(generateTokenSecret(123_456_789))).toBe(123_456_789);
  });

  it('names no user for any other secret', () => {
    expect(tokenUserHint('glpat-0123456789abcdefghij')).toBeUndefined();
    expect(tokenUserHint('root-token')).toBeUndefined();
    expect(tokenUserHint('glpat-0123456789abcdefghij.')).toBeUndefined();
    expect(tokenUserHint('glpat-0123456789abcdefghij.ZZ')).toBeUndefined();
    expect(tokenUserHint(`glpat-0123456789abcdefghij.${'1'.repeat(11)}`)).toBeUndefined();
  });
});

describe('isExpired()', () => {
  it('never expires without a date', () => {
    expect(isExpired(null, new Date('2999-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('expires at midnight UTC at the start of the expiry date', () => {
    expect(isExpired('2026-11-22', new Date('2026-11-21T23:59:59.999Z'))).toBe(false);
    expect(isExpired('2026-11-22', new Date('2026-11-22T00:00:00.000Z'))).toBe(true);
    expect(isExpired('2026-11-22', new Date('2026-11-22T12:00:00.000Z'))).toBe(true);
    expect(isExpired('2026-11-22', new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
    expect(isExpired('2026-11-22', new Date('2025-12-31T00:00:00.000Z'))).toBe(false);
  });
});

describe('isActive()', () => {
  const at = new Date('2026-11-22T10:00:00.000Z');
  it('is neither revoked nor expired', () => {
    expect(isActive({ revoked: false, expires_at: null }, at)).toBe(true);
    expect(isActive({ revoked: false, expires_at: '2026-11-23' }, at)).toBe(true);
    expect(isActive({ revoked: true, expires_at: null }, at)).toBe(false);
    expect(isActive({ revoked: false, expires_at: '2026-11-22' }, at)).toBe(false);
  });
});

describe('scopeAllows()', () => {
  it('api allows everything', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) {
      expect(scopeAllows(['api'], method, false)).toBe(true);
      expect(scopeAllows(['api'], method, true)).toBe(true);
    }
  });

  it('read_api allows reads only', () => {
    expect(scopeAllows(['read_api'], 'GET', false)).toBe(true);
    expect(scopeAllows(['read_api'], 'HEAD', false)).toBe(true);
    expect(scopeAllows(['read_api'], 'POST', false)).toBe(false);
    expect(scopeAllows(['read_api'], 'DELETE', true)).toBe(false);
  });

  it('read_user allows reads of user routes only', () => {
    expect(scopeAllows(['read_user'], 'GET', true)).toBe(true);
    expect(scopeAllows(['read_user'], 'GET', false)).toBe(false);
    expect(scopeAllows(['read_user'], 'PUT', true)).toBe(false);
  });

  it('other scopes allow no API call', () => {
    expect(scopeAllows(['read_repository', 'sudo'], 'GET', true)).toBe(false);
    expect(scopeAllows([], 'GET', true)).toBe(false);
  });

  it('knows GitLab scope names', () => {
    expect(TOKEN_SCOPES).toEqual([
      'api',
      'read_api',
      'read_user',
      'read_repository',
      'write_repository',
      'read_registry',
      'write_registry',
      'sudo',
      'admin_mode',
    ]);
  });
});

describe('accessTokenEntity()', () => {
  it("has GitLab's fields and derives active", () => {
    const token = {
      id: 3,
      user_id: 5,
      name: 'ci',
      scopes: ['api'],
      expires_at: '2026-12-01',
      revoked: false,
      created_at: '2026-11-22T10:00:00.000Z',
      last_used_at: null,
    };
    expect(accessTokenEntity(token, new Date('2026-11-22T10:00:00.000Z'))).toEqual({
      id: 3,
      name: 'ci',
      revoked: false,
      created_at: '2026-11-22T10:00:00.000Z',
      scopes: ['api'],
      user_id: 5,
      last_used_at: null,
      active: true,
      expires_at: '2026-12-01',
    });
    expect(accessTokenEntity(token, new Date('2026-12-01T00:00:00.000Z')).active).toBe(false);
    expect(accessTokenEntity({ ...token, revoked: true }, new Date('2026-11-22T10:00:00.000Z')).active).toBe(
      false,
    );
  });
});

describe('sudo', () => {
  it('takes any value given as the identifier, an empty one included; none when absent or null', () => {
    expect(sudoIdentifier('alice')).toBe('alice');
    expect(sudoIdentifier('42')).toBe('42');
    expect(sudoIdentifier('')).toBe('');
    expect(sudoIdentifier(42)).toBe('42');
    expect(sudoIdentifier(true)).toBe('true');
    expect(sudoIdentifier(['a', 'b'])).toBe('["a","b"]');
    expect(sudoIdentifier(undefined)).toBeUndefined();
    expect(sudoIdentifier(null)).toBeUndefined();
  });

  it('needs the sudo scope, which api does not imply', () => {
    expect(allowsSudo(['api', 'sudo'])).toBe(true);
    expect(allowsSudo(['sudo'])).toBe(true);
    expect(allowsSudo(['api'])).toBe(false);
    expect(allowsSudo(['api', 'read_api', 'read_user', 'admin_mode'])).toBe(false);
  });
});
