import { describe, expect, it } from 'vitest';
import { findLdapProvider, LDAP_PROVIDERS_VARIABLE, ldapProviders } from '#config/ldap.ts';

const main = {
  name: 'ldapmain',
  url: 'ldap://127.0.0.1:3389',
  bindDn: 'cn=admin,dc=example,dc=com',
  bindPassword: 'secret',
  base: 'ou=people,dc=example,dc=com',
  groupBase: 'ou=groups,dc=example,dc=com',
};
const env = (value: unknown) => ({ [LDAP_PROVIDERS_VARIABLE]: JSON.stringify(value) });

describe('LDAP providers from the environment', () => {
  it('none configured: an empty list (group sync off)', () => {
    expect(ldapProviders({})).toEqual([]);
    expect(ldapProviders({ [LDAP_PROVIDERS_VARIABLE]: '  ' })).toEqual([]);
  });

  it('fills GitLab’s defaults for what an entry leaves out', () => {
    expect(ldapProviders(env([main]))).toEqual([
      {
        ...main,
        startTls: false,
        userFilter: '(objectClass=inetOrgPerson)',
        uidAttribute: 'uid',
        mailAttribute: 'mail',
        timeoutMs: 10_000,
      },
    ]);
  });

  it('finds a provider by name', () => {
    expect(findLdapProvider('ldapmain', env([main]))?.url).toBe('ldap://127.0.0.1:3389');
    expect(findLdapProvider('other', env([main]))).toBeUndefined();
  });

  it('refuses a malformed setting with what is wrong, never the password', () => {
    expect(() => ldapProviders({ [LDAP_PROVIDERS_VARIABLE]: '{' })).toThrow(
      `${LDAP_PROVIDERS_VARIABLE} is not JSON`,
    );
    expect(() => ldapProviders(env([{ ...main, url: 'http://example.com' }]))).toThrow(
      `${LDAP_PROVIDERS_VARIABLE}: 0.url: Invalid format`,
    );
    const error = (() => {
      try {
        ldapProviders(env([{ ...main, name: 'bad name' }]));
      } catch (caught) {
        return String(caught);
      }
      return '';
    })();
    expect(error).toContain('0.name');
    expect(error).not.toContain('secret');
  });
});

describe('a provider CA', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

  it('is kept as given', () => {
    expect(ldapProviders(env([{ ...main, tlsCa: pem }]))[0]?.tlsCa).toBe(pem);
  });

  it('must be a PEM certificate', () => {
    expect(() => ldapProviders(env([{ ...main, tlsCa: 'not a certificate' }]))).toThrow(
      /^LDAP_PROVIDERS: 0\.tlsCa: /,
    );
  });
});
