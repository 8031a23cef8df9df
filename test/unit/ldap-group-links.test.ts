/** LDAP group link rules: naming a link (Grape's exactly_one_of), GitLab's model checks, the entity. */
import { describe, expect, it } from 'vitest';
import {
  byCreation,
  ldapGroupLinkEntity,
  linkNameOf,
  linkNameRefusal,
  linkRefusal,
  namesNoLink,
  newLdapGroupLink,
} from '#domain/ldap-group-links.ts';
import { parseFilter } from '#ldap/filters.ts';

describe('linkNameOf', () => {
  it('names a link by cn or by filter', () => {
    expect(linkNameOf({ provider: 'ldapmain', cn: 'devs' })).toEqual({
      provider: 'ldapmain',
      kind: 'cn',
      value: 'devs',
    });
    expect(linkNameOf({ provider: 'ldapmain', filter: '(ou=x)' })).toEqual({
      provider: 'ldapmain',
      kind: 'filter',
      value: '(ou=x)',
    });
  });

  it('refuses both, or neither (a blank value counts as not given, as the model blanks it)', () => {
    expect(linkNameRefusal({ provider: 'p', cn: 'a', filter: '(a=b)' })).toBe(
      'cn, filter are mutually exclusive',
    );
    expect(linkNameRefusal({ provider: 'p' })).toBe(
      'cn, filter are missing, exactly one parameter must be provided',
    );
    expect(linkNameRefusal({ provider: 'p', cn: ' ', filter: '' })).toBe(
      'cn, filter are missing, exactly one parameter must be provided',
    );
    expect(linkNameRefusal({ provider: 'p', cn: ' ', filter: '(a=b)' })).toBeUndefined();
  });
});

describe('linkRefusal', () => {
  it.each([
    [{ provider: 'ldapmain', kind: 'filter', value: '(&(ou=a)(uid=b))' }, undefined],
    [{ provider: 'ldapmain', kind: 'filter', value: 'uid=b' }, undefined],
    [{ provider: 'ldapmain', kind: 'filter', value: '((uid=b)' }, 'Filter is invalid'],
    [{ provider: 'ldapmain', kind: 'cn', value: '((not a filter' }, undefined],
    [{ provider: ' ', kind: 'cn', value: 'devs' }, "Provider can't be blank"],
  ] as const)('%j → %s', (name, refusal) => {
    const parses = (filter: string) => {
      try {
        parseFilter(filter);
        return true;
      } catch {
        return false;
      }
    };
    expect(linkRefusal(name, parses)).toBe(refusal);
  });
});

describe('links', () => {
  it('a cn link shows a null filter; a filter link a null cn', () => {
    const cnLink = newLdapGroupLink(
      3,
      { provider: 'ldapmain', kind: 'cn', value: 'devs' },
      30,
      '2026-01-01T00:00:00.000Z',
    );
    expect(ldapGroupLinkEntity(cnLink)).toEqual({
      cn: 'devs',
      group_access: 30,
      provider: 'ldapmain',
      filter: null,
    });
    const filterLink = newLdapGroupLink(
      3,
      { provider: 'ldapmain', kind: 'filter', value: '(ou=x)' },
      40,
      '2025-01-01T00:00:00.000Z',
    );
    expect(ldapGroupLinkEntity(filterLink)).toEqual({
      cn: null,
      group_access: 40,
      provider: 'ldapmain',
      filter: '(ou=x)',
    });
    expect([cnLink, filterLink].sort(byCreation)).toEqual([filterLink, cnLink]);
  });

  it('names longer than any stored one name no link', () => {
    expect(namesNoLink({ provider: 'ldapmain', kind: 'cn', value: 'c'.repeat(255) })).toBe(false);
    expect(namesNoLink({ provider: 'ldapmain', kind: 'cn', value: 'c'.repeat(256) })).toBe(true);
    expect(namesNoLink({ provider: 'p'.repeat(256), kind: 'cn', value: 'c' })).toBe(true);
  });
});
