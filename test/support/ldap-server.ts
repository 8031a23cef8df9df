/**
 * A private OpenLDAP server for tests: Debian's slapd with its own slapd.conf and mdb database in a
 * temporary directory, loaded offline with slapadd, listening on a free loopback port, run in the
 * foreground (so the spawned pid is slapd itself and SIGTERM stops it). Membership is changed between
 * syncs with ldapmodify as the root DN, as an administrator would.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LdapProvider } from '#config/ldap.ts';

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const LDAPMODIFY = '/usr/bin/ldapmodify';
const LDAPWHOAMI = '/usr/bin/ldapwhoami';
const OPENSSL = '/usr/bin/openssl';
const SCHEMAS = ['core', 'cosine', 'nis', 'inetorgperson'];
const SUFFIX = 'dc=example,dc=com';
const ROOT_DN = `cn=admin,${SUFFIX}`;
const ROOT_PASSWORD = 'ldap-test-root-password';

/** Six people under ou=people and groups of each schema under ou=groups (see the file). */
const defaultSeed = () => readFileSync(new URL('./ldap-seed.ldif', import.meta.url), 'utf8');

export interface LdapServer {
  /** `ldap://127.0.0.1:<port>` */
  url: string;
  /** With `tls`: `ldaps://127.0.0.1:<port>` (the plain URL then offers StartTLS too). */
  ldapsUrl?: string;
  /** With `tls`: the PEM of the test CA that signed the server's certificate (for 127.0.0.1). */
  caPem?: string;
  bindDn: string;
  bindPassword: string;
  /** Where people are (`ou=people,…`). */
  base: string;
  /** Where groups are (`ou=groups,…`). */
  groupBase: string;
  /** A provider configuration pointing at this server, GitLab's defaults filled in. */
  provider(overrides?: Partial<LdapProvider>): LdapProvider;
  /** Applies LDIF change records (`changetype: modify` / `add` / `delete`) as the root DN. */
  modify(ldif: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts slapd loaded with `seed` (a full LDIF, the suffix entry included); resolves once a bind
 * succeeds. With `tls`, a CA and a certificate for 127.0.0.1 are made with openssl, and slapd
 * listens for ldaps beside the plain port, which then accepts StartTLS.
 */
export async function startLdapServer(
  seed: string = defaultSeed(),
  options: { tls?: boolean } = {},
): Promise<LdapServer> {
  for (const tool of [SLAPD, SLAPADD, LDAPMODIFY, LDAPWHOAMI]) {
    if (!existsSync(tool)) {
      throw new Error(`${tool} is missing: the LDAP tests need OpenLDAP — apt-get install slapd ldap-utils`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'slapd-test-'));
  const conf = join(dir, 'slapd.conf');
  const tls = options.tls ? await makeCertificates(dir) : undefined;
  writeFileSync(
    conf,
    [
      ...SCHEMAS.map((schema) => `include /etc/ldap/schema/${schema}.schema`),
      `pidfile ${join(dir, 'slapd.pid')}`,
      ...(tls
        ? [
            `TLSCACertificateFile ${tls.caFile}`,
            `TLSCertificateFile ${tls.certFile}`,
            `TLSCertificateKeyFile ${tls.keyFile}`,
          ]
        : []),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 16777216',
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${dir}`,
      '',
    ].join('\n'),
  );
  const seedFile = join(dir, 'seed.ldif');
  writeFileSync(seedFile, seed);
  let slapd: ChildProcess | undefined;
  try {
    await run(SLAPADD, ['-q', '-f', conf, '-l', seedFile]);
    const port = await freePort();
    const url = `ldap://127.0.0.1:${port}`;
    const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined;
    const listen = ldapsUrl ? `${url}/ ${ldapsUrl}/` : `${url}/`;
    const child = spawn(SLAPD, ['-d', '0', '-f', conf, '-h', listen], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    slapd = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const bindArgs = ['-x', '-H', url, '-D', ROOT_DN, '-w', ROOT_PASSWORD];
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`slapd exited (${child.exitCode}): ${stderr.trim()}`);
        return run(LDAPWHOAMI, bindArgs).then(
          () => true,
          () => false,
        );
      },
      10_000,
      'slapd did not accept a bind within 10 s',
    );
    const base = `ou=people,${SUFFIX}`;
    const groupBase = `ou=groups,${SUFFIX}`;
    return {
      url,
      ...(ldapsUrl && tls ? { ldapsUrl, caPem: readFileSync(tls.caFile, 'utf8') } : {}),
      bindDn: ROOT_DN,
      bindPassword: ROOT_PASSWORD,
      base,
      groupBase,
      provider: (overrides = {}) => ({
        name: 'ldapmain',
        url,
        startTls: false,
        bindDn: ROOT_DN,
        bindPassword: ROOT_PASSWORD,
        base,
        userFilter: '(objectClass=inetOrgPerson)',
        groupBase,
        uidAttribute: 'uid',
        mailAttribute: 'mail',
        timeoutMs: 5_000,
        ...overrides,
      }),
      modify: (ldif) => run(LDAPMODIFY, bindArgs, ldif).then(() => undefined),
      stop: async () => {
        await stopProcess(child);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (slapd) await stopProcess(slapd);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A throwaway CA and a server certificate it signed, for 127.0.0.1 and localhost. */
async function makeCertificates(dir: string) {
  const file = (name: string) => join(dir, name);
  const caFile = file('ca.pem');
  const certFile = file('server.pem');
  const keyFile = file('server.key');
  const openssl = (...args: string[]) => run(OPENSSL, args);
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=ldap test CA',
    '-keyout',
    file('ca.key'),
    '-out',
    caFile,
  );
  writeFileSync(file('server.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    file('server.csr'),
  );
  await openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    caFile,
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    certFile,
  );
  return { caFile, certFile, keyFile };
}

function run(file: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
    // A tool that fails before reading its input closes the pipe: its exit status tells.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/** A port nobody listens on right now (slapd binds it a few milliseconds later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
