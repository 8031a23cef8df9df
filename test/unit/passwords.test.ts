import { describe, expect, it } from 'vitest';
import { hashPassword, randomPassword, verifyPassword } from '#domain/passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt, a random salt each time', () => {
    const one = hashPassword('correct horse');
    const two = hashPassword('correct horse');
    expect(one).toMatch(/^scrypt\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(two).not.toBe(one);
    expect(one).not.toContain('correct horse');
  });

  it('verifies the right password only', () => {
    const stored = hashPassword('correct horse');
    expect(verifyPassword('correct horse', stored)).toBe(true);
    expect(verifyPassword('correct horsf', stored)).toBe(false);
    expect(verifyPassword('', stored)).toBe(false);
    expect(verifyPassword('correct horse', hashPassword('other'))).toBe(false);
  });

  it('handles unicode passwords', () => {
    const stored = hashPassword('pässwörd-🔑');
    expect(verifyPassword('pässwörd-🔑', stored)).toBe(true);
    expect(verifyPassword('passwörd-🔑', stored)).toBe(false);
  });

  it('refuses stored values it did not write', () => {
    expect(verifyPassword('x', '')).toBe(false);
    expect(verifyPassword('x', 'plain-text')).toBe(false);
    expect(verifyPassword('x', 'bcrypt$abc$def')).toBe(false);
    expect(verifyPassword('x', 'scrypt$$def')).toBe(false);
    expect(verifyPassword('x', 'scrypt$abc$')).toBe(false);
  });

  it('fails closed when the stored key decodes to nothing', () => {
    expect(verifyPassword('any password', 'scrypt$c2FsdA==$!!!')).toBe(false);
    expect(verifyPassword('', 'scrypt$c2FsdA==$=')).toBe(false);
  });

  it('makes random passwords of 32 url-safe characters', () => {
    const one = randomPassword();
    expect(one).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(randomPassword()).not.toBe(one);
  });
});
