/**
 * Projects over HTTP: create (names, paths, defaults, namespaces, limits), read by id and path,
 * lists with their audiences, filters, orders and pages, user and group project lists, project
 * users, update rules, stars, archive, shares, members, custom attributes and transfer to a group.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface NamespaceBody {
  id: number;
  name: string;
  path: string;
  kind: string;
  full_path: string;
  parent_id: number | null;
}

interface AccessBody {
  access_level: number;
  notification_level: number;
}

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  description: string | null;
  default_branch: string | null;
  visibility: string;
  path_with_namespace: string;
  name_with_namespace: string;
  namespace: NamespaceBody;
  owner?: { id: number; name: string; username: string; created_at: string };
  permissions?: { project_access: AccessBody | null; group_access: AccessBody | null };
  archived: boolean;
  star_count: number;
  forks_count: number;
  issues_enabled: boolean;
  shared_with_groups: {
    group_id: number;
    group_name: string;
    group_full_path: string;
    group_access_level: number;
    expires_at: string | null;
  }[];
  statistics?: Record<string, number>;
  custom_attributes?: { key: string; value: string }[];
  created_at: string;
  updated_at?: string;
  last_activity_at: string;
  _links?: Record<string, string>;
}

interface GroupBody {
  id: number;
  name: string;
  path: string;
  full_path: string;
  visibility: string;
  projects: ProjectBody[];
  shared_projects: ProjectBody[];
}

interface MemberBody {
  id: number;
  username: string;
  name: string;
  state: string;
  access_level: number;
  expires_at: string | null;
}

const LEVEL = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
const projectNotFound = { message: '404 Project Not Found' };
const forbidden = { message: '403 Forbidden' };
const unauthorized = { message: '401 Unauthorized' };
const pathTaken = { message: { path: ['has already been taken'] } };
const nameTaken = { message: { name: ['has already been taken'] } };
const PATH_RULE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** The keys of GitLab's BasicProjectDetails (simple=true and anonymous lists). */
const SIMPLE_KEYS = [
  'avatar_url',
  'created_at',
  'default_branch',
  'description',
  'forks_count',
  'http_url_to_repo',
  'id',
  'last_activity_at',
  'name',
  'name_with_namespace',
  'namespace',
  'path',
  'path_with_namespace',
  'readme_url',
  'ssh_url_to_repo',
  'star_count',
  'tag_list',
  'topics',
  'web_url',
];

/** Creates a project (as root unless a token is given) and insists on 201. */
function createProject(fields: Record<string, unknown>, token?: string | null): Promise<ProjectBody> {
  return must(api<ProjectBody>('POST', '/projects', { token, json: fields }), 201, 'project create');
}

function createGroup(fields: Record<string, unknown> = {}, token?: string): Promise<GroupBody> {
  const path = (fields.path as string | undefined) ?? unique('pg');
  return must(
    api<GroupBody>('POST', '/groups', { token, json: { name: path, ...fields, path } }),
    201,
    'group create',
  );
}

function addGroupMember(groupId: number, userId: number, accessLevel: number) {
  return must(
    api('POST', `/groups/${groupId}/members`, { json: { user_id: userId, access_level: accessLevel } }),
    201,
    'group member add',
  );
}

function addProjectMember(projectId: number, userId: number, accessLevel: number) {
  return must(
    api<MemberBody>('POST', `/projects/${projectId}/members`, {
      json: { user_id: userId, access_level: accessLevel },
    }),
    201,
    'project member add',
  );
}

const ids = (items: { id: number }[]) => items.map((item) => item.id);
const enc = (path: string) => encodeURIComponent(path);

let baseUrl: string;
beforeAll(() => {
  baseUrl = inject('baseUrl');
});

