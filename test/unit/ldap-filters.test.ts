import { describe, expect, it } from 'vitest';
import {
  dnKey,
  groupByCnFilter,
  isGroupEntry,
  memberDn,
  memberEntryFilter,
  parseFilter,
  usersByLinkFilter,
  usersByNameFilter,
  values,
} from '#ldap/filters.ts';

describe('LDAP search filters', () => {
  it('a cn is an escaped value: filter syntax in it cannot widen the search', () => {
    expect(groupByCnFilter('developers').toString()).toBe('(cn=developers)');
    expect(groupByCnFilter('*').toString()).toBe('(cn=\\2a)');
    expect(groupByCnFilter('a)(cn=*').toString()).toBe('(cn=a\\29\\28cn=\\2a)');
    expect(groupByCnFilter('back\\slash').toString()).toBe('(cn=back\\5cslash)');
  });

  it('memberUid names: the user filter AND any of the names, each escaped', () => {
    expect(usersByNameFilter('(objectClass=inetOrgPerson)', 'uid', ['alice', 'b*b']).toString()).toBe(
      '(&(objectClass=inetOrgPerson)(|(uid=alice)(uid=b\\2ab)))',
    );
  });

  it('configured filters are taken with or without outer parentheses', () => {
    expect(parseFilter('objectClass=person').toString()).toBe('(objectClass=person)');
    expect(parseFilter(' (uid=alice) ').toString()).toBe('(uid=alice)');
    expect(usersByLinkFilter('objectClass=inetOrgPerson', '(|(uid=a)(uid=b))').toString()).toBe(
      '(&(objectClass=inetOrgPerson)(|(uid=a)(uid=b)))',
    );
    expect(() => parseFilter('(uid=alice')).toThrow();
  });

  it('a member DN may name a user, or at the first level a group of a known schema', () => {
    expect(memberEntryFilter('(objectClass=inetOrgPerson)', false).toString()).toBe(
      '(objectClass=inetOrgPerson)',
    );
    expect(memberEntryFilter('(objectClass=inetOrgPerson)', true).toString()).toBe(
      '(|(objectClass=inetOrgPerson)(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
    );
  });
});

describe('LDAP entries and DNs', () => {
  it('reads attribute values whatever their case and shape', () => {
    const entry = {
      dn: 'uid=a,dc=x',
      UID: 'alice',
      mail: ['a@x.org', 'b@x.org'],
      memberUid: [],
      photo: Buffer.from('hi'),
    };
    expect(values(entry, 'uid')).toEqual(['alice']);
    expect(values(entry, 'MAIL')).toEqual(['a@x.org', 'b@x.org']);
    expect(values(entry, 'memberUid')).toEqual([]);
    expect(values(entry, 'photo')).toEqual(['hi']);
    expect(values(entry, 'cn')).toEqual([]);
  });

  it('knows group entries by their object class', () => {
    expect(isGroupEntry({ dn: 'cn=g', objectClass: ['top', 'GroupOfNames'] })).toBe(true);
    expect(isGroupEntry({ dn: 'cn=g', objectClass: 'posixGroup' })).toBe(true);
    expect(isGroupEntry({ dn: 'uid=a', objectClass: ['inetOrgPerson'] })).toBe(false);
  });

  it('a uniqueMember value loses its optional UID bit string', () => {
    expect(memberDn("uid=carol,ou=people,dc=example,dc=com#'0101'B")).toBe(
      'uid=carol,ou=people,dc=example,dc=com',
    );
    expect(memberDn(' uid=carol,ou=people,dc=example,dc=com ')).toBe('uid=carol,ou=people,dc=example,dc=com');
  });

  it('DNs compare case-insensitively, without spaces around separators, escapes kept', () => {
    expect(dnKey('UID=Alice , OU=People,dc=Example')).toBe('uid=alice,ou=people,dc=example');
    expect(dnKey('cn=Smith\\, John,dc=x')).toBe('cn=smith\\, john,dc=x');
  });
});
