/**
 * LDAP group links over HTTP: who may add, list and remove them (anonymous, non-member, developer,
 * maintainer, owner, admin), GitLab's statuses and bodies, and the links on the group's detail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

const ROLES = ['anonymous', 'non-member', 'developer', 'maintainer', 'owner', 'admin'] as const;
type Role = (typeof ROLES)[number];
const ADMINISTRATORS: readonly Role[] = ['owner', 'admin'];

const REFUSALS: Record<string, { status: number; body: unknown }> = {
  anonymous: { status: 401, body: { message: '401 Unauthorized' } },
  // GitLab looks the group up without the "!" helper: a group one cannot see is 403 too.
  'non-member': { status: 403, body: { message: '403 Forbidden' } },
  developer: { status: 403, body: { message: '403 Forbidden' } },
  maintainer: { status: 403, body: { message: '403 Forbidden' } },
};

interface Link {
  cn: string | null;
  group_access: number;
  provider: string;
  filter: string | null;
}

let users: Record<'non-member' | 'developer' | 'maintainer' | 'owner', TestUser>;
let groupId: number;

const tokenOf = (role: Role): string | null => {
  if (role === 'anonymous') return null;
  if (role === 'admin') return rootToken();
  return users[role].token;
};

const cnLink = (cn: string, access = 30, provider = 'ldapmain'): Link => ({
  cn,
  group_access: access,
  provider,
  filter: null,
});

/** A link the owner adds (the set-up of the removal cells). */
const givenLink = (cn: string, provider = 'ldapmain') =>
  must(
    api('POST', `/groups/${groupId}/ldap_group_links`, {
      token: users.owner.token,
      json: { cn, group_access: 30, provider },
    }),
    201,
    'link create',
  );

const linksOf = async (id: number) => {
  const listed = await api<Link[]>('GET', `/groups/${id}/ldap_group_links`);
  return listed.status === 404 ? [] : listed.body;
};

beforeAll(async () => {
  const [nonMember, developer, maintainer, owner] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  users = { 'non-member': nonMember, developer, maintainer, owner };
  const path = unique('ldap');
  const group = await must(
    api<{ id: number }>('POST', '/groups', {
      token: owner.token,
      json: { name: path, path, visibility: 'private' },
    }),
    201,
    'group create',
  );
  groupId = group.id;
  for (const [user, level] of [
    [developer, 30],
    [maintainer, 40],
  ] as const) {
    await must(
      api('POST', `/groups/${groupId}/members`, {
        token: owner.token,
        json: { user_id: user.id, access_level: level },
      }),
      201,
      'member add',
    );
  }
}, 120_000);

describe('authorization matrix', () => {
  describe.each(ROLES)('%s', (role) => {
    const allowed = ADMINISTRATORS.includes(role);

    it(`POST /groups/:id/ldap_group_links → ${allowed ? 201 : REFUSALS[role]?.status}`, async () => {
      const cn = unique(`create-${role}`);
      const response = await api('POST', `/groups/${groupId}/ldap_group_links`, {
        token: tokenOf(role),
        json: { cn, group_access: 40, provider: 'ldapmain' },
      });
      if (allowed) {
        expect({ status: response.status, body: response.body }).toEqual({
          status: 201,
          body: cnLink(cn, 40),
        });
      } else {
        expect({ status: response.status, body: response.body }).toEqual(REFUSALS[role]);
      }
      const stored = (await linksOf(groupId)).some((link) => link.cn === cn);
      expect(stored).toBe(allowed);
    });

    it(`GET /groups/:id/ldap_group_links → ${allowed ? 200 : REFUSALS[role]?.status}`, async () => {
      const cn = unique(`list-${role}`);
      await givenLink(cn);
      const response = await api<Link[]>('GET', `/groups/${groupId}/ldap_group_links`, {
        token: tokenOf(role),
      });
      if (allowed) {
        expect(response.status).toBe(200);
        expect(response.body).toContainEqual(cnLink(cn));
      } else {
        expect({ status: response.status, body: response.body }).toEqual(REFUSALS[role]);
      }
    });

    it(`DELETE /groups/:id/ldap_group_links/:cn → ${allowed ? 204 : REFUSALS[role]?.status}`, async () => {
      const cn = unique(`delete-${role}`);
      await givenLink(cn);
      const response = await api('DELETE', `/groups/${groupId}/ldap_group_links/${cn}`, {
        token: tokenOf(role),
      });
      expect({ status: response.status, body: response.body }).toEqual(
        allowed ? { status: 204, body: undefined } : REFUSALS[role],
      );
      expect((await linksOf(groupId)).some((link) => link.cn === cn)).toBe(!allowed);
    });

    it(`DELETE /groups/:id/ldap_group_links/:provider/:cn → ${allowed ? 204 : REFUSALS[role]?.status}`, async () => {
      const cn = unique(`delete-provider-${role}`);
      await givenLink(cn, 'ldapsecondary');
      const response = await api('DELETE', `/groups/${groupId}/ldap_group_links/ldapsecondary/${cn}`, {
        token: tokenOf(role),
      });
      expect({ status: response.status, body: response.body }).toEqual(
        allowed ? { status: 204, body: undefined } : REFUSALS[role],
      );
      expect((await linksOf(groupId)).some((link) => link.cn === cn)).toBe(!allowed);
    });
  });
});

describe('POST /groups/:id/ldap_sync without a provider', () => {
  it('the runtime has no LDAP provider → 404 Not Found, even for an owner and an admin', async () => {
    for (const token of [users.owner.token, rootToken()]) {
      const response = await api('POST', `/groups/${groupId}/ldap_sync`, { token });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { message: '404 Not Found' },
      });
    }
  });
});

