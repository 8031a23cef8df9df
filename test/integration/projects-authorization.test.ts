/**
 * Who may do what with a project: every projects operation of the route table × every role on a
 * project of a PRIVATE group, and the operations whose answer changes on a PUBLIC one, one labelled
 * test per cell. GitLab's answers: unauthenticated writes 401; a project the caller may not read
 * 404 `Project Not Found`; readable but not permitted 403; admin-only endpoints 403 for everyone else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

const ROLES = [
  'anonymous',
  'non-member',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
] as const;
type Role = (typeof ROLES)[number];
type MemberRole = 'guest' | 'reporter' | 'developer' | 'maintainer';
const LEVELS: Record<MemberRole, number> = { guest: 10, reporter: 20, developer: 30, maintainer: 40 };

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  visibility: string;
  archived: boolean;
}

interface GroupBody {
  id: number;
  full_path: string;
}

interface UploadBody {
  alt: string;
  url: string;
  markdown: string;
  full_path: string;
}

const BODIES: Record<number, unknown> = {
  401: { message: '401 Unauthorized' },
  403: { message: '403 Forbidden' },
  404: { message: '404 Project Not Found' },
};

interface Place {
  group: GroupBody;
  project: ProjectBody;
  /** An upload of the project, made by the admin. */
  upload: UploadBody;
  uploadContent: string;
}

interface World {
  users: Record<Exclude<Role, 'anonymous' | 'admin'>, TestUser>;
  /** A direct developer member of each project whom member updates act on. */
  target: TestUser;
  private: Place;
  public: Place;
  /** A private project of the private group that no cell changes, for list cells. */
  listed: ProjectBody;
}

let world: World;

const tokenOf = (role: Role): string | null => {
  if (role === 'anonymous') return null;
  if (role === 'admin') return rootToken();
  return world.users[role].token;
};

/** A group created by the owner with each member role added. */
async function groupWithRoles(visibility: 'private' | 'public'): Promise<GroupBody> {
  const path = unique('pauthz');
  const group = await must(
    api<GroupBody>('POST', '/groups', {
      token: world.users.owner.token,
      json: { name: path, path, visibility },
    }),
    201,
    'group create',
  );
  for (const role of Object.keys(LEVELS) as MemberRole[]) {
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

async function place(visibility: 'private' | 'public'): Promise<Place> {
  const group = await groupWithRoles(visibility);
  const project = await must(
    api<ProjectBody>('POST', '/projects', {
      token: world.users.owner.token,
      json: { name: unique('Authz'), namespace_id: group.id, visibility },
    }),
    201,
    'project create',
  );
  await must(
    api('POST', `/projects/${project.id}/members`, { json: { user_id: world.target.id, access_level: 30 } }),
    201,
    'add target',
  );
  await must(
    api('PUT', `/projects/${project.id}/custom_attributes/tier`, { json: { value: 'gold' } }),
    200,
    'set tier',
  );
  const uploadContent = `content of ${project.name}`;
  const upload = await uploadTo(project.id, rootToken(), uploadContent);
  return { group, project, upload: upload.body as UploadBody, uploadContent };
}

function uploadTo(projectId: number, token: string | null, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), 'notes.txt');
  return api<UploadBody>('POST', `/projects/${projectId}/uploads`, { token, body: form });
}

async function publicGroup(): Promise<GroupBody> {
  const path = unique('share');
  return must(
    api<GroupBody>('POST', '/groups', { json: { name: path, path, visibility: 'public' } }),
    201,
    'share group',
  );
}

async function freshProjectMember(projectId: number): Promise<TestUser> {
  const user = await createUser();
  await must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: user.id, access_level: 20 } }),
    201,
    'add member',
  );
  return user;
}

// Expected statuses by kind of operation ----------------------------------------------------------

type Table = Record<Role, number>;
const each = (status: number): Table => Object.fromEntries(ROLES.map((role) => [role, status])) as Table;

/** Read operations with optional auth: anonymous callers and strangers get 404 on a private project. */
const privateRead = (success: number, anonymous = 404): Table => ({
  ...each(success),
  anonymous,
  'non-member': 404,
});
/** Any member (guest+) succeeds: star, unstar, upload. */
const privateAnyMember = (success: number): Table => ({ ...privateRead(success), anonymous: 401 });
const privateMaintainer = (success: number): Table => ({
  ...privateAnyMember(success),
  guest: 403,
  reporter: 403,
  developer: 403,
});
const privateOwner = (success: number): Table => ({ ...privateMaintainer(success), maintainer: 403 });
const adminOnly = (success: number): Table => ({ ...each(403), anonymous: 401, admin: success });