describe('POST /projects', () => {
  it('name only: the path is the name lowercased with dashes, and every default is GitLab’s', async () => {
    const user = await createUser();
    const response = await api<ProjectBody>('POST', '/projects', {
      token: user.token,
      json: { name: 'Foo Project' },
    });
    expect(response.status).toBe(201);
    const id = response.body.id;
    const self = `${baseUrl}/api/v4/projects/${id}`;
    expect(response.body).toEqual({
      id: expect.any(Number),
      description: null,
      name: 'Foo Project',
      name_with_namespace: `${user.username} / Foo Project`,
      path: 'foo-project',
      path_with_namespace: `${user.username}/foo-project`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      default_branch: 'master',
      tag_list: [],
      topics: [],
      ssh_url_to_repo: `git@127.0.0.1:${user.username}/foo-project.git`,
      http_url_to_repo: `${baseUrl}/${user.username}/foo-project.git`,
      web_url: `${baseUrl}/${user.username}/foo-project`,
      readme_url: null,
      avatar_url: null,
      star_count: 0,
      forks_count: 0,
      last_activity_at: response.body.created_at,
      namespace: {
        id: expect.any(Number),
        name: user.username,
        path: user.username,
        kind: 'user',
        full_path: user.username,
        parent_id: null,
      },
      _links: {
        self,
        issues: `${self}/issues`,
        merge_requests: `${self}/merge_requests`,
        repo_branches: `${self}/repository/branches`,
        labels: `${self}/labels`,
        events: `${self}/events`,
        members: `${self}/members`,
      },
      archived: false,
      visibility: 'private',
      owner: {
        id: user.id,
        name: user.username,
        username: user.username,
        state: 'active',
        avatar_url: `${baseUrl}/assets/no_avatar.png`,
        web_url: `${baseUrl}/${user.username}`,
        created_at: expect.any(String),
      },
      issues_enabled: true,
      merge_requests_enabled: true,
      jobs_enabled: true,
      wiki_enabled: true,
      snippets_enabled: true,
      container_registry_enabled: true,
      shared_runners_enabled: true,
      lfs_enabled: true,
      request_access_enabled: false,
      public_jobs: true,
      resolve_outdated_diff_discussions: false,
      only_allow_merge_if_pipeline_succeeds: false,
      only_allow_merge_if_all_discussions_are_resolved: false,
      printing_merge_request_link_enabled: true,
      printing_merge_requests_link_enabled: true,
      open_issues_count: 0,
      creator_id: user.id,
      import_status: 'none',
      import_error: null,
      import_url: null,
      import_type: null,
      mirror: false,
      runners_token: expect.stringMatching(/^[0-9a-f]{20}$/),
      ci_config_path: null,
      shared_with_groups: [],
      repository_storage: 'default',
      approvals_before_merge: 0,
      merge_method: 'merge',
      public: false,
      permissions: {
        project_access: { access_level: 50, notification_level: 3 },
        group_access: null,
      },
    });

    const again = await api<ProjectBody>('GET', `/projects/${id}`, { token: user.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(response.body);
  });

  it('names with capitals, runs of spaces and accents give a parameterized path', async () => {
    const user = await createUser();
    const response = await api<ProjectBody>('POST', '/projects', {
      token: user.token,
      json: { name: 'Héllo   Wörld_2 -- X' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Héllo   Wörld_2 -- X', path: 'hello-world_2-x' });
  });

  it('path only: the name is the path verbatim', async () => {
    const user = await createUser();
    const response = await api<ProjectBody>('POST', '/projects', {
      token: user.token,
      json: { path: 'foo_Project.v2' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'foo_Project.v2',
      path: 'foo_Project.v2',
      path_with_namespace: `${user.username}/foo_Project.v2`,
      name_with_namespace: `${user.username} / foo_Project.v2`,
    });
  });

  it('both given: both kept as they are, with the other attributes sent', async () => {
    const user = await createUser();
    const response = await api<ProjectBody>('POST', '/projects', {
      token: user.token,
      form: {
        name: 'Name Here',
        path: 'path-Here',
        description: 'desc',
        visibility: 'internal',
        issues_enabled: 'false',
        default_branch: 'main',
        'tag_list[]': 'one',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Name Here',
      path: 'path-Here',
      description: 'desc',
      visibility: 'internal',
      issues_enabled: false,
      default_branch: 'main',
      tag_list: ['one'],
      public: false,
    });
    expect(response.body._links).not.toHaveProperty('issues');
  });

  it('neither name nor path → 400 with Grape’s at_least_one_of sentence', async () => {
    const user = await createUser();
    const response = await api('POST', '/projects', { token: user.token, json: { description: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'name, path are missing, at least one parameter must be provided',
    });
  });

  it('refuses bad values: visibility, invalid path and name', async () => {
    const user = await createUser();
    const visibility = await api('POST', '/projects', {
      token: user.token,
      json: { name: 'v', visibility: 'secret' },
    });
    expect(visibility.status).toBe(400);
    expect(visibility.body).toEqual({ error: 'visibility does not have a valid value' });

    const badPath = await api('POST', '/projects', {
      token: user.token,
      json: { name: 'ok', path: 'has space' },
    });
    expect(badPath.status).toBe(400);
    expect(badPath.body).toEqual({ message: { path: [PATH_RULE] } });

    const dash = await api('POST', '/projects', { token: user.token, json: { path: '-dash' } });
    expect(dash.status).toBe(400);
    expect(dash.body).toEqual({
      message: {
        name: [
          "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.",
        ],
        path: [PATH_RULE],
      },
    });

    const git = await api('POST', '/projects', { token: user.token, json: { path: 'repo.git' } });
    expect(git.status).toBe(400);
    expect(git.body).toEqual({ message: { path: [PATH_RULE] } });

    const listed = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });

  it('duplicate path or name in one namespace → 400; the same path elsewhere is fine', async () => {
    const user = await createUser();
    const other = await createUser();
    await createProject({ name: 'Alpha', path: 'alpha' }, user.token);

    const path = await api('POST', '/projects', { token: user.token, json: { name: 'Beta', path: 'alpha' } });
    expect(path.status).toBe(400);
    expect(path.body).toEqual(pathTaken);

    const name = await api('POST', '/projects', {
      token: user.token,
      json: { name: 'Alpha', path: 'gamma' },
    });
    expect(name.status).toBe(400);
    expect(name.body).toEqual(nameTaken);

    const both = await api('POST', '/projects', { token: user.token, json: { name: 'Alpha' } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    });

    const elsewhere = await api<ProjectBody>('POST', '/projects', {
      token: other.token,
      json: { name: 'Alpha', path: 'alpha' },
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.path_with_namespace).toBe(`${other.username}/alpha`);

    const mine = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: user.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((project) => project.path)).toEqual(['alpha']);
  });

  it('namespace_id of a group whose project_creation_level is maintainer: maintainers and owners create there; developers and strangers get 400', async () => {
    const [owner, maintainer, developer, stranger] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    const group = await createGroup(
      { name: 'Team Space', project_creation_level: 'maintainer' },
      owner.token,
    );
    await addGroupMember(group.id, maintainer.id, LEVEL.maintainer);
    await addGroupMember(group.id, developer.id, LEVEL.developer);

    const byOwner = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: 'By Owner', namespace_id: group.id },
    });
    expect(byOwner.status).toBe(201);
    expect(byOwner.body).toMatchObject({
      path: 'by-owner',
      path_with_namespace: `${group.full_path}/by-owner`,
      name_with_namespace: 'Team Space / By Owner',
      namespace: {
        id: group.id,
        name: 'Team Space',
        path: group.path,
        kind: 'group',
        full_path: group.full_path,
        parent_id: null,
      },
      creator_id: owner.id,
      permissions: { project_access: null, group_access: { access_level: 50, notification_level: 3 } },
    });
    expect(byOwner.body).not.toHaveProperty('owner');

    const byMaintainer = await api<ProjectBody>('POST', '/projects', {
      token: maintainer.token,
      form: { path: 'by-maintainer', namespace_id: String(group.id) },
    });
    expect(byMaintainer.status).toBe(201);
    expect(byMaintainer.body).toMatchObject({
      path_with_namespace: `${group.full_path}/by-maintainer`,
      creator_id: maintainer.id,
      permissions: { project_access: null, group_access: { access_level: 40, notification_level: 3 } },
    });

    for (const user of [developer, stranger]) {
      const refused = await api('POST', '/projects', {
        token: user.token,
        json: { name: 'Nope', namespace_id: group.id },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { namespace: ['is not valid'] } });
    }

    const sub = await createGroup(
      { parent_id: group.id, path: 'sub', project_creation_level: 'maintainer' },
      owner.token,
    );
    const inherited = await api<ProjectBody>('POST', '/projects', {
      token: maintainer.token,
      json: { name: 'In Sub', namespace_id: sub.id },
    });
    expect(inherited.status).toBe(201);
    expect(inherited.body).toMatchObject({
      path_with_namespace: `${group.full_path}/sub/in-sub`,
      name_with_namespace: 'Team Space / sub / In Sub',
      namespace: { id: sub.id, parent_id: group.id, full_path: `${group.full_path}/sub` },
    });
    const inheritedDeveloper = await api('POST', '/projects', {
      token: developer.token,
      json: { name: 'In Sub Too', namespace_id: sub.id },
    });
    expect(inheritedDeveloper.status).toBe(400);
    expect(inheritedDeveloper.body).toEqual({ message: { namespace: ['is not valid'] } });

    const missing = await api('POST', '/projects', {
      token: owner.token,
      json: { name: 'Nope', namespace_id: 987654321 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: { namespace: ['is not valid'] } });

    const invalid = await api('POST', '/projects', {
      token: owner.token,
      json: { name: 'Nope', namespace_id: 'abc' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'namespace_id is invalid' });

    const listed = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?order_by=path&sort=asc`, {
      token: owner.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((project) => project.path)).toEqual(['by-maintainer', 'by-owner']);
  });

  it('another user’s personal namespace is not valid; admins may create anywhere', async () => {
    const [owner, other] = await Promise.all([createUser(), createUser()]);
    const first = await createProject({ name: 'Seed' }, owner.token);
    const namespaceId = first.namespace.id;

    const refused = await api('POST', '/projects', {
      token: other.token,
      json: { name: 'Intruder', namespace_id: namespaceId },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { namespace: ['is not valid'] } });

    const byAdmin = await api<ProjectBody>('POST', '/projects', {
      json: { name: 'From Admin', namespace_id: namespaceId },
    });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({
      path_with_namespace: `${owner.username}/from-admin`,
      owner: { id: owner.id, username: owner.username },
      creator_id: expect.any(Number),
    });
    const seen = await api<ProjectBody>('GET', `/projects/${byAdmin.body.id}`, { token: owner.token });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({
      project_access: { access_level: 50, notification_level: 3 },
      group_access: null,
    });
  });

  it('visibility may not exceed the group’s: public in a private group, public in an internal group', async () => {
    const privateGroup = await createGroup({ visibility: 'private' });
    const publicIn = await api('POST', '/projects', {
      json: { name: 'Loud', namespace_id: privateGroup.id, visibility: 'public' },
    });
    expect(publicIn.status).toBe(400);
    expect(publicIn.body).toEqual({
      message: { visibility_level: ['public is not allowed in a private group.'] },
    });
    const internalIn = await api('POST', '/projects', {
      json: { name: 'Loud', namespace_id: privateGroup.id, visibility: 'internal' },
    });
    expect(internalIn.status).toBe(400);
    expect(internalIn.body).toEqual({
      message: { visibility_level: ['internal is not allowed in a private group.'] },
    });

    const internalGroup = await createGroup({ visibility: 'internal' });
    const publicInInternal = await api('POST', '/projects', {
      json: { name: 'Loud', namespace_id: internalGroup.id, visibility: 'public' },
    });
    expect(publicInInternal.status).toBe(400);
    expect(publicInInternal.body).toEqual({
      message: { visibility_level: ['public is not allowed in a internal group.'] },
    });
    const fits = await api<ProjectBody>('POST', '/projects', {
      json: { name: 'Loud', namespace_id: internalGroup.id, visibility: 'internal' },
    });
    expect(fits.status).toBe(201);
    expect(fits.body.visibility).toBe('internal');
  });

  it('projects_limit: the personal namespace is full → 403 with the limit message; groups are not limited', async () => {
    const username = unique('limit');
    const created = await must(
      api<{ id: number }>('POST', '/users', {
        json: {
          username,
          email: `${username}@example.com`,
          name: username,
          password: 'password123',
          projects_limit: 1,
        },
      }),
      201,
      'user create',
    );
    const token = await must(
      api<{ token: string }>('POST', `/users/${created.id}/personal_access_tokens`, {
        json: { name: 't', scopes: ['api'] },
      }),
      201,
      'token',
    );
    await createProject({ name: 'One' }, token.token);
    const second = await api('POST', '/projects', { token: token.token, json: { name: 'Two' } });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({
      error: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
    });

    const group = await createGroup();
    await addGroupMember(group.id, created.id, LEVEL.maintainer);
    const inGroup = await api<ProjectBody>('POST', '/projects', {
      token: token.token,
      json: { name: 'Two', namespace_id: group.id },
    });
    expect(inGroup.status).toBe(201);
    expect(inGroup.body.path_with_namespace).toBe(`${group.full_path}/two`);
  });

  it('anonymous → 401', async () => {
    const response = await api('POST', '/projects', { token: null, json: { name: 'anon' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorized);
  });
});

describe('paths, names and places follow their owners', () => {
  it('paths are unique in a namespace regardless of case', async () => {
    const user = await createUser();
    await createProject({ name: 'Case Test', path: 'CaseTest' }, user.token);
    const lower = await api('POST', '/projects', {
      token: user.token,
      json: { name: 'Other', path: 'casetest' },
    });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual(pathTaken);
  });

  it('a group path change moves its projects; the old full path is 404', async () => {
    const group = await createGroup({ name: unique('Movable') });
    const project = await createProject({ name: 'Inside', namespace_id: group.id });
    const newPath = unique('moved-group');
    await must(
      api('PUT', `/groups/${group.id}`, { json: { path: newPath, name: 'Moved Group' } }),
      200,
      'group update',
    );

    const moved = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      path_with_namespace: `${newPath}/inside`,
      name_with_namespace: 'Moved Group / Inside',
      namespace: { id: group.id, path: newPath, full_path: newPath, name: 'Moved Group' },
    });
    const byNewPath = await api<ProjectBody>('GET', `/projects/${enc(`${newPath}/inside`)}`);
    expect(byNewPath.status).toBe(200);
    expect(byNewPath.body.id).toBe(project.id);
    const byOldPath = await api('GET', `/projects/${enc(project.path_with_namespace)}`);
    expect(byOldPath.status).toBe(404);
    expect(byOldPath.body).toEqual(projectNotFound);
  });

  it('a username change moves the personal projects', async () => {
    const user = await createUser();
    const project = await createProject({ name: 'Personal' }, user.token);
    const renamed = unique('renamed');
    await must(api('PUT', `/users/${user.id}`, { json: { username: renamed } }), 200, 'user update');
    const moved = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: user.token });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      path_with_namespace: `${renamed}/personal`,
      namespace: { path: renamed, full_path: renamed, kind: 'user' },
      owner: { id: user.id, username: renamed },
    });
    const byNewPath = await api<ProjectBody>('GET', `/projects/${enc(`${renamed}/personal`)}`, {
      token: user.token,
    });
    expect(byNewPath.status).toBe(200);
    expect(byNewPath.body.id).toBe(project.id);
    const byOldPath = await api('GET', `/projects/${enc(project.path_with_namespace)}`, {
      token: user.token,
    });
    expect(byOldPath.status).toBe(404);
    expect(byOldPath.body).toEqual(projectNotFound);
  });

  it('a visibility change moves the project between audiences', async () => {
    const user = await createUser();
    const term = unique('flip');
    const project = await createProject({ name: `${term} Flip` }, user.token);
    const before = await api<ProjectBody[]>('GET', `/projects?search=${term}`, { token: null });
    expect(before.status).toBe(200);
    expect(before.body).toEqual([]);
    await must(
      api('PUT', `/projects/${project.id}`, { token: user.token, json: { visibility: 'public' } }),
      200,
      'publish',
    );
    const after = await api<ProjectBody[]>('GET', `/projects?search=${term}`, { token: null });
    expect(after.status).toBe(200);
    expect(ids(after.body)).toEqual([project.id]);
    const publicOnly = await api<ProjectBody[]>(`GET`, `/projects?search=${term}&visibility=public`);
    expect(publicOnly.status).toBe(200);
    expect(ids(publicOnly.body)).toEqual([project.id]);
    await must(
      api('PUT', `/projects/${project.id}`, { token: user.token, json: { visibility: 'private' } }),
      200,
      'hide',
    );
    const hidden = await api('GET', `/projects/${project.id}`, { token: null });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(projectNotFound);
  });

  it('external users do not see internal projects', async () => {
    const owner = await createUser();
    const username = unique('ext');
    const external = await must(
      api<{ id: number }>('POST', '/users', {
        json: {
          username,
          email: `${username}@example.com`,
          name: username,
          password: 'password123',
          external: true,
        },
      }),
      201,
      'external user',
    );
    const token = await must(
      api<{ token: string }>('POST', `/users/${external.id}/personal_access_tokens`, {
        json: { name: 't', scopes: ['api'] },
      }),
      201,
      'token',
    );
    const term = unique('extv');
    const internal = await createProject({ name: `${term} In`, visibility: 'internal' }, owner.token);
    const open = await createProject({ name: `${term} Out`, visibility: 'public' }, owner.token);
    const read = await api('GET', `/projects/${internal.id}`, { token: token.token });
    expect(read.status).toBe(404);
    expect(read.body).toEqual(projectNotFound);
    const listed = await api<ProjectBody[]>('GET', `/projects?search=${term}`, { token: token.token });
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toEqual([open.id]);
  });
});

describe('POST /projects/user/:user_id', () => {
  it('admin creates a project the target user owns', async () => {
    const user = await createUser();
    const response = await api<ProjectBody>('POST', `/projects/user/${user.id}`, {
      json: { name: 'For You', description: 'made by admin', visibility: 'internal' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'For You',
      path: 'for-you',
      description: 'made by admin',
      visibility: 'internal',
      default_branch: 'master',
      path_with_namespace: `${user.username}/for-you`,
      namespace: { kind: 'user', path: user.username, full_path: user.username },
      owner: { id: user.id, username: user.username },
      creator_id: user.id,
      permissions: { project_access: null, group_access: null },
    });

    const asUser = await api<ProjectBody>('GET', `/projects/${response.body.id}`, { token: user.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body.permissions).toEqual({
      project_access: { access_level: 50, notification_level: 3 },
      group_access: null,
    });
    const owned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: user.token });
    expect(owned.status).toBe(200);
    expect(ids(owned.body)).toEqual([response.body.id]);
    const members = await api<MemberBody[]>('GET', `/projects/${response.body.id}/members`, {
      token: user.token,
    });
    expect(members.status).toBe(200);
    expect(members.body.map((member) => [member.id, member.access_level])).toEqual([[user.id, 50]]);
  });

  it('non-admin → 403, anonymous → 401, name missing → 400, unknown user → 404', async () => {
    const [user, target] = await Promise.all([createUser(), createUser()]);
    const nonAdmin = await api('POST', `/projects/user/${target.id}`, {
      token: user.token,
      json: { name: 'x' },
    });
    expect(nonAdmin.status).toBe(403);
    expect(nonAdmin.body).toEqual(forbidden);

    const anonymous = await api('POST', `/projects/user/${target.id}`, { token: null, json: { name: 'x' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthorized);

    const noName = await api('POST', `/projects/user/${target.id}`, { json: { path: 'x' } });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ error: 'name is missing' });

    const unknown = await api('POST', '/projects/user/987654321', { json: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });

    const owned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: target.token });
    expect(owned.status).toBe(200);
    expect(owned.body).toEqual([]);
  });
});

describe('GET /projects/:id', () => {
  it('by id, by URL-encoded path (any case) and by nested group path; a raw slash is no route', async () => {
    const user = await createUser();
    const personal = await createProject({ name: 'Lookup Me' }, user.token);
    const byPath = await api<ProjectBody>('GET', `/projects/${enc(`${user.username}/lookup-me`)}`, {
      token: user.token,
    });
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(personal.id);
    const upper = await api<ProjectBody>('GET', `/projects/${enc(`${user.username}/LOOKUP-ME`)}`, {
      token: user.token,
    });
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(personal.id);

    const top = await createGroup({ name: 'Top' });
    const sub = await must(
      api<GroupBody>('POST', '/groups', { json: { name: 'Sub', path: 'sub', parent_id: top.id } }),
      201,
      'subgroup',
    );
    const nested = await createProject({ name: 'Deep', namespace_id: sub.id });
    expect(nested).toMatchObject({
      path_with_namespace: `${top.full_path}/sub/deep`,
      name_with_namespace: `${top.name} / Sub / Deep`,
      namespace: { id: sub.id, kind: 'group', full_path: `${top.full_path}/sub`, parent_id: top.id },
    });
    const deep = await api<ProjectBody>('GET', `/projects/${enc(`${top.full_path}/sub/deep`)}`);
    expect(deep.status).toBe(200);
    expect(deep.body.id).toBe(nested.id);

    const raw = await api('GET', `/projects/${top.full_path}/sub/deep`);
    expect(raw.status).toBe(404);
    expect(raw.body).toEqual({ error: '404 Not Found' });

    for (const missing of ['987654321', enc(`${top.full_path}/nope`)]) {
      const response = await api('GET', `/projects/${missing}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(projectNotFound);
    }
  });

  it('anonymous: public 200 without permissions, internal and private 404', async () => {
    const user = await createUser();
    const [publicProject, internalProject, privateProject] = await Promise.all(
      (['public', 'internal', 'private'] as const).map((visibility) =>
        createProject({ name: `Vis ${visibility}`, visibility }, user.token),
      ),
    );
    const open = await api<ProjectBody>('GET', `/projects/${publicProject?.id}`, { token: null });
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ id: publicProject?.id, visibility: 'public', public: true });
    expect(open.body).not.toHaveProperty('permissions');
    const byPath = await api<ProjectBody>(
      'GET',
      `/projects/${enc(publicProject?.path_with_namespace ?? '')}`,
      {
        token: null,
      },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(publicProject?.id);

    for (const hidden of [internalProject, privateProject]) {
      const byId = await api('GET', `/projects/${hidden?.id}`, { token: null });
      expect(byId.status).toBe(404);
      expect(byId.body).toEqual(projectNotFound);
      const byHiddenPath = await api('GET', `/projects/${enc(hidden?.path_with_namespace ?? '')}`, {
        token: null,
      });
      expect(byHiddenPath.status).toBe(404);
      expect(byHiddenPath.body).toEqual(projectNotFound);
    }

    const stranger = await createUser();
    const internal = await api<ProjectBody>('GET', `/projects/${internalProject?.id}`, {
      token: stranger.token,
    });
    expect(internal.status).toBe(200);
    expect(internal.body.permissions).toEqual({ project_access: null, group_access: null });
    const hidden = await api('GET', `/projects/${privateProject?.id}`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(projectNotFound);
  });

  it('statistics=true adds the statistics object', async () => {
    const project = await createProject({ name: unique('Stats') });
    const plain = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('statistics');
    const withStats = await api<ProjectBody>('GET', `/projects/${project.id}?statistics=true`);
    expect(withStats.status).toBe(200);
    expect(withStats.body.statistics).toEqual({
      commit_count: 0,
      storage_size: 0,
      repository_size: 0,
      wiki_size: 0,
      lfs_objects_size: 0,
      job_artifacts_size: 0,
      packages_size: 0,
      snippets_size: 0,
      uploads_size: 0,
    });
  });

  it('with_custom_attributes shows them to admins only', async () => {
    const user = await createUser();
    const project = await createProject({ name: 'Attrs' }, user.token);
    await must(
      api('PUT', `/projects/${project.id}/custom_attributes/tier`, { json: { value: 'gold' } }),
      200,
      'set attribute',
    );
    const admin = await api<ProjectBody>('GET', `/projects/${project.id}?with_custom_attributes=true`);
    expect(admin.status).toBe(200);
    expect(admin.body.custom_attributes).toEqual([{ key: 'tier', value: 'gold' }]);
    const withoutFlag = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(withoutFlag.status).toBe(200);
    expect(withoutFlag.body).not.toHaveProperty('custom_attributes');
    const owner = await api<ProjectBody>('GET', `/projects/${project.id}?with_custom_attributes=true`, {
      token: user.token,
    });
    expect(owner.status).toBe(200);
    expect(owner.body).not.toHaveProperty('custom_attributes');
  });
});

describe('GET /projects', () => {
  let prefix: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let mine: Record<'public' | 'internal' | 'private' | 'bob', ProjectBody>;

  beforeAll(async () => {
    prefix = unique('lst');
    [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
    mine = {
      public: await createProject({ name: `${prefix} Public`, visibility: 'public' }, alice.token),
      internal: await createProject({ name: `${prefix} Internal`, visibility: 'internal' }, alice.token),
      private: await createProject({ name: `${prefix} Private`, visibility: 'private' }, alice.token),
      bob: await createProject({ name: `${prefix} Bob`, visibility: 'private' }, bob.token),
    };
  });

  const list = (query: string, token?: string | null) =>
    api<ProjectBody[]>('GET', `/projects?search=${prefix}${query}`, { token });

  it('anonymous sees only public projects, as simple entities', async () => {
    const response = await list('', null);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([mine.public.id]);
    expect(Object.keys(response.body[0] ?? {}).sort()).toEqual(SIMPLE_KEYS);
    expect(response.body[0]).toMatchObject({
      id: mine.public.id,
      name: `${prefix} Public`,
      path_with_namespace: `${alice.username}/${prefix}-public`,
      web_url: `${baseUrl}/${alice.username}/${prefix}-public`,
    });
    expect(response.headers.get('x-total')).toBe('1');
  });

  it('a user sees public, internal and their own private projects; others’ private ones stay hidden', async () => {
    const asCarol = await list('', carol.token);
    expect(asCarol.status).toBe(200);
    expect(ids(asCarol.body)).toEqual([mine.internal.id, mine.public.id]);
    expect(asCarol.body[0]).toMatchObject({
      visibility: 'internal',
      permissions: { project_access: null, group_access: null },
    });

    const asAlice = await list('', alice.token);
    expect(asAlice.status).toBe(200);
    expect(ids(asAlice.body)).toEqual([mine.private.id, mine.internal.id, mine.public.id]);
    expect(asAlice.body[0]?.permissions).toEqual({
      project_access: { access_level: 50, notification_level: 3 },
      group_access: null,
    });

    const asBob = await list('', bob.token);
    expect(asBob.status).toBe(200);
    expect(ids(asBob.body)).toEqual([mine.bob.id, mine.internal.id, mine.public.id]);
  });

  it('admins see all of them', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([mine.bob.id, mine.private.id, mine.internal.id, mine.public.id]);
    expect(response.headers.get('x-total')).toBe('4');
  });

  it('a project member sees that private project too', async () => {
    const dave = await createUser();
    await addProjectMember(mine.bob.id, dave.id, LEVEL.reporter);
    const response = await list('', dave.token);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([mine.bob.id, mine.internal.id, mine.public.id]);
    expect(response.body[0]?.permissions).toEqual({
      project_access: { access_level: 20, notification_level: 3 },
      group_access: null,
    });
    const membership = await list('&membership=true', dave.token);
    expect(membership.status).toBe(200);
    expect(ids(membership.body)).toEqual([mine.bob.id]);
  });

  it('visibility filter', async () => {
    for (const visibility of ['public', 'internal', 'private'] as const) {
      const response = await list(`&visibility=${visibility}`);
      expect(response.status).toBe(200);
      const expected = visibility === 'private' ? [mine.bob.id, mine.private.id] : [mine[visibility].id];
      expect(ids(response.body)).toEqual(expected);
    }
    const asCarol = await list('&visibility=private', carol.token);
    expect(asCarol.status).toBe(200);
    expect(asCarol.body).toEqual([]);
    const bad = await list('&visibility=secret');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('search matches name, path or description, case-insensitively; short terms only whole values', async () => {
    const user = await createUser();
    const term = unique('srch');
    const byName = await createProject({ name: `Has ${term.toUpperCase()} Inside`, path: 'p1' }, user.token);
    const byPath = await createProject({ name: 'Plain One', path: `x-${term}-y` }, user.token);
    const byDescription = await createProject(
      { name: 'Plain Two', path: 'p3', description: `about ${term} things` },
      user.token,
    );
    await createProject({ name: 'Unrelated', path: 'p4' }, user.token);

    const response = await api<ProjectBody[]>('GET', `/projects?search=${term.toUpperCase()}`, {
      token: user.token,
    });
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([byDescription.id, byPath.id, byName.id]);

    const short = await api<ProjectBody[]>('GET', '/projects?search=p3&owned=true', { token: user.token });
    expect(short.status).toBe(200);
    expect(ids(short.body)).toEqual([byDescription.id]);
    const shortPartial = await api<ProjectBody[]>('GET', '/projects?search=p&owned=true', {
      token: user.token,
    });
    expect(shortPartial.status).toBe(200);
    expect(shortPartial.body).toEqual([]);
  });

  it('min_access_level keeps the projects where the caller has at least that level', async () => {
    const [user, owner] = await Promise.all([createUser(), createUser()]);
    const group = await createGroup({}, owner.token);
    await addGroupMember(group.id, user.id, LEVEL.reporter);
    const viaGroup = await createProject({ name: unique('Reported'), namespace_id: group.id }, owner.token);
    const direct = await createProject({ name: unique('Maintained') }, owner.token);
    await addProjectMember(direct.id, user.id, LEVEL.maintainer);
    const own = await createProject({ name: unique('Owned') }, user.token);

    const reporterUp = await api<ProjectBody[]>('GET', '/projects?min_access_level=20', {
      token: user.token,
    });
    expect(reporterUp.status).toBe(200);
    expect(ids(reporterUp.body)).toEqual([own.id, direct.id, viaGroup.id]);
    const maintainerUp = await api<ProjectBody[]>('GET', '/projects?min_access_level=40', {
      token: user.token,
    });
    expect(maintainerUp.status).toBe(200);
    expect(ids(maintainerUp.body)).toEqual([own.id, direct.id]);
    const ownerOnly = await api<ProjectBody[]>('GET', '/projects?min_access_level=50', { token: user.token });
    expect(ownerOnly.status).toBe(200);
    expect(ids(ownerOnly.body)).toEqual([own.id]);
  });

  it('a starred project that turns private leaves the starred list of those who cannot read it', async () => {
    const [owner, fan] = await Promise.all([createUser(), createUser()]);
    const project = await createProject({ name: unique('Fading'), visibility: 'public' }, owner.token);
    await must(api('POST', `/projects/${project.id}/star`, { token: fan.token }), 201, 'star');
    const before = await api<ProjectBody[]>('GET', '/projects?starred=true', { token: fan.token });
    expect(before.status).toBe(200);
    expect(ids(before.body)).toEqual([project.id]);
    await must(
      api('PUT', `/projects/${project.id}`, { token: owner.token, json: { visibility: 'private' } }),
      200,
      'hide',
    );
    const after = await api<ProjectBody[]>('GET', '/projects?starred=true', { token: fan.token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual([]);
    const stillCounted = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: owner.token });
    expect(stillCounted.status).toBe(200);
    expect(stillCounted.body.star_count).toBe(1);
  });

  it('owned, membership and starred narrow to the caller’s own sets', async () => {
    const [erin, owner] = await Promise.all([createUser(), createUser()]);
    const own = await createProject({ name: unique('Own') }, erin.token);
    const group = await createGroup({}, owner.token);
    await addGroupMember(group.id, erin.id, LEVEL.developer);
    const groupProject = await createProject(
      { name: unique('InGroup'), namespace_id: group.id },
      owner.token,
    );
    const starredOne = await createProject({ name: unique('Starred'), visibility: 'public' }, owner.token);
    await must(api('POST', `/projects/${starredOne.id}/star`, { token: erin.token }), 201, 'star');

    const owned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: erin.token });
    expect(owned.status).toBe(200);
    expect(ids(owned.body)).toEqual([own.id]);

    const membership = await api<ProjectBody[]>('GET', '/projects?membership=true', { token: erin.token });
    expect(membership.status).toBe(200);
    expect(ids(membership.body)).toEqual([groupProject.id, own.id]);
    expect(membership.body[0]?.permissions).toEqual({
      project_access: null,
      group_access: { access_level: 30, notification_level: 3 },
    });

    const starred = await api<ProjectBody[]>('GET', '/projects?starred=true', { token: erin.token });
    expect(starred.status).toBe(200);
    expect(ids(starred.body)).toEqual([starredOne.id]);
    expect(starred.body[0]?.star_count).toBe(1);

    const ownerOwned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: owner.token });
    expect(ownerOwned.status).toBe(200);
    expect(ids(ownerOwned.body)).toEqual([starredOne.id, groupProject.id]);
  });

  it('archived: true only archived, false only active, omitted both', async () => {
    const user = await createUser();
    const term = unique('arch');
    const active = await createProject({ name: `${term} Active` }, user.token);
    const archived = await createProject({ name: `${term} Archived` }, user.token);
    await must(api('POST', `/projects/${archived.id}/archive`, { token: user.token }), 201, 'archive');

    const only = await api<ProjectBody[]>('GET', `/projects?search=${term}&archived=true`, {
      token: user.token,
    });
    expect(only.status).toBe(200);
    expect(ids(only.body)).toEqual([archived.id]);
    expect(only.body[0]?.archived).toBe(true);
    const none = await api<ProjectBody[]>('GET', `/projects?search=${term}&archived=false`, {
      token: user.token,
    });
    expect(none.status).toBe(200);
    expect(ids(none.body)).toEqual([active.id]);
    const both = await api<ProjectBody[]>('GET', `/projects?search=${term}`, { token: user.token });
    expect(both.status).toBe(200);
    expect(ids(both.body)).toEqual([archived.id, active.id]);
  });

  it('simple=true gives only the basic fields; with_issues_enabled; custom_attributes[key]=value (admin)', async () => {
    const user = await createUser();
    const term = unique('flt');
    const issues = await createProject({ name: `${term} Issues` }, user.token);
    const noIssues = await createProject({ name: `${term} Quiet`, issues_enabled: false }, user.token);
    await must(
      api('PUT', `/projects/${noIssues.id}/custom_attributes/color`, { json: { value: 'red' } }),
      200,
      'attribute',
    );

    const simple = await api<ProjectBody[]>('GET', `/projects?search=${term}&simple=true`, {
      token: user.token,
    });
    expect(simple.status).toBe(200);
    expect(ids(simple.body)).toEqual([noIssues.id, issues.id]);
    for (const item of simple.body) expect(Object.keys(item).sort()).toEqual(SIMPLE_KEYS);

    const withIssues = await api<ProjectBody[]>('GET', `/projects?search=${term}&with_issues_enabled=true`, {
      token: user.token,
    });
    expect(withIssues.status).toBe(200);
    expect(ids(withIssues.body)).toEqual([issues.id]);

    const red = await api<ProjectBody[]>(
      'GET',
      `/projects?search=${term}&custom_attributes[color]=red&with_custom_attributes=true`,
    );
    expect(red.status).toBe(200);
    expect(ids(red.body)).toEqual([noIssues.id]);
    expect(red.body[0]?.custom_attributes).toEqual([{ key: 'color', value: 'red' }]);
    const blue = await api<ProjectBody[]>('GET', `/projects?search=${term}&custom_attributes[color]=blue`);
    expect(blue.status).toBe(200);
    expect(blue.body).toEqual([]);
    const ignoredForUsers = await api<ProjectBody[]>(
      'GET',
      `/projects?search=${term}&custom_attributes[color]=blue`,
      {
        token: user.token,
      },
    );
    expect(ignoredForUsers.status).toBe(200);
    expect(ids(ignoredForUsers.body)).toEqual([noIssues.id, issues.id]);

    const noMergeRequests = await createProject(
      { name: `${term} NoMR`, merge_requests_enabled: false },
      user.token,
    );
    const withMergeRequests = await api<ProjectBody[]>(
      'GET',
      `/projects?search=${term}&with_merge_requests_enabled=true&statistics=true`,
      { token: user.token },
    );
    expect(withMergeRequests.status).toBe(200);
    expect(ids(withMergeRequests.body)).toEqual([noIssues.id, issues.id]);
    expect(withMergeRequests.body[0]?.statistics).toEqual({
      commit_count: 0,
      storage_size: 0,
      repository_size: 0,
      wiki_size: 0,
      lfs_objects_size: 0,
      job_artifacts_size: 0,
      packages_size: 0,
      snippets_size: 0,
      uploads_size: 0,
    });
    const all = await api<ProjectBody[]>('GET', `/projects?search=${term}`, { token: user.token });
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([noMergeRequests.id, noIssues.id, issues.id]);
  });

  describe('order_by × sort', () => {
    let term: string;
    let p1: ProjectBody;
    let p2: ProjectBody;
    let p3: ProjectBody;

    beforeAll(async () => {
      term = unique('ord');
      p1 = await createProject({ name: `${term} C`, path: `${term}-b` });
      p2 = await createProject({ name: `${term} A`, path: `${term}-c` });
      p3 = await createProject({ name: `${term} B`, path: `${term}-a` });
      // Touch p2 then p1: updated_at and last_activity_at order becomes p3, p2, p1.
      await must(api('PUT', `/projects/${p2.id}`, { json: { description: 'touched' } }), 200, 'touch p2');
      await must(api('PUT', `/projects/${p1.id}`, { json: { description: 'touched' } }), 200, 'touch p1');
    });

    const ascending: Record<string, () => ProjectBody[]> = {
      id: () => [p1, p2, p3],
      name: () => [p2, p3, p1],
      path: () => [p3, p1, p2],
      created_at: () => [p1, p2, p3],
      updated_at: () => [p3, p2, p1],
      last_activity_at: () => [p3, p2, p1],
    };

    for (const [order, expected] of Object.entries(ascending)) {
      for (const sort of ['asc', 'desc'] as const) {
        it(`order_by=${order}&sort=${sort}`, async () => {
          const response = await api<ProjectBody[]>(
            'GET',
            `/projects?search=${term}&order_by=${order}&sort=${sort}`,
          );
          expect(response.status).toBe(200);
          const want = ids(expected());
          expect(ids(response.body)).toEqual(sort === 'asc' ? want : [...want].reverse());
        });
      }
    }

    it('defaults to created_at desc', async () => {
      const response = await api<ProjectBody[]>('GET', `/projects?search=${term}`);
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([p3.id, p2.id, p1.id]);
    });

    it('an unknown order_by or sort → 400', async () => {
      const order = await api('GET', `/projects?search=${term}&order_by=stars`);
      expect(order.status).toBe(400);
      expect(order.body).toEqual({ error: 'order_by does not have a valid value' });
      const sort = await api('GET', `/projects?search=${term}&sort=up`);
      expect(sort.status).toBe(400);
      expect(sort.body).toEqual({ error: 'sort does not have a valid value' });
    });

    it('pagination headers and Link', async () => {
      const first = await api<ProjectBody[]>(
        'GET',
        `/projects?search=${term}&order_by=id&sort=asc&per_page=2`,
      );
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual([p1.id, p2.id]);
      expect({
        total: first.headers.get('x-total'),
        pages: first.headers.get('x-total-pages'),
        perPage: first.headers.get('x-per-page'),
        page: first.headers.get('x-page'),
        next: first.headers.get('x-next-page'),
        prev: first.headers.get('x-prev-page'),
      }).toEqual({ total: '3', pages: '2', perPage: '2', page: '1', next: '2', prev: '' });
      const link = first.headers.get('link') ?? '';
      const base = `${inject('apiUrl')}/projects?`;
      expect(link).toBe(
        [
          `<${base}order_by=id&page=2&per_page=2&search=${term}&sort=asc>; rel="next"`,
          `<${base}order_by=id&page=1&per_page=2&search=${term}&sort=asc>; rel="first"`,
          `<${base}order_by=id&page=2&per_page=2&search=${term}&sort=asc>; rel="last"`,
        ].join(', '),
      );

      const second = await api<ProjectBody[]>(
        'GET',
        `/projects?search=${term}&order_by=id&sort=asc&per_page=2&page=2`,
      );
      expect(second.status).toBe(200);
      expect(ids(second.body)).toEqual([p3.id]);
      expect(second.headers.get('x-next-page')).toBe('');
      expect(second.headers.get('x-prev-page')).toBe('1');
      expect(second.headers.get('link')).toContain('rel="prev"');
      expect(second.headers.get('link')).not.toContain('rel="next"');

      const beyond = await api<ProjectBody[]>('GET', `/projects?search=${term}&per_page=2&page=5`);
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);
      expect(beyond.headers.get('x-total')).toBe('3');
    });
  });
});

describe('GET /users/:user_id/projects', () => {
  it('lists the personal projects by id or username, as the caller may see them', async () => {
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const open = await createProject({ name: 'Open', visibility: 'public' }, owner.token);
    const inside = await createProject({ name: 'Inside', visibility: 'internal' }, owner.token);
    const secret = await createProject({ name: 'Secret' }, owner.token);
    const group = await createGroup({}, owner.token);
    await createProject({ name: 'Group One', namespace_id: group.id }, owner.token);

    for (const key of [String(owner.id), owner.username]) {
      const self = await api<ProjectBody[]>('GET', `/users/${key}/projects`, { token: owner.token });
      expect(self.status).toBe(200);
      expect(ids(self.body)).toEqual([secret.id, inside.id, open.id]);
    }
    const admin = await api<ProjectBody[]>('GET', `/users/${owner.username}/projects?order_by=name&sort=asc`);
    expect(admin.status).toBe(200);
    expect(ids(admin.body)).toEqual([inside.id, open.id, secret.id]);

    const other = await api<ProjectBody[]>('GET', `/users/${owner.id}/projects`, { token: stranger.token });
    expect(other.status).toBe(200);
    expect(ids(other.body)).toEqual([inside.id, open.id]);

    const anonymous = await api<ProjectBody[]>('GET', `/users/${owner.id}/projects`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous.body)).toEqual([open.id]);
    expect(Object.keys(anonymous.body[0] ?? {}).sort()).toEqual(SIMPLE_KEYS);

    const filtered = await api<ProjectBody[]>(`GET`, `/users/${owner.id}/projects?visibility=internal`);
    expect(filtered.status).toBe(200);
    expect(ids(filtered.body)).toEqual([inside.id]);

    const empty = await api<ProjectBody[]>('GET', `/users/${stranger.username}/projects`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-total')).toBe('0');

    const missing = await api('GET', '/users/987654321/projects');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('GET /groups/:id/projects', () => {
  it('the group’s own projects the caller may see, with filters', async () => {
    const [owner, member, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    const group = await createGroup({ visibility: 'public' }, owner.token);
    await addGroupMember(group.id, member.id, LEVEL.reporter);
    const pub = await createProject(
      { name: 'Zeta Public', visibility: 'public', namespace_id: group.id },
      owner.token,
    );
    const int = await createProject(
      { name: 'Alpha Internal', visibility: 'internal', namespace_id: group.id },
      owner.token,
    );
    const priv = await createProject({ name: 'Mid Private', namespace_id: group.id }, owner.token);
    const sub = await createGroup({ parent_id: group.id, path: 'sub' }, owner.token);
    await createProject({ name: 'Sub Project', namespace_id: sub.id }, owner.token);

    const asMember = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects`, { token: member.token });
    expect(asMember.status).toBe(200);
    expect(ids(asMember.body)).toEqual([priv.id, int.id, pub.id]);
    expect(asMember.headers.get('x-total')).toBe('3');

    const byPath = await api<ProjectBody[]>(
      'GET',
      `/groups/${enc(group.full_path)}/projects?order_by=name&sort=asc`,
      {
        token: member.token,
      },
    );
    expect(byPath.status).toBe(200);
    expect(ids(byPath.body)).toEqual([int.id, priv.id, pub.id]);

    const asStranger = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects`, {
      token: stranger.token,
    });
    expect(asStranger.status).toBe(200);
    expect(ids(asStranger.body)).toEqual([int.id, pub.id]);

    const anonymous = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous.body)).toEqual([pub.id]);
    expect(Object.keys(anonymous.body[0] ?? {}).sort()).toEqual(SIMPLE_KEYS);

    const visibility = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?visibility=internal`, {
      token: member.token,
    });
    expect(visibility.status).toBe(200);
    expect(ids(visibility.body)).toEqual([int.id]);

    const search = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?search=zeta`, {
      token: member.token,
    });
    expect(search.status).toBe(200);
    expect(ids(search.body)).toEqual([pub.id]);

    const simple = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?simple=true&search=mid`, {
      token: member.token,
    });
    expect(simple.status).toBe(200);
    expect(ids(simple.body)).toEqual([priv.id]);
    expect(Object.keys(simple.body[0] ?? {}).sort()).toEqual(SIMPLE_KEYS);

    await must(api('POST', `/projects/${int.id}/archive`, { token: owner.token }), 201, 'archive');
    const archived = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?archived=true`, {
      token: member.token,
    });
    expect(archived.status).toBe(200);
    expect(ids(archived.body)).toEqual([int.id]);
    const active = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?archived=false`, {
      token: member.token,
    });
    expect(active.status).toBe(200);
    expect(ids(active.body)).toEqual([priv.id, pub.id]);

    await must(api('POST', `/projects/${pub.id}/star`, { token: member.token }), 201, 'star');
    const starred = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?starred=true`, {
      token: member.token,
    });
    expect(starred.status).toBe(200);
    expect(ids(starred.body)).toEqual([pub.id]);

    const ownedByMember = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?owned=true`, {
      token: member.token,
    });
    expect(ownedByMember.status).toBe(200);
    expect(ownedByMember.body).toEqual([]);
    const ownedByOwner = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?owned=true`, {
      token: owner.token,
    });
    expect(ownedByOwner.status).toBe(200);
    expect(ids(ownedByOwner.body)).toEqual([priv.id, int.id, pub.id]);

    const paged = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects?per_page=2&page=2`, {
      token: member.token,
    });
    expect(paged.status).toBe(200);
    expect(ids(paged.body)).toEqual([pub.id]);
    expect(paged.headers.get('x-total-pages')).toBe('2');

    const privateGroup = await createGroup({}, owner.token);
    const hidden = await api('GET', `/groups/${privateGroup.id}/projects`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /projects/:id/users', () => {
  it('everyone with access: members, group members, shared-group members; search narrows', async () => {
    const [owner, direct, viaShare, outsider] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    const group = await createGroup({}, owner.token);
    const project = await createProject({ name: 'Users Here', namespace_id: group.id }, owner.token);
    await addProjectMember(project.id, direct.id, LEVEL.developer);
    const shareGroup = await createGroup({}, viaShare.token);
    await must(
      api('POST', `/projects/${project.id}/share`, { json: { group_id: shareGroup.id, group_access: 20 } }),
      201,
      'share',
    );

    const response = await api<{ id: number; username: string }[]>('GET', `/projects/${project.id}/users`, {
      token: direct.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      [owner, direct, viaShare]
        .sort((a, b) => a.id - b.id)
        .map((user) => ({
          id: user.id,
          name: user.username,
          username: user.username,
          state: 'active',
          avatar_url: `${baseUrl}/assets/no_avatar.png`,
          web_url: `${baseUrl}/${user.username}`,
        })),
    );

    const search = await api<{ id: number }[]>(
      'GET',
      `/projects/${project.id}/users?search=${direct.username.toUpperCase()}`,
      { token: direct.token },
    );
    expect(search.status).toBe(200);
    expect(ids(search.body)).toEqual([direct.id]);

    const hidden = await api('GET', `/projects/${project.id}/users`, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(projectNotFound);
  });
});

describe('PUT /projects/:id', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let developer: TestUser;
  let group: GroupBody;

  beforeAll(async () => {
    [owner, maintainer, developer] = await Promise.all([createUser(), createUser(), createUser()]);
    group = await createGroup({}, owner.token);
    await addGroupMember(group.id, maintainer.id, LEVEL.maintainer);
    await addGroupMember(group.id, developer.id, LEVEL.developer);
  });

  const fresh = (name = unique('Upd')) => createProject({ name, namespace_id: group.id }, owner.token);

  it('a maintainer changes the description and the path; the route moves', async () => {
    const project = await fresh();
    const newPath = unique('moved');
    const response = await api<ProjectBody>('PUT', `/projects/${project.id}`, {
      token: maintainer.token,
      json: { description: 'by maintainer', path: newPath, wiki_enabled: false },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: project.id,
      name: project.name,
      description: 'by maintainer',
      path: newPath,
      path_with_namespace: `${group.full_path}/${newPath}`,
      web_url: `${baseUrl}/${group.full_path}/${newPath}`,
      wiki_enabled: false,
      permissions: { project_access: null, group_access: { access_level: 40, notification_level: 3 } },
    });

    const old = await api('GET', `/projects/${enc(project.path_with_namespace)}`, {
      token: maintainer.token,
    });
    expect(old.status).toBe(404);
    expect(old.body).toEqual(projectNotFound);
    const moved = await api<ProjectBody>('GET', `/projects/${enc(`${group.full_path}/${newPath}`)}`, {
      token: maintainer.token,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: project.id, description: 'by maintainer' });

    const reuse = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('Reuse'), path: project.path, namespace_id: group.id },
    });
    expect(reuse.status).toBe(201);
    expect(reuse.body.path_with_namespace).toBe(project.path_with_namespace);
  });

  it('a maintainer may not rename nor change visibility (403); the same name or visibility is no change', async () => {
    const project = await fresh();
    const rename = await api('PUT', `/projects/${project.id}`, {
      token: maintainer.token,
      json: { name: 'Renamed' },
    });
    expect(rename.status).toBe(403);
    expect(rename.body).toEqual(forbidden);
    const visibility = await api('PUT', `/projects/${project.id}`, {
      token: maintainer.token,
      json: { visibility: 'internal' },
    });
    expect(visibility.status).toBe(403);
    expect(visibility.body).toEqual(forbidden);
    const unchanged = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: maintainer.token });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ name: project.name, visibility: 'private' });
  });

  it('a developer may not update at all; strangers get 404, anonymous 401', async () => {
    const project = await fresh();
    const developerUpdate = await api('PUT', `/projects/${project.id}`, {
      token: developer.token,
      json: { description: 'nope' },
    });
    expect(developerUpdate.status).toBe(403);
    expect(developerUpdate.body).toEqual(forbidden);
    const stranger = await createUser();
    const strangerUpdate = await api('PUT', `/projects/${project.id}`, {
      token: stranger.token,
      json: { description: 'nope' },
    });
    expect(strangerUpdate.status).toBe(404);
    expect(strangerUpdate.body).toEqual(projectNotFound);
    const anonymous = await api('PUT', `/projects/${project.id}`, {
      token: null,
      json: { description: 'x' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthorized);
  });

  it('the owner and admins rename; name_with_namespace follows', async () => {
    const project = await fresh();
    const byOwner = await api<ProjectBody>('PUT', `/projects/${project.id}`, {
      token: owner.token,
      json: { name: 'Owner Renamed' },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({
      name: 'Owner Renamed',
      path: project.path,
      name_with_namespace: `${group.name} / Owner Renamed`,
    });
    const byAdmin = await api<ProjectBody>('PUT', `/projects/${project.id}`, {
      json: { name: 'Admin Renamed', visibility: 'private' },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({
      name: 'Admin Renamed',
      name_with_namespace: `${group.name} / Admin Renamed`,
    });
    const freed = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: 'Owner Renamed', path: unique('freed'), namespace_id: group.id },
    });
    expect(freed.status).toBe(201);
  });

  it('path or name clash → 400; visibility above the group’s → 400; bad values → 400', async () => {
    const first = await fresh();
    const second = await fresh();
    const path = await api('PUT', `/projects/${second.id}`, {
      token: owner.token,
      json: { path: first.path },
    });
    expect(path.status).toBe(400);
    expect(path.body).toEqual(pathTaken);
    const name = await api('PUT', `/projects/${second.id}`, {
      token: owner.token,
      json: { name: first.name },
    });
    expect(name.status).toBe(400);
    expect(name.body).toEqual(nameTaken);
    const loud = await api('PUT', `/projects/${second.id}`, {
      token: owner.token,
      json: { visibility: 'public' },
    });
    expect(loud.status).toBe(400);
    expect(loud.body).toEqual({
      message: { visibility_level: ['public is not allowed in a private group.'] },
    });
    const badPath = await api('PUT', `/projects/${second.id}`, { token: owner.token, json: { path: 'a b' } });
    expect(badPath.status).toBe(400);
    expect(badPath.body).toEqual({ message: { path: [PATH_RULE] } });
    const badVisibility = await api('PUT', `/projects/${second.id}`, {
      token: owner.token,
      json: { visibility: 'loud' },
    });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body).toEqual({ error: 'visibility does not have a valid value' });
    const still = await api<ProjectBody>('GET', `/projects/${second.id}`, { token: owner.token });
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ name: second.name, path: second.path, visibility: 'private' });
  });

  it('a personal project: its owner changes visibility and name', async () => {
    const user = await createUser();
    const project = await createProject({ name: 'Mine' }, user.token);
    const response = await api<ProjectBody>('PUT', `/projects/${enc(project.path_with_namespace)}`, {
      token: user.token,
      json: { name: 'Mine Now', visibility: 'public', path: 'mine-now' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Mine Now',
      path: 'mine-now',
      visibility: 'public',
      public: true,
      path_with_namespace: `${user.username}/mine-now`,
      owner: { id: user.id },
    });
    const anonymous = await api<ProjectBody>('GET', `/projects/${enc(`${user.username}/mine-now`)}`, {
      token: null,
    });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.id).toBe(project.id);
  });
});

describe('stars', () => {
  it('star 201 and +1, again 304 with no body; unstar 201 and −1, again 304', async () => {
    const [owner, fan, other] = await Promise.all([createUser(), createUser(), createUser()]);
    const project = await createProject({ name: 'Shiny', visibility: 'public' }, owner.token);

    const star = await api<ProjectBody>('POST', `/projects/${project.id}/star`, { token: fan.token });
    expect(star.status).toBe(201);
    expect(star.body).toMatchObject({ id: project.id, star_count: 1 });
    const again = await api('POST', `/projects/${project.id}/star`, { token: fan.token });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const second = await api<ProjectBody>('POST', `/projects/${project.id}/star`, { token: other.token });
    expect(second.status).toBe(201);
    expect(second.body.star_count).toBe(2);
    const read = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: null });
    expect(read.status).toBe(200);
    expect(read.body.star_count).toBe(2);

    const unstar = await api<ProjectBody>('POST', `/projects/${project.id}/unstar`, { token: fan.token });
    expect(unstar.status).toBe(201);
    expect(unstar.body).toMatchObject({ id: project.id, star_count: 1 });
    const unstarAgain = await api('POST', `/projects/${project.id}/unstar`, { token: fan.token });
    expect(unstarAgain.status).toBe(304);
    expect(unstarAgain.text).toBe('');
    const never = await api('POST', `/projects/${project.id}/unstar`, { token: owner.token });
    expect(never.status).toBe(304);
    expect(never.text).toBe('');

    const starred = await api<ProjectBody[]>('GET', '/projects?starred=true', { token: fan.token });
    expect(starred.status).toBe(200);
    expect(starred.body).toEqual([]);

    const anonymous = await api('POST', `/projects/${project.id}/star`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(unauthorized);

    const hidden = await createProject({ name: 'Hidden' }, owner.token);
    const notVisible = await api('POST', `/projects/${hidden.id}/star`, { token: fan.token });
    expect(notVisible.status).toBe(404);
    expect(notVisible.body).toEqual(projectNotFound);
  });
});

describe('archive and unarchive', () => {
  it('owner or admin: 201 and idempotent; maintainer 403', async () => {
    const [owner, maintainer] = await Promise.all([createUser(), createUser()]);
    const group = await createGroup({}, owner.token);
    await addGroupMember(group.id, maintainer.id, LEVEL.maintainer);
    const project = await createProject({ name: 'Dusty', namespace_id: group.id }, owner.token);

    for (const [action, archived] of [
      ['archive', true],
      ['archive', true],
      ['unarchive', false],
      ['unarchive', false],
    ] as const) {
      const response = await api<ProjectBody>('POST', `/projects/${project.id}/${action}`, {
        token: owner.token,
      });
      expect(response.status, action).toBe(201);
      expect(response.body).toMatchObject({ id: project.id, archived });
    }

    const byMaintainer = await api('POST', `/projects/${project.id}/archive`, { token: maintainer.token });
    expect(byMaintainer.status).toBe(403);
    expect(byMaintainer.body).toEqual(forbidden);
    const unarchiveByMaintainer = await api('POST', `/projects/${project.id}/unarchive`, {
      token: maintainer.token,
    });
    expect(unarchiveByMaintainer.status).toBe(403);
    expect(unarchiveByMaintainer.body).toEqual(forbidden);

    const byAdmin = await api<ProjectBody>('POST', `/projects/${enc(project.path_with_namespace)}/archive`);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.archived).toBe(true);
    const read = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: maintainer.token });
    expect(read.status).toBe(200);
    expect(read.body.archived).toBe(true);
    const unByAdmin = await api<ProjectBody>('POST', `/projects/${project.id}/unarchive`);
    expect(unByAdmin.status).toBe(201);
    expect(unByAdmin.body.archived).toBe(false);
  });
});

describe('shares', () => {
  let owner: TestUser;
  let reader: TestUser;
  let project: ProjectBody;
  let target: GroupBody;

  beforeAll(async () => {
    [owner, reader] = await Promise.all([createUser(), createUser()]);
    project = await createProject({ name: 'Shared Thing' }, owner.token);
    target = await createGroup({ name: unique('Readers'), visibility: 'public' }, reader.token);
  });

  it('share → 201 link; shared_with_groups shows it; the group’s members read the private project at once', async () => {
    const before = await api('GET', `/projects/${project.id}`, { token: reader.token });
    expect(before.status).toBe(404);
    expect(before.body).toEqual(projectNotFound);

    const share = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: target.id, group_access: 30, expires_at: '2999-12-31' },
    });
    expect(share.status).toBe(201);
    expect(share.body).toEqual({
      id: expect.any(Number),
      project_id: project.id,
      group_id: target.id,
      group_access: 30,
      expires_at: '2999-12-31',
    });

    const shown = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: owner.token });
    expect(shown.status).toBe(200);
    expect(shown.body.shared_with_groups).toEqual([
      {
        group_id: target.id,
        group_name: target.name,
        group_full_path: target.full_path,
        group_access_level: 30,
        expires_at: '2999-12-31',
      },
    ]);

    const after = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: reader.token });
    expect(after.status).toBe(200);
    expect(after.body.id).toBe(project.id);
    const listed = await api<ProjectBody[]>('GET', '/projects?membership=true', { token: reader.token });
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toContain(project.id);
    const group = await api<GroupBody>('GET', `/groups/${target.id}`, { token: reader.token });
    expect(group.status).toBe(200);
    expect(ids(group.body.shared_projects)).toEqual([project.id]);

    const duplicate = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: target.id, group_access: 10 },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: 'Group already shared with this group' });
  });

  it('parameter errors: group_access 50, missing fields, bad expires_at, unknown group', async () => {
    const group = await createGroup();
    const owner50 = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: group.id, group_access: 50 },
    });
    expect(owner50.status).toBe(400);
    expect(owner50.body).toEqual({ error: 'group_access does not have a valid value' });
    const missing = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: group.id },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'group_access is missing' });
    const noGroup = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_access: 10 },
    });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body).toEqual({ error: 'group_id is missing' });
    const badDate = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: group.id, group_access: 10, expires_at: '31/12/2999' },
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toEqual({ error: 'expires_at is invalid' });
    const unknown = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: 987654321, group_access: 10 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Group Not Found' });
    // A private group the sharer cannot see is as good as missing.
    const invisible = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: group.id, group_access: 10 },
    });
    expect(invisible.status).toBe(404);
    expect(invisible.body).toEqual({ message: '404 Group Not Found' });
  });

  it('with the project’s own group or an ancestor → 409; with share_with_group_lock → 400', async () => {
    const top = await createGroup();
    const sub = await createGroup({ parent_id: top.id, path: 'sub' });
    const inSub = await createProject({ name: unique('Inner'), namespace_id: sub.id });
    for (const groupId of [sub.id, top.id]) {
      const response = await api('POST', `/projects/${inSub.id}/share`, {
        json: { group_id: groupId, group_access: 20 },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        message: 'Project cannot be shared with the group it is in or one of its ancestors.',
      });
    }

    const locked = await createGroup({ share_with_group_lock: true });
    const lockedProject = await createProject({ name: unique('Locked'), namespace_id: locked.id });
    const other = await createGroup();
    const refused = await api('POST', `/projects/${lockedProject.id}/share`, {
      json: { group_id: other.id, group_access: 20 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'The project sharing with group is disabled' });
    const shown = await api<ProjectBody>('GET', `/projects/${lockedProject.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.shared_with_groups).toEqual([]);
  });

  it('unshare → 204, then 404 Group Link Not Found; access ends; a non-integer group id → 400', async () => {
    const viewer = await createUser();
    const group = await createGroup({ visibility: 'public' }, viewer.token);
    const own = await createProject({ name: unique('Unshare') }, owner.token);
    await must(
      api('POST', `/projects/${own.id}/share`, {
        token: owner.token,
        json: { group_id: group.id, group_access: 20 },
      }),
      201,
      'share',
    );
    const reading = await api('GET', `/projects/${own.id}`, { token: viewer.token });
    expect(reading.status).toBe(200);

    const removed = await api('DELETE', `/projects/${own.id}/share/${group.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const again = await api('DELETE', `/projects/${own.id}/share/${group.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Group Link Not Found' });

    const shown = await api<ProjectBody>('GET', `/projects/${own.id}`, { token: owner.token });
    expect(shown.status).toBe(200);
    expect(shown.body.shared_with_groups).toEqual([]);
    const gone = await api('GET', `/projects/${own.id}`, { token: viewer.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(projectNotFound);

    const foo = await api('DELETE', `/projects/${own.id}/share/foo`, { token: owner.token });
    expect(foo.status).toBe(400);
    expect(foo.body).toEqual({ error: 'group_id is invalid' });

    const reshare = await api('POST', `/projects/${own.id}/share`, {
      token: owner.token,
      json: { group_id: group.id, group_access: 40 },
    });
    expect(reshare.status).toBe(201);
    expect(reshare.body).toMatchObject({ group_id: group.id, group_access: 40, expires_at: null });
  });

  it('shared access is capped by group_access: a shared-group owner gets at most the share level', async () => {
    const groupOwner = await createUser();
    const group = await createGroup({ visibility: 'internal' }, groupOwner.token);
    const own = await createProject({ name: unique('Capped') }, owner.token);
    await must(
      api('POST', `/projects/${own.id}/share`, {
        token: owner.token,
        json: { group_id: group.id, group_access: 30 },
      }),
      201,
      'share',
    );
    const update = await api('PUT', `/projects/${own.id}`, {
      token: groupOwner.token,
      json: { description: 'via share' },
    });
    expect(update.status).toBe(403);
    expect(update.body).toEqual(forbidden);
  });
});

describe('fields only project admins see', () => {
  it('runners_token and import_error: maintainers and admins see the token, developers do not', async () => {
    const [owner, maintainer, developer] = await Promise.all([createUser(), createUser(), createUser()]);
    const project = await createProject({ name: unique('Tokens') }, owner.token);
    await addProjectMember(project.id, maintainer.id, LEVEL.maintainer);
    await addProjectMember(project.id, developer.id, LEVEL.developer);
    for (const token of [owner.token, maintainer.token, undefined]) {
      const response = await api<ProjectBody & { runners_token?: string }>('GET', `/projects/${project.id}`, {
        token,
      });
      expect(response.status).toBe(200);
      expect(response.body.runners_token).toMatch(/^[0-9a-f]{20}$/);
    }
    const asDeveloper = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: developer.token });
    expect(asDeveloper.status).toBe(200);
    expect(asDeveloper.body).not.toHaveProperty('runners_token');
    expect(asDeveloper.body).toMatchObject({ import_error: null, import_status: 'none' });
    const listed = await api<ProjectBody[]>(`GET`, '/projects?membership=true', { token: developer.token });
    expect(listed.status).toBe(200);
    expect(listed.body[0]).not.toHaveProperty('runners_token');
  });
});

describe('project members', () => {
  it('list, add, get, update, remove; GitLab’s errors', async () => {
    const [owner, alice, bob] = await Promise.all([createUser(), createUser(), createUser()]);
    const project = await createProject({ name: 'Membered' }, owner.token);

    const initial = await api<MemberBody[]>('GET', `/projects/${project.id}/members`, { token: owner.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual([
      {
        id: owner.id,
        name: owner.username,
        username: owner.username,
        state: 'active',
        avatar_url: `${baseUrl}/assets/no_avatar.png`,
        web_url: `${baseUrl}/${owner.username}`,
        access_level: 50,
        expires_at: null,
        created_at: expect.any(String),
      },
    ]);

    const before = await api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(before.status).toBe(404);
    const added = await api<MemberBody>('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: alice.id, access_level: 30, expires_at: '2999-01-01' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: alice.id,
      username: alice.username,
      access_level: 30,
      expires_at: '2999-01-01',
    });
    const now = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: alice.token });
    expect(now.status).toBe(200);
    expect(now.body.permissions?.project_access).toEqual({ access_level: 30, notification_level: 3 });

    const duplicate = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: alice.id, access_level: 20 },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: 'Member already exists' });

    const badLevel = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: bob.id, access_level: 60 },
    });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const unknownUser = await api('POST', `/projects/${project.id}/members`, {
      token: owner.token,
      json: { user_id: 987654321, access_level: 20 },
    });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toEqual({ message: '404 User Not Found' });
    const missing = await api('POST', `/projects/${project.id}/members`, { token: owner.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'user_id is missing, access_level is missing' });

    const byDeveloper = await api('POST', `/projects/${project.id}/members`, {
      token: alice.token,
      json: { user_id: bob.id, access_level: 10 },
    });
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.body).toEqual(forbidden);

    const got = await api<MemberBody>('GET', `/projects/${project.id}/members/${alice.id}`, {
      token: alice.token,
    });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: alice.id, access_level: 30 });

    const updated = await api<MemberBody>('PUT', `/projects/${project.id}/members/${alice.id}`, {
      token: owner.token,
      json: { access_level: 40 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: alice.id, access_level: 40, expires_at: '2999-01-01' });

    const query = await api<MemberBody[]>(
      'GET',
      `/projects/${project.id}/members?query=${alice.username.toUpperCase()}`,
      { token: owner.token },
    );
    expect(query.status).toBe(200);
    expect(ids(query.body)).toEqual([alice.id]);

    const ownerStays = await api('DELETE', `/projects/${project.id}/members/${owner.id}`, {
      token: owner.token,
    });
    expect(ownerStays.status).toBe(403);
    expect(ownerStays.body).toEqual(forbidden);

    const removed = await api('DELETE', `/projects/${project.id}/members/${alice.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const gone = await api('GET', `/projects/${project.id}/members/${alice.id}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
    const again = await api('DELETE', `/projects/${project.id}/members/${alice.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Not found' });
    const lost = await api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(lost.status).toBe(404);
    expect(lost.body).toEqual(projectNotFound);
  });

  it('a member may leave; only owners grant owner access', async () => {
    const [owner, maintainer, leaver, target] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    const project = await createProject({ name: 'Leaving' }, owner.token);
    await addProjectMember(project.id, maintainer.id, LEVEL.maintainer);
    await addProjectMember(project.id, leaver.id, LEVEL.reporter);

    const leave = await api('DELETE', `/projects/${project.id}/members/${leaver.id}`, {
      token: leaver.token,
    });
    expect(leave.status).toBe(204);

    const ownerByMaintainer = await api('POST', `/projects/${project.id}/members`, {
      token: maintainer.token,
      json: { user_id: target.id, access_level: 50 },
    });
    expect(ownerByMaintainer.status).toBe(403);
    expect(ownerByMaintainer.body).toEqual(forbidden);
    const developerByMaintainer = await api<MemberBody>('POST', `/projects/${project.id}/members`, {
      token: maintainer.token,
      json: { user_id: target.id, access_level: 30 },
    });
    expect(developerByMaintainer.status).toBe(201);
    expect(developerByMaintainer.body.access_level).toBe(30);
    const ownerByOwner = await api<MemberBody>('PUT', `/projects/${project.id}/members/${target.id}`, {
      token: owner.token,
      json: { access_level: 50 },
    });
    expect(ownerByOwner.status).toBe(200);
    expect(ownerByOwner.body.access_level).toBe(50);

    const listed = await api<MemberBody[]>('GET', `/projects/${project.id}/members`, { token: target.token });
    expect(listed.status).toBe(200);
    expect(
      listed.body.map((member) => [member.id, member.access_level]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)),
    ).toEqual(
      [
        [owner.id, 50],
        [maintainer.id, 40],
        [target.id, 50],
      ].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)),
    );
  });
});

describe('project custom attributes', () => {
  it('admins set, list, get and delete them; others 403', async () => {
    const user = await createUser();
    const project = await createProject({ name: 'Attributed' }, user.token);
    const set = await api('PUT', `/projects/${project.id}/custom_attributes/size`, {
      json: { value: 'large' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: 'size', value: 'large' });
    const replaced = await api('PUT', `/projects/${project.id}/custom_attributes/size`, {
      form: { value: 'small' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ key: 'size', value: 'small' });
    await must(
      api('PUT', `/projects/${project.id}/custom_attributes/color`, { json: { value: 'red' } }),
      200,
      'second',
    );

    const listed = await api<{ key: string; value: string }[]>(
      'GET',
      `/projects/${project.id}/custom_attributes`,
    );
    expect(listed.status).toBe(200);
    expect([...listed.body].sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'color', value: 'red' },
      { key: 'size', value: 'small' },
    ]);
    const one = await api('GET', `/projects/${project.id}/custom_attributes/size`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ key: 'size', value: 'small' });

    const asOwner = await api('GET', `/projects/${project.id}/custom_attributes`, { token: user.token });
    expect(asOwner.status).toBe(403);
    expect(asOwner.body).toEqual(forbidden);
    const setAsOwner = await api('PUT', `/projects/${project.id}/custom_attributes/x`, {
      token: user.token,
      json: { value: 'y' },
    });
    expect(setAsOwner.status).toBe(403);
    expect(setAsOwner.body).toEqual(forbidden);

    const noValue = await api('PUT', `/projects/${project.id}/custom_attributes/x`, { json: {} });
    expect(noValue.status).toBe(400);
    expect(noValue.body).toEqual({ error: 'value is missing' });

    const removed = await api('DELETE', `/projects/${project.id}/custom_attributes/size`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const gone = await api('GET', `/projects/${project.id}/custom_attributes/size`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
    const removedAgain = await api('DELETE', `/projects/${project.id}/custom_attributes/size`);
    expect(removedAgain.status).toBe(404);
    expect(removedAgain.body).toEqual({ message: '404 Not found' });
    const missingProject = await api('GET', '/projects/987654321/custom_attributes');
    expect(missingProject.status).toBe(404);
    expect(missingProject.body).toEqual(projectNotFound);
  });
});

describe('transfer a project into a group: POST /groups/:id/projects/:project_id', () => {
  it('admin moves it: 201 GroupDetail with the project; the old path 404, the new one 200', async () => {
    const user = await createUser();
    const project = await createProject({ name: 'Mover', visibility: 'private' }, user.token);
    const group = await createGroup({ name: unique('Dest') });

    const response = await api<GroupBody>('POST', `/groups/${group.id}/projects/${project.id}`);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: group.id, full_path: group.full_path, shared_projects: [] });
    expect(response.body.projects).toHaveLength(1);
    expect(response.body.projects[0]).toMatchObject({
      id: project.id,
      path: 'mover',
      path_with_namespace: `${group.full_path}/mover`,
      name_with_namespace: `${group.name} / Mover`,
      namespace: { id: group.id, kind: 'group', full_path: group.full_path },
    });
    expect(response.body.projects[0]).not.toHaveProperty('owner');

    const old = await api('GET', `/projects/${enc(project.path_with_namespace)}`);
    expect(old.status).toBe(404);
    expect(old.body).toEqual(projectNotFound);
    const moved = await api<ProjectBody>('GET', `/projects/${enc(`${group.full_path}/mover`)}`);
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(project.id);
    const listed = await api<ProjectBody[]>('GET', `/groups/${group.id}/projects`);
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toEqual([project.id]);
    const personal = await api<ProjectBody[]>('GET', `/users/${user.id}/projects`);
    expect(personal.status).toBe(200);
    expect(personal.body).toEqual([]);
  });

  it('non-admins 403; same namespace, visibility and name clashes → 400 Failed to transfer project', async () => {
    const owner = await createUser();
    const group = await createGroup({}, owner.token);
    const project = await createProject({ name: 'Stay', visibility: 'public' }, owner.token);
    const byOwner = await api('POST', `/groups/${group.id}/projects/${project.id}`, { token: owner.token });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body).toEqual(forbidden);

    const visibility = await api('POST', `/groups/${group.id}/projects/${project.id}`);
    expect(visibility.status).toBe(400);
    expect(visibility.body).toEqual({
      message:
        'Failed to transfer project {:visibility_level=>["public is not allowed in a private group."]}',
    });

    const inGroup = await createProject({ name: 'Here', namespace_id: group.id }, owner.token);
    const same = await api('POST', `/groups/${group.id}/projects/${inGroup.id}`);
    expect(same.status).toBe(400);
    expect(same.body).toEqual({
      message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
    });

    const clash = await createProject({ name: 'Here' }, owner.token);
    const clashing = await api('POST', `/groups/${group.id}/projects/${clash.id}`);
    expect(clashing.status).toBe(400);
    expect(clashing.body).toEqual({
      message:
        'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}',
    });
    const stillThere = await api<ProjectBody>('GET', `/projects/${clash.id}`);
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.path_with_namespace).toBe(clash.path_with_namespace);

    const unknown = await api('POST', `/groups/${group.id}/projects/987654321`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(projectNotFound);
  });
});
