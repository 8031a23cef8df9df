/**
 * Who may do what with a PRIVATE group: every /groups operation of the route table × every role,
 * one labelled test per cell. GitLab's answers: unauthenticated writes 401; a group the caller may
 * not read 404 `Group Not Found`; readable but not permitted 403; owners and admins succeed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

const ROLES = ['anonymous', 'non-member', 'guest', 'developer', 'maintainer', 'owner', 'admin'] as const;
type Role = (typeof ROLES)[number];
const LEVELS = { guest: 10, developer: 30, maintainer: 40, owner: 50 } as const;

interface GroupBody {
  id: number;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
}

const BODIES: Record<number, unknown> = {
  401: { message: '401 Unauthorized' },
  403: { message: '403 Forbidden' },
  404: { message: '404 Group Not Found' },
  202: { message: '202 Accepted' },
};

interface World {
  users: Record<Exclude<Role, 'anonymous' | 'admin'>, TestUser>;
  group: GroupBody;
  subgroup: GroupBody;
  /** A developer of `group` whom the member operations act on. */
  target: TestUser;
}

let world: World;

const tokenOf = (role: Role): string | null => {
  if (role === 'anonymous') return null;
  if (role === 'admin') return rootToken();
  return world.users[role].token;
};

/** A private group created by the owner, with each member role (or only the one given) added. */
async function privateGroup(only?: Role): Promise<GroupBody> {
  const path = unique('authz');
  const group = await must(
    api<GroupBody>('POST', '/groups', {
      token: world.users.owner.token,
      json: { name: path, path, visibility: 'private' },
    }),
    201,
    'group create',
  );
  const roles = (['guest', 'developer', 'maintainer'] as const).filter((role) => !only || role === only);
  for (const role of roles) {
    await must(
      api('POST', `/groups/${group.id}/members`, {
        token: world.users.owner.token,
        json: { user_id: world.users[role].id, access_level: LEVELS[role] },
      }),
      201,
      `add ${role}`,
    );
  }
  return group;
}

async function freshMemberOf(group: GroupBody): Promise<TestUser> {
  const user = await createUser();
  await must(
    api('POST', `/groups/${group.id}/members`, {
      token: world.users.owner.token,
      json: { user_id: user.id, access_level: 30 },
    }),
    201,
    'add target',
  );
  return user;
}

/** Statuses by kind of operation. */
const readable = (success: number, anonymous: number): Record<Role, number> => ({
  anonymous,
  'non-member': 404,
  guest: success,
  developer: success,
  maintainer: success,
  owner: success,
  admin: success,
});
const ownerOnly = (success: number): Record<Role, number> => ({
  anonymous: 401,
  'non-member': 404,
  guest: 403,
  developer: 403,
  maintainer: 403,
  owner: success,
  admin: success,
});
const adminOnly = (success: number): Record<Role, number> => ({
  anonymous: 401,
  'non-member': 403,
  guest: 403,
  developer: 403,
  maintainer: 403,
  owner: 403,
  admin: success,
});

interface Operation {
  name: string;
  expected: Record<Role, number>;
  /** Makes the call as the role (preparing fresh state first if it destroys something). */
  call: (role: Role) => Promise<{ response: ApiResponse; success?: unknown }>;
}

