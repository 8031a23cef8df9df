/**
 * LDAP group sync over HTTP against a real OpenLDAP server, with a runtime of the test's own whose
 * LDAP_PROVIDERS names that server (the shared runtime has none: there POST ldap_sync is GitLab's
 * 404, see ldap-group-links.test.ts). POST /groups/:id/ldap_sync queues the job, the runtime's
 * worker runs it, and the group's detail shows how it went; the hourly schedule is run here.
 * python-gitlab's group.ldap_sync() drives the same runtime.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../bin/local/runtime.ts';
import { api, createUser, idle, must, rootToken, type TestUser, unique, useRuntime } from '../support/api.ts';
import { type LdapServer, startLdapServer } from '../support/ldap-server.ts';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

const PROVIDER = 'ldapmain';

let ldap: LdapServer;
let runtime: LocalRuntime;
let dataDir: string;
const saved = { LDAP_PROVIDERS: process.env.LDAP_PROVIDERS, EXTERNAL_URL: process.env.EXTERNAL_URL };

beforeAll(async () => {
  ldap = await startLdapServer();
  // The runtime runs in this process: its handlers and workers read this configuration.
  process.env.LDAP_PROVIDERS = JSON.stringify([ldap.provider({ name: PROVIDER, timeoutMs: 2000 })]);
  // The shared runtime's address (inherited from the global setup) is not this runtime's.
  delete process.env.EXTERNAL_URL;
  dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-ldap-sync-'));
  runtime = await startLocalRuntime({
    dataDir,
    inMemory: true,
    rootToken: 'ldap-sync-root-token-0123456789',
    // The schedule's timer stays off: the tests run the schedule themselves.
    scheduleMinutes: { 'ldap-sync': 0 },
    // idle() (test/support/api.ts) reaches this runtime after useRuntime().
    testControl: true,
  });
  useRuntime(runtime);
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await ldap?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const personDn = (uid: string) => `uid=${uid},${ldap.base}`;
const groupDn = (cn: string) => `cn=${cn},${ldap.groupBase}`;

/** A directory entry for a person, with the uid and mail given. */
const person = (uid: string, mail: string) =>
  [
    `dn: ${personDn(uid)}`,
    'changetype: add',
    'objectClass: inetOrgPerson',
    `uid: ${uid}`,
    `cn: ${uid}`,
    `sn: ${uid}`,
    `mail: ${mail}`,
  ].join('\n');

const groupOfNames = (cn: string, members: string[]) =>
  [
    `dn: ${groupDn(cn)}`,
    'changetype: add',
    'objectClass: groupOfNames',
    `cn: ${cn}`,
    ...members.map((uid) => `member: ${personDn(uid)}`),
  ].join('\n');

/** People who are users too, and a groupOfNames holding them. */
async function directoryGroup(users: TestUser[]): Promise<string> {
  const cn = unique('devs');
  await ldap.modify(
    [
      ...users.map((user) => person(user.username, user.email)),
      groupOfNames(
        cn,
        users.map((user) => user.username),
      ),
    ].join('\n\n'),
  );
  return cn;
}

async function newGroup(owner: TestUser) {
  const path = unique('ldap-sync');
  return must(
    api<{ id: number }>('POST', '/groups', {
      token: owner.token,
      json: { name: path, path, visibility: 'private' },
    }),
    201,
    'group create',
  );
}

const link = (groupId: number, owner: TestUser, cn: string, access: number) =>
  must(
    api('POST', `/groups/${groupId}/ldap_group_links`, {
      token: owner.token,
      json: { cn, group_access: access, provider: PROVIDER },
    }),
    201,
    'link create',
  );

const addMember = (groupId: number, owner: TestUser, user: TestUser, access: number) =>
  must(
    api('POST', `/groups/${groupId}/members`, {
      token: owner.token,
      json: { user_id: user.id, access_level: access },
    }),
    201,
    'member add',
  );

/** The group's direct members as user id → level. */
async function levels(groupId: number, owner: TestUser): Promise<Record<number, number>> {
  const members = await must(
    api<{ id: number; access_level: number }[]>('GET', `/groups/${groupId}/members?per_page=100`, {
      token: owner.token,
    }),
    200,
    'members',
  );
  return Object.fromEntries(members.map((member) => [member.id, member.access_level]));
}

interface SyncShown {
  ldap_sync_status?: string;
  ldap_sync_error?: string | null;
  ldap_sync_last_update_at?: string | null;
  ldap_sync_last_successful_update_at?: string | null;
  ldap_sync_last_sync_at?: string | null;
}

const shown = (groupId: number, token: string) =>
  must(api<SyncShown>('GET', `/groups/${groupId}`, { token }), 200, 'group');

