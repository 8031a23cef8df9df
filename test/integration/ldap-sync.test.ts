/**
 * LDAP group sync against a real OpenLDAP server: the job (`runLdapSync`) runs in this process
 * against the runtime's table with this process's LDAP_PROVIDERS, because the runtime's handlers
 * run in the global setup's process, whose configuration has no provider (there POST ldap_sync is
 * GitLab's 404, checked over HTTP below). Links and members are made and read over HTTP.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runLdapSync } from '../../shared/jobs/ldap-sync.ts';
import { readLdapSyncState } from '../../shared/store/ldap-sync-state.ts';
import { type ApiResponse, api, createUser, type TestUser, unique } from '../support/api.ts';
import { type LdapServer, startLdapServer } from '../support/ldap-server.ts';

const PROVIDER = unique('ldapsync').replace(/-/g, '_');

async function must<T>(response: Promise<ApiResponse<T>>, status: number, what: string): Promise<T> {
  const settled = await response;
  if (settled.status !== status) throw new Error(`${what}: ${settled.status} ${settled.text}`);
  return settled.body;
}

let ldap: LdapServer;
const saved = {
  DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
  TABLE_NAME: process.env.TABLE_NAME,
  LDAP_PROVIDERS: process.env.LDAP_PROVIDERS,
};

beforeAll(async () => {
  ldap = await startLdapServer();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    TABLE_NAME: inject('tableName'),
    LDAP_PROVIDERS: JSON.stringify([ldap.provider({ name: PROVIDER, timeoutMs: 2000 })]),
  });
}, 60_000);

afterAll(async () => {
  await ldap?.stop();
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

describe('POST /groups/:id/ldap_sync over HTTP', () => {
  it('the runtime has no LDAP provider → 404 Not Found, even for an owner', async () => {
    const owner = await createUser();
    const group = await newGroup(owner);
    const response = await api('POST', `/groups/${group.id}/ldap_sync`, { token: owner.token });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 404,
      body: { message: '404 Not Found' },
    });
  });
});

describe('the LDAP sync job', () => {
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
        [
          `dn: ${groupDn(developers)}`,
          'changetype: add',
          'objectClass: groupOfNames',
          `cn: ${developers}`,
          `member: ${personDn(identityUid)}`,
          `member: ${personDn(byUsername.username)}`,
          `member: ${personDn(manual.username)}`,
        ].join('\n'),
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

    const first = await runLdapSync(group.id);
    expect(first).toEqual({ status: 'ready', changed: 3, keptOwners: [], error: null });
    expect(await levels(group.id, owner)).toEqual({
      [owner.id]: 50,
      [manual.id]: 10,
      [byIdentity.id]: 30,
      [byUsername.id]: 40,
      [byEmail.id]: 40,
    });
    const state = await readLdapSyncState(group.id);
    expect(state).toEqual({
      ldap_sync_status: 'ready',
      ldap_sync_error: null,
      ldap_sync_last_update_at: expect.any(String),
      ldap_sync_last_successful_update_at: state?.ldap_sync_last_update_at,
    });

    // The same directory again: nothing to do.
    expect(await runLdapSync(group.id)).toEqual({ status: 'ready', changed: 0, keptOwners: [], error: null });

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
    expect(await runLdapSync(group.id)).toEqual({ status: 'ready', changed: 2, keptOwners: [], error: null });
    expect(await levels(group.id, owner)).toEqual({
      [owner.id]: 50,
      [manual.id]: 10,
      [byUsername.id]: 30,
      [byEmail.id]: 40,
    });
  }, 60_000);

  it('never leaves the group without an owner', async () => {
    const creator = await createUser();
    const synced = await createUser();
    const owners = unique('owners');
    await ldap.modify(
      [
        person(synced.username, synced.email),
        [
          `dn: ${groupDn(owners)}`,
          'changetype: add',
          'objectClass: groupOfNames',
          `cn: ${owners}`,
          `member: ${personDn(synced.username)}`,
        ].join('\n'),
      ].join('\n\n'),
    );
    const group = await newGroup(creator);
    await link(group.id, creator, owners, 50);
    expect(await runLdapSync(group.id)).toEqual({ status: 'ready', changed: 1, keptOwners: [], error: null });
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
    const kept = `Kept the group's last owner (user ${synced.id}): not in a linked LDAP group`;
    expect(await runLdapSync(group.id)).toEqual({
      status: 'ready',
      changed: 0,
      keptOwners: [synced.id],
      error: kept,
    });
    expect(await levels(group.id, synced)).toEqual({ [synced.id]: 50 });
    expect(await readLdapSyncState(group.id)).toMatchObject({
      ldap_sync_status: 'ready',
      ldap_sync_error: kept,
    });
  }, 60_000);

  it('with the directory stopped the sync fails with a readable error and membership is unchanged', async () => {
    const owner = await createUser();
    const member = await createUser();
    const developers = unique('devs');
    await ldap.modify(
      [
        person(member.username, member.email),
        [
          `dn: ${groupDn(developers)}`,
          'changetype: add',
          'objectClass: groupOfNames',
          `cn: ${developers}`,
          `member: ${personDn(member.username)}`,
        ].join('\n'),
      ].join('\n\n'),
    );
    const group = await newGroup(owner);
    await link(group.id, owner, developers, 30);
    expect(await runLdapSync(group.id)).toMatchObject({ status: 'ready', changed: 1 });
    const before = await levels(group.id, owner);
    const succeeded = (await readLdapSyncState(group.id))?.ldap_sync_last_successful_update_at;

    await ldap.stop();
    const outcome = await runLdapSync(group.id);
    expect(outcome.status).toBe('failed');
    expect(outcome.changed).toBe(0);
    expect(outcome.error).toMatch(/LDAP/i);
    expect(outcome.error).not.toContain(ldap.bindPassword);
    expect(await levels(group.id, owner)).toEqual(before);
    expect(await readLdapSyncState(group.id)).toEqual({
      ldap_sync_status: 'failed',
      ldap_sync_error: outcome.error,
      ldap_sync_last_update_at: expect.any(String),
      ldap_sync_last_successful_update_at: succeeded,
    });
  }, 60_000);
});