const operations: Operation[] = [
  {
    name: 'GET /groups/:id',
    expected: readable(200, 404),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}`, { token: tokenOf(role) }),
      success: expect.objectContaining({ id: world.group.id, visibility: 'private', projects: [] }),
    }),
  },
  {
    name: 'GET /groups/:id/subgroups',
    expected: readable(200, 404),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}/subgroups`, { token: tokenOf(role) }),
      success: [expect.objectContaining({ id: world.subgroup.id, parent_id: world.group.id })],
    }),
  },
  {
    name: 'GET /groups/:id/members',
    expected: readable(200, 401),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}/members`, { token: tokenOf(role) }),
      success: expect.arrayContaining([
        expect.objectContaining({ id: world.users.owner.id, access_level: 50 }),
        expect.objectContaining({ id: world.target.id }),
      ]),
    }),
  },
  {
    name: 'GET /groups/:id/members/:user_id',
    expected: readable(200, 401),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}/members/${world.target.id}`, {
        token: tokenOf(role),
      }),
      success: expect.objectContaining({ id: world.target.id, username: world.target.username }),
    }),
  },
  {
    name: 'POST /groups/:id/members',
    expected: ownerOnly(201),
    call: async (role) => {
      const user = await createUser();
      const response = await api('POST', `/groups/${world.group.id}/members`, {
        token: tokenOf(role),
        json: { user_id: user.id, access_level: 10 },
      });
      return { response, success: expect.objectContaining({ id: user.id, access_level: 10 }) };
    },
  },
  {
    name: 'PUT /groups/:id/members/:user_id',
    expected: ownerOnly(200),
    call: async (role) => ({
      response: await api('PUT', `/groups/${world.group.id}/members/${world.target.id}`, {
        token: tokenOf(role),
        json: { access_level: 20 },
      }),
      success: expect.objectContaining({ id: world.target.id, access_level: 20 }),
    }),
  },
  {
    name: 'DELETE /groups/:id/members/:user_id',
    expected: ownerOnly(204),
    call: async (role) => {
      const target = await freshMemberOf(world.group);
      return {
        response: await api('DELETE', `/groups/${world.group.id}/members/${target.id}`, {
          token: tokenOf(role),
        }),
      };
    },
  },
  {
    name: 'PUT /groups/:id',
    expected: ownerOnly(200),
    call: async (role) => ({
      response: await api('PUT', `/groups/${world.group.id}`, {
        token: tokenOf(role),
        json: { description: `by ${role}` },
      }),
      success: expect.objectContaining({ id: world.group.id, description: `by ${role}` }),
    }),
  },
  {
    name: 'DELETE /groups/:id',
    expected: ownerOnly(202),
    call: async (role) => {
      const group = await privateGroup(role);
      return { response: await api('DELETE', `/groups/${group.id}`, { token: tokenOf(role) }) };
    },
  },
  {
    name: 'POST /groups with parent_id',
    // GitLab's default subgroup_creation_level lets maintainers create subgroups.
    expected: { ...ownerOnly(201), maintainer: 201 },
    call: async (role) => {
      const path = unique('sub');
      return {
        response: await api('POST', '/groups', {
          token: tokenOf(role),
          json: { name: 'sub', path, parent_id: world.group.id },
        }),
        success: expect.objectContaining({
          parent_id: world.group.id,
          full_path: `${world.group.full_path}/${path}`,
          visibility: 'private',
        }),
      };
    },
  },
  {
    name: 'GET /groups/:id/custom_attributes',
    expected: adminOnly(200),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}/custom_attributes`, { token: tokenOf(role) }),
      success: [{ key: 'tier', value: 'gold' }],
    }),
  },
  {
    name: 'GET /groups/:id/custom_attributes/:key',
    expected: adminOnly(200),
    call: async (role) => ({
      response: await api('GET', `/groups/${world.group.id}/custom_attributes/tier`, {
        token: tokenOf(role),
      }),
      success: { key: 'tier', value: 'gold' },
    }),
  },
  {
    name: 'PUT /groups/:id/custom_attributes/:key',
    expected: adminOnly(200),
    call: async (role) => ({
      response: await api('PUT', `/groups/${world.group.id}/custom_attributes/tier`, {
        token: tokenOf(role),
        json: { value: 'gold' },
      }),
      success: { key: 'tier', value: 'gold' },
    }),
  },
  {
    name: 'DELETE /groups/:id/custom_attributes/:key',
    expected: adminOnly(204),
    call: async (role) => {
      const key = unique('scratch');
      await must(
        api('PUT', `/groups/${world.group.id}/custom_attributes/${key}`, { json: { value: 'x' } }),
        200,
        'set scratch',
      );
      const response = await api('DELETE', `/groups/${world.group.id}/custom_attributes/${key}`, {
        token: tokenOf(role),
      });
      // Leave the group's attributes as they were for the cells that list them.
      if (response.status !== 204) await api('DELETE', `/groups/${world.group.id}/custom_attributes/${key}`);
      return { response };
    },
  },
];

beforeAll(async () => {
  const [owner, guest, developer, maintainer, stranger, target] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  world = {
    users: { owner, guest, developer, maintainer, 'non-member': stranger },
    target,
    group: undefined as unknown as GroupBody,
    subgroup: undefined as unknown as GroupBody,
  };
  world.group = await privateGroup();
  world.subgroup = await must(
    api<GroupBody>('POST', '/groups', {
      token: owner.token,
      json: { name: 'inner', path: 'inner', parent_id: world.group.id },
    }),
    201,
    'subgroup create',
  );
  await must(
    api('POST', `/groups/${world.group.id}/members`, {
      token: owner.token,
      json: { user_id: target.id, access_level: 30 },
    }),
    201,
    'add target',
  );
  await must(
    api('PUT', `/groups/${world.group.id}/custom_attributes/tier`, { json: { value: 'gold' } }),
    200,
    'set tier',
  );
});

describe('groups authorization on a private group', () => {
  for (const operation of operations) {
    describe(operation.name, () => {
      for (const role of ROLES) {
        const status = operation.expected[role];
        it(`as ${role} → ${status}`, async () => {
          const { response, success } = await operation.call(role);
          const label = `${operation.name} as ${role}: ${response.text}`;
          expect(response.status, label).toBe(status);
          if (status === 204) expect(response.text, label).toBe('');
          else if (status >= 400 || status === 202) expect(response.body, label).toEqual(BODIES[status]);
          else expect(response.body, label).toEqual(success);
        });
      }
    });
  }
});

describe('group creation rights', () => {
  async function userWhoCannotCreateGroups(): Promise<TestUser> {
    const username = unique('nocreate');
    const created = await must(
      api<{ id: number; can_create_group: boolean }>('POST', '/users', {
        json: {
          username,
          email: `${username}@example.com`,
          name: username,
          password: 'password123',
          can_create_group: false,
        },
      }),
      201,
      'user create',
    );
    const token = await must(
      api<{ token: string }>('POST', `/users/${created.id}/personal_access_tokens`, {
        json: { name: 'test', scopes: ['api'] },
      }),
      201,
      'token create',
    );
    return { id: created.id, username, email: `${username}@example.com`, token: token.token };
  }

  const topLevel = (token: string | null) => {
    const path = unique('top');
    return api('POST', '/groups', { token, json: { name: path, path } });
  };

  it('POST /groups top-level as anonymous → 401', async () => {
    const response = await topLevel(null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(BODIES[401]);
  });

  it('POST /groups top-level as a user with can_create_group=false → 403', async () => {
    const user = await userWhoCannotCreateGroups();
    const response = await topLevel(user.token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(BODIES[403]);
  });

  it('POST /groups top-level as a user allowed to create groups → 201', async () => {
    const user = await createUser();
    const response = await topLevel(user.token);
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ parent_id: null, visibility: 'private' }));
  });

  it('POST /groups with parent_id as an owner with can_create_group=false → 403', async () => {
    const user = await userWhoCannotCreateGroups();
    await must(
      api('POST', `/groups/${world.group.id}/members`, {
        token: world.users.owner.token,
        json: { user_id: user.id, access_level: 50 },
      }),
      201,
      'add restricted owner',
    );
    const response = await api('POST', '/groups', {
      token: user.token,
      json: { name: 'sub', path: unique('sub'), parent_id: world.group.id },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(BODIES[403]);
  });

  it('PUT /groups/:id with shared_runners_minutes_limit as a non-admin owner → 403', async () => {
    const response = await api('PUT', `/groups/${world.group.id}`, {
      token: world.users.owner.token,
      json: { shared_runners_minutes_limit: 10 },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(BODIES[403]);
  });
});