/** POST ldap_sync as `token` (202, the bare number), then the group once the worker is done. */
async function sync(groupId: number, owner: TestUser): Promise<SyncShown> {
  const response = await api('POST', `/groups/${groupId}/ldap_sync`, { token: owner.token });
  expect({ status: response.status, body: response.body }).toEqual({ status: 202, body: 202 });
  await idle();
  return shown(groupId, owner.token);
}

describe('POST /groups/:id/ldap_sync and the worker', () => {
  it('adds, changes and removes across two syncs (groupOfNames, posixGroup), leaving manual members alone', async () => {
    const owner = await createUser();
    const byIdentity = await createUser();
    const byUsername = await createUser();
    const byEmail = await createUser();
    const manual = await createUser();
    const identityUid = unique('dir');
    const emailUid = unique('dir');
    const developers = unique('devs');
    const operators = unique('ops');
    await must(
      api('PUT', `/users/${byIdentity.id}`, {
        json: { provider: PROVIDER, extern_uid: personDn(identityUid).toUpperCase() },
      }),
      200,
      'identity',
    );
    await ldap.modify(
      [
        person(identityUid, `${identityUid}@elsewhere.example`),
        person(byUsername.username, `${byUsername.username}@elsewhere.example`),
        person(emailUid, byEmail.email),
        person(manual.username, manual.email),
        groupOfNames(developers, [identityUid, byUsername.username, manual.username]),
        [
          `dn: ${groupDn(operators)}`,
          'changetype: add',
          'objectClass: posixGroup',
          `cn: ${operators}`,
          'gidNumber: 7001',
          `memberUid: ${byUsername.username}`,
          `memberUid: ${emailUid}`,
        ].join('\n'),
      ].join('\n\n'),
    );
    const group = await newGroup(owner);
    await addMember(group.id, owner, manual, 10);
    await link(group.id, owner, developers, 30);
    await link(group.id, owner, operators, 40);
    expect(await shown(group.id, owner.token)).toMatchObject({
      ldap_sync_status: 'ready',
      ldap_sync_last_sync_at: null,
      ldap_sync_last_successful_update_at: null,
    });

    const first = await sync(group.id, owner);
    const afterFirst = {
      [owner.id]: 50,
      [manual.id]: 10,
      [byIdentity.id]: 30,
      [byUsername.id]: 40,
      [byEmail.id]: 40,
    };
    expect(await levels(group.id, owner)).toEqual(afterFirst);
    expect(first).toMatchObject({
      ldap_sync_status: 'ready',
      ldap_sync_error: null,
      ldap_sync_last_update_at: expect.any(String),
      ldap_sync_last_successful_update_at: first.ldap_sync_last_update_at,
      ldap_sync_last_sync_at: expect.any(String),
    });

    // The same directory again: nothing changes.
    const again = await sync(group.id, owner);
    expect(again.ldap_sync_status).toBe('ready');
    expect(await levels(group.id, owner)).toEqual(afterFirst);

    await ldap.modify(
      [
        [
          `dn: ${groupDn(developers)}`,
          'changetype: modify',
          'delete: member',
          `member: ${personDn(identityUid)}`,
        ].join('\n'),
        [
          `dn: ${groupDn(operators)}`,
          'changetype: modify',
          'delete: memberUid',
          `memberUid: ${byUsername.username}`,
        ].join('\n'),
      ].join('\n\n'),
    );
    await sync(group.id, owner);
    expect(await levels(group.id, owner)).toEqual({
      [owner.id]: 50,
      [manual.id]: 10,
      [byUsername.id]: 30,
      [byEmail.id]: 40,
    });
  }, 60_000);

  it('shows how the group was synced to owners and admins only', async () => {
    const owner = await createUser();
    const developer = await createUser();
    const group = await newGroup(owner);
    await addMember(group.id, owner, developer, 30);
    await link(group.id, owner, await directoryGroup([await createUser()]), 30);
    await sync(group.id, owner);
    const keys = [
      'ldap_sync_status',
      'ldap_sync_error',
      'ldap_sync_last_update_at',
      'ldap_sync_last_successful_update_at',
      'ldap_sync_last_sync_at',
    ];
    const asAdmin = await shown(group.id, rootToken());
    const asDeveloper = await shown(group.id, developer.token);
    expect(keys.filter((key) => key in asAdmin)).toEqual(keys);
    expect(asAdmin.ldap_sync_status).toBe('ready');
    expect(keys.filter((key) => key in asDeveloper)).toEqual([]);
  }, 60_000);

  it('never leaves the group without an owner', async () => {
    const creator = await createUser();
    const synced = await createUser();
    const owners = await directoryGroup([synced]);
    const group = await newGroup(creator);
    await link(group.id, creator, owners, 50);
    await sync(group.id, creator);
    expect(await levels(group.id, creator)).toEqual({ [creator.id]: 50, [synced.id]: 50 });
    await must(
      api('DELETE', `/groups/${group.id}/members/${creator.id}`, { token: synced.token }),
      204,
      'leave',
    );
    await ldap.modify(
      [
        `dn: ${groupDn(owners)}`,
        'changetype: modify',
        'replace: member',
        `member: ${personDn('alice')}`,
      ].join('\n'),
    );
    const kept = await sync(group.id, synced);
    expect(await levels(group.id, synced)).toEqual({ [synced.id]: 50 });
    expect(kept).toMatchObject({
      ldap_sync_status: 'ready',
      ldap_sync_error: `Kept the group's last owner (user ${synced.id}): not in a linked LDAP group`,
    });
  }, 60_000);

  describe('authorization matrix', () => {
    const ROLES = ['anonymous', 'non-member', 'developer', 'maintainer', 'owner', 'admin'] as const;
    const refusals: Record<string, { status: number; body: unknown }> = {
      anonymous: { status: 401, body: { message: '401 Unauthorized' } },
      'non-member': { status: 404, body: { message: '404 Group Not Found' } },
      developer: { status: 403, body: { message: '403 Forbidden' } },
      maintainer: { status: 403, body: { message: '403 Forbidden' } },
    };

    it.each(ROLES)('%s', async (role) => {
      const owner = await createUser();
      const group = await newGroup(owner);
      const member = await createUser();
      if (role === 'developer') await addMember(group.id, owner, member, 30);
      if (role === 'maintainer') await addMember(group.id, owner, member, 40);
      const token =
        role === 'anonymous'
          ? null
          : role === 'owner'
            ? owner.token
            : role === 'admin'
              ? rootToken()
              : member.token;
      const response = await api('POST', `/groups/${group.id}/ldap_sync`, { token });
      const expected = refusals[role] ?? { status: 202, body: 202 };
      expect({ status: response.status, body: response.body }).toEqual(expected);
      await idle();
      // Only an accepted request runs a sync.
      const after = await shown(group.id, owner.token);
      expect(after.ldap_sync_last_sync_at === null).toBe(expected.status !== 202);
    });
  });
});