/** On a public project strangers read like members, and writes they may not do are 403. */
const publicRead = (success: number, anonymous = success): Table => ({ ...each(success), anonymous });
const publicMaintainer = (success: number): Table => ({
  ...each(403),
  anonymous: 401,
  maintainer: success,
  owner: success,
  admin: success,
});
const publicOwner = (success: number): Table => ({ ...publicMaintainer(success), maintainer: 403 });

interface Operation {
  name: string;
  expected: Table;
  /** Error bodies other than BODIES for this operation. */
  errors?: Record<number, unknown>;
  /** Makes the call as the role (preparing fresh state first when it consumes something). */
  call: (role: Role) => Promise<{ response: ApiResponse; success?: unknown; after?: () => Promise<unknown> }>;
}

function operationsOn(which: 'private' | 'public'): Operation[] {
  const at = () => world[which];
  const id = () => at().project.id;
  const isPrivate = which === 'private';
  const read = isPrivate ? privateRead : publicRead;
  const anyMember = isPrivate ? privateAnyMember : (success: number) => publicRead(success, 401);
  const maintainer = isPrivate ? privateMaintainer : publicMaintainer;
  const owner = isPrivate ? privateOwner : publicOwner;

  return [
    {
      name: 'GET /projects/:id',
      expected: read(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}`, { token: tokenOf(role) }),
        success: expect.objectContaining({ id: id(), visibility: which }),
      }),
    },
    {
      name: 'GET /projects/:id by full path',
      expected: read(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${encodeURIComponent(at().project.path_with_namespace)}`, {
          token: tokenOf(role),
        }),
        success: expect.objectContaining({ id: id() }),
      }),
    },
    {
      name: 'GET /projects/:id/users',
      expected: read(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}/users`, { token: tokenOf(role) }),
        success: expect.arrayContaining([
          expect.objectContaining({ id: world.users.owner.id }),
          expect.objectContaining({ id: world.target.id }),
        ]),
      }),
    },
    {
      name: 'GET /groups/:id/projects',
      expected: read(200),
      errors: { 404: { message: '404 Group Not Found' } },
      call: async (role) => ({
        response: await api('GET', `/groups/${at().group.id}/projects`, { token: tokenOf(role) }),
        success: expect.arrayContaining([expect.objectContaining({ id: id() })]),
      }),
    },
    {
      name: 'PUT /projects/:id description',
      expected: maintainer(200),
      call: async (role) => ({
        response: await api('PUT', `/projects/${id()}`, {
          token: tokenOf(role),
          json: { description: `by ${role}` },
        }),
        success: expect.objectContaining({ id: id(), description: `by ${role}` }),
      }),
    },
    {
      name: 'PUT /projects/:id path',
      expected: maintainer(200),
      call: async (role) => {
        const path = unique('path');
        const response = await api<ProjectBody>('PUT', `/projects/${id()}`, {
          token: tokenOf(role),
          json: { path },
        });
        if (response.status === 200) at().project = response.body;
        return {
          response,
          success: expect.objectContaining({ path, path_with_namespace: `${at().group.full_path}/${path}` }),
        };
      },
    },
    {
      name: 'PUT /projects/:id name',
      expected: owner(200),
      call: async (role) => {
        const name = unique('Name');
        return {
          response: await api('PUT', `/projects/${id()}`, { token: tokenOf(role), json: { name } }),
          success: expect.objectContaining({ id: id(), name }),
        };
      },
    },
    ...(isPrivate
      ? []
      : [
          {
            name: 'PUT /projects/:id visibility',
            expected: owner(200),
            call: async (role: Role) => ({
              response: await api('PUT', `/projects/${id()}`, {
                token: tokenOf(role),
                json: { visibility: 'internal' },
              }),
              success: expect.objectContaining({ id: id(), visibility: 'internal' }),
              after: () => api('PUT', `/projects/${id()}`, { json: { visibility: 'public' } }),
            }),
          },
        ]),
    {
      name: 'POST /projects/:id/star',
      expected: anyMember(201),
      call: async (role) => ({
        response: await api('POST', `/projects/${id()}/star`, { token: tokenOf(role) }),
        success: expect.objectContaining({ id: id(), star_count: expect.any(Number) }),
      }),
    },
    {
      name: 'POST /projects/:id/unstar (after starring)',
      expected: anyMember(201),
      call: async (role) => {
        await api('POST', `/projects/${id()}/star`, { token: tokenOf(role) });
        return {
          response: await api('POST', `/projects/${id()}/unstar`, { token: tokenOf(role) }),
          success: expect.objectContaining({ id: id() }),
        };
      },
    },
    {
      name: 'POST /projects/:id/archive',
      expected: owner(201),
      call: async (role) => ({
        response: await api('POST', `/projects/${id()}/archive`, { token: tokenOf(role) }),
        success: expect.objectContaining({ id: id(), archived: true }),
        after: () => api('POST', `/projects/${id()}/unarchive`),
      }),
    },
    {
      name: 'POST /projects/:id/unarchive',
      expected: owner(201),
      call: async (role) => {
        await must(api('POST', `/projects/${id()}/archive`), 201, 'archive first');
        return {
          response: await api('POST', `/projects/${id()}/unarchive`, { token: tokenOf(role) }),
          success: expect.objectContaining({ id: id(), archived: false }),
          after: () => api('POST', `/projects/${id()}/unarchive`),
        };
      },
    },
    {
      name: 'POST /projects/:id/share',
      expected: maintainer(201),
      call: async (role) => {
        const group = await publicGroup();
        return {
          response: await api('POST', `/projects/${id()}/share`, {
            token: tokenOf(role),
            json: { group_id: group.id, group_access: 20 },
          }),
          success: {
            id: expect.any(Number),
            project_id: id(),
            group_id: group.id,
            group_access: 20,
            expires_at: null,
          },
        };
      },
    },
    {
      name: 'DELETE /projects/:id/share/:group_id',
      expected: maintainer(204),
      call: async (role) => {
        const group = await publicGroup();
        await must(
          api('POST', `/projects/${id()}/share`, { json: { group_id: group.id, group_access: 20 } }),
          201,
          'share first',
        );
        return {
          response: await api('DELETE', `/projects/${id()}/share/${group.id}`, { token: tokenOf(role) }),
        };
      },
    },
    {
      name: 'POST /projects/:id/uploads',
      expected: anyMember(201),
      call: async (role) => ({
        response: await uploadTo(id(), tokenOf(role), `by ${role}`),
        success: {
          alt: 'notes.txt',
          url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/notes\.txt$/),
          markdown: expect.stringMatching(/^\[notes\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes\.txt\)$/),
          full_path: expect.stringMatching(/\/uploads\/[0-9a-f]{32}\/notes\.txt$/),
        },
      }),
    },
    {
      name: 'GET /projects/:id/uploads/:secret/:filename',
      expected: read(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}${at().upload.url}`, { token: tokenOf(role) }),
        success: at().uploadContent,
      }),
    },
    {
      name: 'GET /projects/:id/members',
      expected: read(200, 401),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}/members`, { token: tokenOf(role) }),
        success: expect.arrayContaining([expect.objectContaining({ id: world.target.id, access_level: 30 })]),
      }),
    },
    {
      name: 'GET /projects/:id/members/:user_id',
      expected: read(200, 401),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}/members/${world.target.id}`, { token: tokenOf(role) }),
        success: expect.objectContaining({ id: world.target.id, username: world.target.username }),
      }),
    },
    {
      name: 'POST /projects/:id/members',
      expected: maintainer(201),
      call: async (role) => {
        const user = await createUser();
        return {
          response: await api('POST', `/projects/${id()}/members`, {
            token: tokenOf(role),
            json: { user_id: user.id, access_level: 20 },
          }),
          success: expect.objectContaining({ id: user.id, access_level: 20 }),
        };
      },
    },
    {
      name: 'PUT /projects/:id/members/:user_id',
      expected: maintainer(200),
      call: async (role) => ({
        response: await api('PUT', `/projects/${id()}/members/${world.target.id}`, {
          token: tokenOf(role),
          json: { access_level: 30 },
        }),
        success: expect.objectContaining({ id: world.target.id, access_level: 30 }),
      }),
    },
    {
      name: 'DELETE /projects/:id/members/:user_id',
      expected: maintainer(204),
      call: async (role) => {
        const member = await freshProjectMember(id());
        return {
          response: await api('DELETE', `/projects/${id()}/members/${member.id}`, { token: tokenOf(role) }),
        };
      },
    },
    {
      name: 'GET /projects/:id/custom_attributes',
      expected: adminOnly(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}/custom_attributes`, { token: tokenOf(role) }),
        success: [{ key: 'tier', value: 'gold' }],
      }),
    },
    {
      name: 'GET /projects/:id/custom_attributes/:key',
      expected: adminOnly(200),
      call: async (role) => ({
        response: await api('GET', `/projects/${id()}/custom_attributes/tier`, { token: tokenOf(role) }),
        success: { key: 'tier', value: 'gold' },
      }),
    },
    {
      name: 'PUT /projects/:id/custom_attributes/:key',
      expected: adminOnly(200),
      call: async (role) => ({
        response: await api('PUT', `/projects/${id()}/custom_attributes/tier`, {
          token: tokenOf(role),
          json: { value: 'gold' },
        }),
        success: { key: 'tier', value: 'gold' },
      }),
    },
    {
      name: 'DELETE /projects/:id/custom_attributes/:key',
      expected: adminOnly(204),
      call: async (role) => {
        const key = unique('scratch');
        await must(
          api('PUT', `/projects/${id()}/custom_attributes/${key}`, { json: { value: 'x' } }),
          200,
          'set scratch',
        );
        return {
          response: await api('DELETE', `/projects/${id()}/custom_attributes/${key}`, {
            token: tokenOf(role),
          }),
          after: () => api('DELETE', `/projects/${id()}/custom_attributes/${key}`),
        };
      },
    },
  ];
}

/** Operations on the private group itself that create or move projects. */
const groupOperations: Operation[] = [
  {
    // GitLab's default project_creation_level lets developers create projects in the group.
    name: 'POST /projects with namespace_id of the group',
    expected: {
      anonymous: 401,
      'non-member': 400,
      guest: 400,
      reporter: 400,
      developer: 201,
      maintainer: 201,
      owner: 201,
      admin: 201,
    },
    errors: { 400: { message: { namespace: ['is not valid'] } } },
    call: async (role) => {
      const name = unique('Created');
      return {
        response: await api('POST', '/projects', {
          token: tokenOf(role),
          json: { name, namespace_id: world.private.group.id },
        }),
        success: expect.objectContaining({
          name,
          namespace: expect.objectContaining({ id: world.private.group.id, kind: 'group' }),
        }),
      };
    },
  },
  {
    name: 'POST /groups/:id/projects/:project_id (transfer)',
    expected: adminOnly(201),
    call: async (role) => {
      const project = await must(
        api<ProjectBody>('POST', '/projects', { json: { name: unique('Transfer') } }),
        201,
        'project to move',
      );
      return {
        response: await api('POST', `/groups/${world.private.group.id}/projects/${project.id}`, {
          token: tokenOf(role),
        }),
        success: expect.objectContaining({
          id: world.private.group.id,
          projects: expect.arrayContaining([
            expect.objectContaining({
              id: project.id,
              path_with_namespace: `${world.private.group.full_path}/${project.path}`,
            }),
          ]),
        }),
      };
    },
  },
  {
    name: 'POST /projects/user/:user_id',
    expected: adminOnly(201),
    call: async (role) => {
      const name = unique('ForUser');
      return {
        response: await api('POST', `/projects/user/${world.users['non-member'].id}`, {
          token: tokenOf(role),
          json: { name },
        }),
        success: expect.objectContaining({
          name,
          owner: expect.objectContaining({ id: world.users['non-member'].id }),
        }),
      };
    },
  },
];

beforeAll(async () => {
  const [owner, guest, reporter, developer, maintainer, stranger, target] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  world = {
    users: { owner, guest, reporter, developer, maintainer, 'non-member': stranger },
    target,
  } as World;
  world.private = await place('private');
  world.public = await place('public');
  world.listed = await must(
    api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Listed'), namespace_id: world.private.group.id },
    }),
    201,
    'listed project',
  );
});

function cells(operations: () => Operation[]) {
  for (const operation of operations()) {
    describe(operation.name, () => {
      for (const role of ROLES) {
        const status = operation.expected[role];
        it(`as ${role} → ${status}`, async () => {
          const { response, success, after } = await operation.call(role);
          try {
            const label = `${operation.name} as ${role}: ${response.text}`;
            expect(response.status, label).toBe(status);
            if (status === 204) expect(response.text, label).toBe('');
            else if (status >= 400) {
              expect(response.body, label).toEqual(operation.errors?.[status] ?? BODIES[status]);
            } else expect(response.body, label).toEqual(success);
          } finally {
            await after?.();
          }
        });
      }
    });
  }
}

describe('projects authorization on a project of a PRIVATE group', () => {
  // Tables are built lazily: `world` exists only once beforeAll ran.
  cells(() => operationsOn('private'));
  cells(() => groupOperations);

  describe('GET /projects lists the private project to those who may read it', () => {
    for (const role of ROLES) {
      const sees = !['anonymous', 'non-member'].includes(role);
      it(`as ${role} → 200 ${sees ? 'with' : 'without'} it`, async () => {
        const response = await api<{ id: number }[]>('GET', `/projects?search=${world.listed.name}`, {
          token: tokenOf(role),
        });
        expect(response.status).toBe(200);
        expect(response.body.map((project) => project.id)).toEqual(sees ? [world.listed.id] : []);
      });
    }
  });
});

describe('projects authorization on a project of a PUBLIC group', () => {
  cells(() => operationsOn('public'));
});
