/**
 * The LDAP client against a real OpenLDAP server (Debian's slapd on a free loopback port, loaded
 * with test/support/ldap-seed.ldif): each membership schema, nesting one level, the filter form,
 * a missing group, a change between reads, and the failures a sync must record.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryError, readLdapGroupMembers } from '#ldap/directory.ts';
import { type LdapServer, startLdapServer } from '../support/ldap-server.ts';

let server: LdapServer;
let tlsServer: LdapServer;

beforeAll(async () => {
  [server, tlsServer] = await Promise.all([startLdapServer(), startLdapServer(undefined, { tls: true })]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), tlsServer?.stop()]);
});

const person = (username: string) => ({
  dn: `uid=${username},ou=people,dc=example,dc=com`,
  username,
  email: `${username}@example.com`,
});

async function failure(promise: Promise<unknown>): Promise<DirectoryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DirectoryError);
  return error as DirectoryError;
}

describe('reading LDAP group members', () => {
  it('groupOfNames: the member DNs', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'developers' })).toEqual({
      found: true,
      members: [person('alice'), person('bob')],
    });
  });

  it('groupOfUniqueNames: the uniqueMember DNs', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'maintainers' })).toEqual({
      found: true,
      members: [person('carol'), person('dave')],
    });
  });

  it('posixGroup: the memberUid names, looked up under the base', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'operators' })).toEqual({
      found: true,
      members: [person('alice'), person('erin')],
    });
  });

  it('a member that is a group is expanded one level', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'platform' })).toEqual({
      found: true,
      members: [person('alice'), person('bob'), person('frank')],
    });
  });

  it('the cn matches case-insensitively, as the directory compares cn', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'DEVELOPERS' })).toEqual({
      found: true,
      members: [person('alice'), person('bob')],
    });
  });

  it('an existing group without members is found and empty; a missing group is not found', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: 'nobody' })).toEqual({
      found: true,
      members: [],
    });
    expect(await readLdapGroupMembers(server.provider(), { cn: 'no-such-group' })).toEqual({
      found: false,
      members: [],
    });
  });

  it('filter characters in a cn are values, not filter syntax', async () => {
    expect(await readLdapGroupMembers(server.provider(), { cn: '*' })).toEqual({ found: false, members: [] });
    expect(await readLdapGroupMembers(server.provider(), { cn: 'developers)(cn=*' })).toEqual({
      found: false,
      members: [],
    });
  });

  it('the filter form: the users under the base matching the filter', async () => {
    expect(
      await readLdapGroupMembers(server.provider(), { filter: '(|(uid=carol)(mail=frank@example.com))' }),
    ).toEqual({
      found: true,
      members: [person('carol'), person('frank')],
    });
    expect(await readLdapGroupMembers(server.provider(), { filter: 'sn=Liddell' })).toEqual({
      found: true,
      members: [person('alice')],
    });
    expect(await readLdapGroupMembers(server.provider(), { filter: '(uid=nobody-here)' })).toEqual({
      found: true,
      members: [],
    });
  });

  it('the attribute mapping decides the username and the email', async () => {
    const provider = server.provider({ uidAttribute: 'sn', mailAttribute: 'telephoneNumber' });
    expect(await readLdapGroupMembers(provider, { cn: 'developers' })).toEqual({
      found: true,
      members: [
        { dn: 'uid=bob,ou=people,dc=example,dc=com', username: 'Builder', email: null },
        { dn: 'uid=alice,ou=people,dc=example,dc=com', username: 'Liddell', email: null },
      ],
    });
  });

  it('a membership change shows on the next read', async () => {
    await server.modify(
      [
        'dn: cn=developers,ou=groups,dc=example,dc=com',
        'changetype: modify',
        'delete: member',
        'member: uid=bob,ou=people,dc=example,dc=com',
        '-',
        'add: member',
        'member: uid=erin,ou=people,dc=example,dc=com',
        '-',
        '',
        'dn: cn=operators,ou=groups,dc=example,dc=com',
        'changetype: modify',
        'add: memberUid',
        'memberUid: dave',
        'memberUid: ghost',
        '-',
        '',
      ].join('\n'),
    );
    try {
      expect(await readLdapGroupMembers(server.provider(), { cn: 'developers' })).toEqual({
        found: true,
        members: [person('alice'), person('erin')],
      });
      // A memberUid naming no user (ghost) is no member.
      expect(await readLdapGroupMembers(server.provider(), { cn: 'operators' })).toEqual({
        found: true,
        members: [person('alice'), person('dave'), person('erin')],
      });
    } finally {
      await server.modify(
        [
          'dn: cn=developers,ou=groups,dc=example,dc=com',
          'changetype: modify',
          'replace: member',
          'member: uid=alice,ou=people,dc=example,dc=com',
          'member: uid=bob,ou=people,dc=example,dc=com',
          '-',
          '',
          'dn: cn=operators,ou=groups,dc=example,dc=com',
          'changetype: modify',
          'delete: memberUid',
          'memberUid: dave',
          'memberUid: ghost',
          '-',
          '',
        ].join('\n'),
      );
    }
  });

  it('a member DN naming no entry is skipped', async () => {
    await server.modify(
      [
        'dn: cn=maintainers,ou=groups,dc=example,dc=com',
        'changetype: modify',
        'add: uniqueMember',
        'uniqueMember: uid=gone,ou=people,dc=example,dc=com',
        '-',
        '',
      ].join('\n'),
    );
    expect(await readLdapGroupMembers(server.provider(), { cn: 'maintainers' })).toEqual({
      found: true,
      members: [person('carol'), person('dave')],
    });
  });
});

describe('TLS', () => {
  const developers = () => [person('alice'), person('bob')];

  it('ldaps, trusting the provider CA', async () => {
    const provider = tlsServer.provider({ url: tlsServer.ldapsUrl, tlsCa: tlsServer.caPem });
    expect(await readLdapGroupMembers(provider, { cn: 'developers' })).toEqual({
      found: true,
      members: developers(),
    });
  });

  it('StartTLS on the plain port, trusting the provider CA', async () => {
    const provider = tlsServer.provider({ startTls: true, tlsCa: tlsServer.caPem });
    expect(await readLdapGroupMembers(provider, { cn: 'developers' })).toEqual({
      found: true,
      members: developers(),
    });
  });

  it('a certificate nobody vouches for is refused, over ldaps and StartTLS alike', async () => {
    const ldaps = await failure(
      readLdapGroupMembers(tlsServer.provider({ url: tlsServer.ldapsUrl }), { cn: 'developers' }),
    );
    expect(ldaps.reason).toBe('unreachable');
    expect(ldaps.message).toBe(
      `LDAP server ldapmain (${tlsServer.ldapsUrl}): its TLS certificate was refused: self-signed certificate in certificate chain`,
    );
    const startTls = await failure(
      readLdapGroupMembers(tlsServer.provider({ startTls: true }), { cn: 'developers' }),
    );
    expect(startTls.reason).toBe('unreachable');
    expect(startTls.message).toBe(
      `LDAP server ldapmain (${tlsServer.url}): its TLS certificate was refused: self-signed certificate in certificate chain`,
    );
  });
});

describe('directory failures', () => {
  it('a wrong bind password: reason bind, and the message never holds the password', async () => {
    const password = 'Wrong-Pa55word-7x';
    const error = await failure(
      readLdapGroupMembers(server.provider({ bindPassword: password }), { cn: 'developers' }),
    );
    expect(error.reason).toBe('bind');
    expect(error.message).toBe(
      `LDAP server ldapmain (${server.url}) refused the bind as cn=admin,dc=example,dc=com: invalid credentials`,
    );
    expect(error.message).not.toContain(password);
  });

  it('a bind password kept in Secrets Manager is read once and binds; an unreadable one fails the bind', async () => {
    const secrets = mockClient(SecretsManagerClient);
    try {
      const arn = `arn:aws:secretsmanager:eu-west-1:123456789012:secret:ldap-${Date.now()}-AbCdEf`;
      secrets.on(GetSecretValueCommand, { SecretId: arn }).resolves({
        SecretString: JSON.stringify({ password: server.bindPassword }),
      });
      const provider = server.provider({ bindPassword: undefined, bindPasswordSecret: arn });
      expect((await readLdapGroupMembers(provider, { cn: 'developers' })).members).toHaveLength(2);
      expect((await readLdapGroupMembers(provider, { cn: 'operators' })).found).toBe(true);
      expect(secrets.commandCalls(GetSecretValueCommand, { SecretId: arn })).toHaveLength(1);

      const denied = `${arn}-denied`;
      secrets
        .on(GetSecretValueCommand, { SecretId: denied })
        .rejects(Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' }));
      const error = await failure(
        readLdapGroupMembers(server.provider({ bindPassword: undefined, bindPasswordSecret: denied }), {
          cn: 'developers',
        }),
      );
      expect(error.reason).toBe('bind');
      expect(error.message).toBe(
        'LDAP provider ldapmain: its bind password could not be read from Secrets Manager (AccessDeniedException)',
      );
    } finally {
      secrets.restore();
    }
  });

  it('an invalid link filter: reason search', async () => {
    const error = await failure(readLdapGroupMembers(server.provider(), { filter: '(uid=alice' }));
    expect(error.reason).toBe('search');
    expect(error.message).toMatch(new RegExp(`^LDAP server ldapmain \\(${server.url}\\): search failed: .+`));
  });

  it('a stopped directory: reason unreachable, naming the server', async () => {
    const stopped = await startLdapServer();
    const provider = stopped.provider();
    await stopped.stop();
    const error = await failure(readLdapGroupMembers(provider, { cn: 'developers' }));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toMatch(
      new RegExp(
        `^LDAP server ldapmain \\(${stopped.url}\\) is unreachable: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`,
      ),
    );
  });

  it('a server that accepts the connection but never answers: reason timeout', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const provider = server.provider({ url: `ldap://127.0.0.1:${port}`, timeoutMs: 300 });
      const error = await failure(readLdapGroupMembers(provider, { cn: 'developers' }));
      expect(error.reason).toBe('timeout');
      expect(error.message).toBe(
        `LDAP server ldapmain (ldap://127.0.0.1:${port}) did not answer within 300 ms`,
      );
    } finally {
      silent.close();
    }
  });
});
