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
const SCHEMAS = ['core', 'cosine', 'nis', 'inetorgperson'];
const SUFFIX = 'dc=example,dc=com';
const ROOT_DN = `cn=admin,${SUFFIX}`;
const ROOT_PASSWORD = 'ldap-test-root-password';

/** Six people under ou=people and groups of each schema under ou=groups (see the file). */
const defaultSeed = () => readFileSync(new URL('./ldap-seed.ldif', import.meta.url), 'utf8');

export interface LdapServer {
  /** `ldap://127.0.0.1:<port>` */
  url: string;
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

/** Starts slapd loaded with `seed` (a full LDIF, the suffix entry included); resolves once a bind succeeds. */
export async function startLdapServer(seed: string = defaultSeed()): Promise<LdapServer> {
  for (const tool of [SLAPD, SLAPADD, LDAPMODIFY, LDAPWHOAMI]) {
    if (!existsSync(tool)) {
      throw new Error(`${tool} is missing: the LDAP tests need OpenLDAP — apt-get install slapd ldap-utils`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'slapd-test-'));
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...SCHEMAS.map((schema) => `include /etc/ldap/schema/${schema}.schema`),
      `pidfile ${join(dir, 'slapd.pid')}`,
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
    const child = spawn(SLAPD, ['-d', '0', '-f', conf, '-h', `${url}/`], {
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

function run(file: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
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