describe('the hourly schedule', () => {
  it('syncs every group with a link, and only those', async () => {
    const owner = await createUser();
    const [first, second] = [await createUser(), await createUser()];
    const linked = [await newGroup(owner), await newGroup(owner)];
    const unlinked = await newGroup(owner);
    await link(linked[0]!.id, owner, await directoryGroup([first]), 30);
    await link(linked[1]!.id, owner, await directoryGroup([second]), 40);

    const run = (await runtime.runSchedule('ldap-sync')) as { queued: number };
    expect(run.queued).toBeGreaterThanOrEqual(2);
    await idle();
    expect(await levels(linked[0]!.id, owner)).toEqual({ [owner.id]: 50, [first.id]: 30 });
    expect(await levels(linked[1]!.id, owner)).toEqual({ [owner.id]: 50, [second.id]: 40 });
    expect((await shown(unlinked.id, owner.token)).ldap_sync_last_sync_at).toBeNull();
    expect((await shown(linked[0]!.id, owner.token)).ldap_sync_last_sync_at).toEqual(expect.any(String));
  }, 60_000);
});

describe('python-gitlab', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'group.ldap_sync() after group.add_ldap_group_link(); the member appears; a maintainer is refused',
    async () => {
      const username = unique('pyldap');
      const cn = unique('pydevs');
      await ldap.modify(
        [person(username, `${username}@example.com`), groupOfNames(cn, [username])].join('\n\n'),
      );
      expect(await runCheck('check_ldap_sync.py', [PROVIDER, cn, username])).toEqual(PASSED);
    },
    120_000,
  );
});

// Last: it stops the directory.
describe('a stopped directory', () => {
  it('the sync fails with a readable error and membership is unchanged', async () => {
    const owner = await createUser();
    const member = await createUser();
    const group = await newGroup(owner);
    await link(group.id, owner, await directoryGroup([member]), 30);
    const synced = await sync(group.id, owner);
    const before = await levels(group.id, owner);
    expect(before).toEqual({ [owner.id]: 50, [member.id]: 30 });

    await ldap.stop();
    const failed = await sync(group.id, owner);
    expect(await levels(group.id, owner)).toEqual(before);
    expect(failed).toMatchObject({
      ldap_sync_status: 'failed',
      ldap_sync_error: `LDAP server ${PROVIDER} (${ldap.url}) is unreachable: connect ECONNREFUSED ${ldap.url.replace('ldap://', '')}`,
      ldap_sync_last_successful_update_at: synced.ldap_sync_last_successful_update_at,
    });
    expect(failed.ldap_sync_last_update_at! > synced.ldap_sync_last_update_at!).toBe(true);
    expect(failed.ldap_sync_error).not.toContain(ldap.bindPassword);
  }, 60_000);
});