describe('answers', () => {
  let otherGroup: number;

  beforeAll(async () => {
    const path = unique('ldap-answers');
    otherGroup = (
      await must(api<{ id: number }>('POST', '/groups', { json: { name: path, path } }), 201, 'group create')
    ).id;
  });

  it('a group without links lists 404 No linked LDAP groups found', async () => {
    const response = await api('GET', `/groups/${otherGroup}/ldap_group_links`);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 404,
      body: { message: 'No linked LDAP groups found' },
    });
  });

  it('a filter link, a duplicate (409), and its removal by query (204, then 404)', async () => {
    const filter = `(ou=${unique('ops')})`;
    const add = () =>
      api('POST', `/groups/${otherGroup}/ldap_group_links`, {
        json: { filter, group_access: 20, provider: 'ldapmain' },
      });
    const first = await add();
    expect({ status: first.status, body: first.body }).toEqual({
      status: 201,
      body: { cn: null, group_access: 20, provider: 'ldapmain', filter },
    });
    const again = await add();
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { message: 'Filter has already been taken' },
    });
    const query = new URLSearchParams({ provider: 'ldapmain', filter }).toString();
    const removed = await api('DELETE', `/groups/${otherGroup}/ldap_group_links?${query}`);
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 204, body: undefined });
    const gone = await api('DELETE', `/groups/${otherGroup}/ldap_group_links?${query}`);
    expect({ status: gone.status, body: gone.body }).toEqual({
      status: 404,
      body: { message: 'Linked LDAP group not found' },
    });
  });

  it('the same cn twice for one provider → 409 Cn has already been taken; for another provider → 201', async () => {
    const cn = unique('dup');
    const add = (provider: string) =>
      api('POST', `/groups/${otherGroup}/ldap_group_links`, { json: { cn, group_access: 30, provider } });
    expect((await add('ldapmain')).status).toBe(201);
    const duplicate = await add('ldapmain');
    expect({ status: duplicate.status, body: duplicate.body }).toEqual({
      status: 409,
      body: { message: 'Cn has already been taken' },
    });
    // A provider that is not configured is kept, as GitLab keeps it.
    const other = await add('unconfigured');
    expect({ status: other.status, body: other.body }).toEqual({
      status: 201,
      body: cnLink(cn, 30, 'unconfigured'),
    });
  });

  it('a cn with a space, removed through its encoded path', async () => {
    const cn = `${unique('dev')} team`;
    await must(
      api('POST', `/groups/${otherGroup}/ldap_group_links`, {
        json: { cn, group_access: 30, provider: 'ldapmain' },
      }),
      201,
      'link create',
    );
    const removed = await api(
      'DELETE',
      `/groups/${otherGroup}/ldap_group_links/ldapmain/${encodeURIComponent(cn)}`,
    );
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 204, body: undefined });
  });

  it.each([
    [
      { cn: 'x', group_access: 60, provider: 'ldapmain' },
      { error: 'group_access does not have a valid value' },
    ],
    [
      { cn: 'x', filter: '(uid=x)', group_access: 30, provider: 'ldapmain' },
      { error: 'cn, filter are mutually exclusive' },
    ],
    [
      { group_access: 30, provider: 'ldapmain' },
      { error: 'cn, filter are missing, exactly one parameter must be provided' },
    ],
  ])('Grape refuses %j → 400', async (json, body) => {
    const response = await api('POST', `/groups/${otherGroup}/ldap_group_links`, { json });
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body });
  });

  it('an invalid filter → 409 Filter is invalid', async () => {
    const response = await api('POST', `/groups/${otherGroup}/ldap_group_links`, {
      json: { filter: 'uid = mary', group_access: 30, provider: 'ldapmain' },
    });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 409,
      body: { message: 'Filter is invalid' },
    });
  });

  it('no such group → 403, no such link → 404 Linked LDAP group not found', async () => {
    const create = await api('POST', '/groups/999999999/ldap_group_links', {
      json: { cn: 'x', group_access: 30, provider: 'ldapmain' },
    });
    expect({ status: create.status, body: create.body }).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    for (const path of ['nothing-here', 'ldapmain/nothing-here']) {
      const response = await api('DELETE', `/groups/${otherGroup}/ldap_group_links/${path}`);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { message: 'Linked LDAP group not found' },
      });
    }
  });

  it("the group's detail shows its links; a group without links shows none", async () => {
    const path = unique('ldap-detail');
    const group = await must(
      api<{ id: number }>('POST', '/groups', { json: { name: path, path } }),
      201,
      'group',
    );
    const bare = await api<Record<string, unknown>>('GET', `/groups/${group.id}`);
    expect(bare.status).toBe(200);
    expect(bare.body).not.toHaveProperty('ldap_group_links');
    await must(
      api('POST', `/groups/${group.id}/ldap_group_links`, {
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
      201,
      'link create',
    );
    await must(
      api('POST', `/groups/${group.id}/ldap_group_links`, {
        json: { filter: '(ou=ops)', group_access: 40, provider: 'ldapmain' },
      }),
      201,
      'link create',
    );
    const shown = await api<Record<string, unknown>>('GET', `/groups/${group.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.ldap_group_links).toEqual([
      cnLink('developers'),
      { cn: null, group_access: 40, provider: 'ldapmain', filter: '(ou=ops)' },
    ]);
  });
});
