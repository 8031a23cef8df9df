/**
 * PUT /projects/:id/transfer: the project moves to a group or a personal namespace (id or path)
 * with its path, web URL, route and access; GitLab's refusals; who may transfer; and transfers
 * racing each other and renames, checked by reading everything back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, rootToken, type TestUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  name_with_namespace: string;
  web_url: string;
  visibility: string;
  namespace: { id: number; kind: string; full_path: string };
  permissions?: unknown;
}
interface GroupBody {
  id: number;
  full_path: string;
}

const newGroup = (visibility = 'private', path = unique('tg')) =>
  must(api<GroupBody>('POST', '/groups', { json: { name: path, path, visibility } }), 201, 'group create');

const newProject = (token: string, json: Record<string, unknown> = {}) =>
  must(
    api<ProjectBody>('POST', '/projects', { token, json: { name: unique('tp'), ...json } }),
    201,
    'project create',
  );

const addGroupMember = (groupId: number, user: TestUser, level: number) =>
  must(
    api('POST', `/groups/${groupId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'group member',
  );

const addProjectMember = (projectId: number, user: TestUser, level: number) =>
  must(
    api('POST', `/projects/${projectId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'project member',
  );

const transfer = (project: number | string, namespace: number | string, token: string | null = rootToken()) =>
  api<ProjectBody & { message?: unknown }>(
    'PUT',
    `/projects/${encodeURIComponent(String(project))}/transfer`,
    {
      token,
      json: { namespace },
    },
  );

const failed = (message: string) => ({
  message: `Failed to transfer project {:new_namespace=>["${message}"]}`,
});

let owner: TestUser;
let baseUrl: string;

beforeAll(async () => {
  owner = await createUser();
  const me = await api<{ web_url: string }>('GET', '/user', { token: owner.token });
  baseUrl = me.body.web_url.slice(0, -owner.username.length - 1);
});

describe('PUT /projects/:id/transfer', () => {
  it('moves a personal project into a group by path: path, web URL, route and namespace follow', async () => {
    const group = await newGroup();
    await addGroupMember(group.id, owner, 40);
    const project = await newProject(owner.token);
    const response = await transfer(project.id, group.full_path, owner.token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: project.id,
      path_with_namespace: `${group.full_path}/${project.path}`,
      name_with_namespace: `${group.full_path} / ${project.name}`,
      web_url: `${baseUrl}/${group.full_path}/${project.path}`,
      namespace: { id: group.id, kind: 'group', full_path: group.full_path },
    });
    // The old path names nothing; the new one names the project.
    expect((await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`)).status).toBe(
      404,
    );
    const read = await api<ProjectBody>(
      'GET',
      `/projects/${encodeURIComponent(response.body.path_with_namespace)}`,
    );
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(project.id);
    expect(await storedItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE')).toBeUndefined();
  });

  it('moves a group project into the owner’s personal namespace by id; group members lose access at once', async () => {
    const group = await newGroup();
    const developer = await createUser();
    await addGroupMember(group.id, owner, 50);
    await addGroupMember(group.id, developer, 30);
    const project = await newProject(owner.token, { namespace_id: group.id });
    expect((await api('GET', `/projects/${project.id}`, { token: developer.token })).status).toBe(200);
    const ns = await api<{ id: number }>('GET', `/namespaces/${owner.username}`, { token: owner.token });
    expect(ns.status).toBe(200);
    const response = await transfer(project.id, ns.body.id, owner.token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      path_with_namespace: `${owner.username}/${project.path}`,
      namespace: { id: ns.body.id, kind: 'user', full_path: owner.username },
    });
    expect(await api('GET', `/projects/${project.id}`, { token: developer.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('lowers a visibility above the new group’s to the group’s', async () => {
    const group = await newGroup('private');
    const project = await newProject(rootToken(), { visibility: 'public' });
    const response = await transfer(project.id, group.id);
    expect(response.status).toBe(200);
    expect(response.body.visibility).toBe('private');
  });

  it('answers GitLab’s refusals', async () => {
    const project = await newProject(owner.token);
    const mine = await api<{ id: number }>('GET', `/namespaces/${owner.username}`, { token: owner.token });
    expect(await transfer(project.id, mine.body.id, owner.token)).toMatchObject({
      status: 400,
      body: failed('Project is already in this namespace.'),
    });
    expect(await transfer(project.id, 999_999_999, owner.token)).toMatchObject({
      status: 404,
      body: { message: '404 Namespace Not Found' },
    });
    expect(await transfer(project.id, unique('nowhere'), owner.token)).toMatchObject({
      status: 404,
      body: { message: '404 Namespace Not Found' },
    });
    const missing = await api('PUT', `/projects/${project.id}/transfer`, { token: owner.token, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'namespace is missing' } });
    // A developer of the group sees it but may not create projects there.
    const group = await newGroup();
    await addGroupMember(group.id, owner, 30);
    expect(await transfer(project.id, group.id, owner.token)).toMatchObject({
      status: 400,
      body: failed("You don't have permission to transfer projects into that namespace."),
    });
    // Same path already in the target.
    const target = await newGroup();
    await must(
      api('POST', '/projects', { json: { name: project.name, path: project.path, namespace_id: target.id } }),
      201,
      'clash',
    );
    expect(await transfer(project.id, target.id)).toMatchObject({
      status: 400,
      body: failed('Project with same name or path in target namespace already exists'),
    });
  });

  describe('authorization matrix', () => {
    let group: GroupBody;
    let project: ProjectBody;
    const users: Record<string, TestUser> = {};
    beforeAll(async () => {
      group = await newGroup('public');
      project = await newProject(rootToken(), { visibility: 'public' });
      for (const [role, level] of [
        ['guest', 10],
        ['developer', 30],
        ['maintainer', 40],
      ] as const) {
        users[role] = await createUser();
        await addProjectMember(project.id, users[role] as TestUser, level);
        await addGroupMember(group.id, users[role] as TestUser, 40);
      }
      users.nonMember = await createUser();
    });

    it.each([
      ['anonymous', null, 401, { message: '401 Unauthorized' }],
      ['non-member', 'nonMember', 403, { message: '403 Forbidden' }],
      ['guest', 'guest', 403, { message: '403 Forbidden' }],
      ['developer', 'developer', 403, { message: '403 Forbidden' }],
      ['maintainer', 'maintainer', 403, { message: '403 Forbidden' }],
    ])('%s → %i', async (_role, who, status, body) => {
      const token = who === null ? null : (users[who] as TestUser).token;
      expect(await transfer(project.id, group.id, token)).toMatchObject({ status, body });
    });

    it('a project owner who is not a group member gets 404 for the group; as maintainer there, 200', async () => {
      const someone = await createUser();
      const own = await newProject(someone.token);
      const hidden = await newGroup('public');
      expect(await transfer(own.id, hidden.id, someone.token)).toMatchObject({
        status: 404,
        body: { message: '404 Namespace Not Found' },
      });
      await addGroupMember(hidden.id, someone, 40);
      expect((await transfer(own.id, hidden.id, someone.token)).status).toBe(200);
    });

    it('another user’s personal namespace is 404 to users and open to admins', async () => {
      const someone = await createUser();
      const own = await newProject(someone.token);
      expect(await transfer(own.id, owner.username, someone.token)).toMatchObject({
        status: 404,
        body: { message: '404 Namespace Not Found' },
      });
      const moved = await transfer(own.id, owner.username);
      expect(moved.status).toBe(200);
      expect(moved.body.path_with_namespace).toBe(`${owner.username}/${own.path}`);
    });
  });

  describe('races', () => {
    it('two transfers of one project: both are applied one after the other, one route remains', async () => {
      const [a, b] = [await newGroup(), await newGroup()];
      const project = await newProject(rootToken());
      const results = await Promise.all([transfer(project.id, a.id), transfer(project.id, b.id)]);
      expect(results.map((result) => result.status)).toEqual([200, 200]);
      const final = await api<ProjectBody>('GET', `/projects/${project.id}`);
      expect([a.full_path, b.full_path]).toContain(final.body.namespace.full_path);
      const other = final.body.namespace.id === a.id ? b : a;
      expect(
        await storedItem(`ROUTE#${final.body.path_with_namespace.toLowerCase()}`, 'ROUTE'),
      ).toMatchObject({
        id: project.id,
      });
      expect(
        await storedItem(`ROUTE#${other.full_path.toLowerCase()}/${project.path}`, 'ROUTE'),
      ).toBeUndefined();
      expect(await storedItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE')).toBeUndefined();
    });

    it('two projects with one path moved into one namespace at once: exactly one wins', async () => {
      const target = await newGroup();
      const path = unique('same');
      const [first, second] = await Promise.all([
        newProject(rootToken(), { path, name: path }),
        must(
          api<ProjectBody>('POST', '/projects', {
            json: { path, name: path, namespace_id: (await newGroup()).id },
          }),
          201,
          'second',
        ),
      ]);
      const results = await Promise.all([transfer(first.id, target.id), transfer(second.id, target.id)]);
      expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
      const loser = results.find((result) => result.status === 400);
      expect(loser?.body).toEqual(
        failed('Project with same name or path in target namespace already exists'),
      );
      const route = await storedItem(`ROUTE#${target.full_path.toLowerCase()}/${path}`, 'ROUTE');
      const winner = results.find((result) => result.status === 200)?.body as ProjectBody;
      expect(route).toMatchObject({ id: winner.id });
    });

    it('a transfer racing a rename of the target group lands under the group’s current path', async () => {
      const target = await newGroup();
      const project = await newProject(rootToken());
      const renamed = unique('renamed');
      const [moved, rename] = await Promise.all([
        transfer(project.id, target.id),
        api<GroupBody>('PUT', `/groups/${target.id}`, { json: { path: renamed } }),
      ]);
      expect(moved.status).toBe(200);
      expect(rename.status).toBe(200);
      // Whichever committed first, the project ends under the group's path as it is now.
      await idle();
      const ended = await api<ProjectBody>('GET', `/projects/${project.id}`);
      expect([ended.status, ended.body.path_with_namespace]).toEqual([200, `${renamed}/${project.path}`]);
      const read = await api<ProjectBody>(
        'GET',
        `/projects/${encodeURIComponent(`${renamed}/${project.path}`)}`,
      );
      expect(read.status).toBe(200);
    });

    it('a transfer racing a rename of the project keeps the rename and the move', async () => {
      const target = await newGroup();
      const project = await newProject(rootToken());
      const newPath = unique('moved');
      const [moved, renamed] = await Promise.all([
        transfer(project.id, target.id),
        api<ProjectBody>('PUT', `/projects/${project.id}`, { json: { path: newPath } }),
      ]);
      expect(moved.status).toBe(200);
      expect(renamed.status).toBe(200);
      const final = await api<ProjectBody>('GET', `/projects/${project.id}`);
      expect(final.body.path_with_namespace).toBe(`${target.full_path}/${newPath}`);
      expect(
        await storedItem(`ROUTE#${final.body.path_with_namespace.toLowerCase()}`, 'ROUTE'),
      ).toMatchObject({
        id: project.id,
      });
      expect(await storedItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE')).toBeUndefined();
      const rootPath = project.path_with_namespace.split('/')[0] as string;
      expect(await storedItem(`ROUTE#${rootPath.toLowerCase()}/${newPath}`, 'ROUTE')).toBeUndefined();
    });
  });
});
