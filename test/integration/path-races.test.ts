/**
 * Path changes racing the creation of children: renames of groups and users, subgroup and project
 * creation and transfers, all in parallel over HTTP. The database orders them (a condition on the
 * namespace's current path in each placement), so every round must end with every path consistent
 * with its parents, reachable under it, and owning exactly its route.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';

interface GroupBody {
  id: number;
  full_path: string;
  full_name: string;
  parent_id: number | null;
}
interface ProjectBody {
  id: number;
  path: string;
  path_with_namespace: string;
  namespace: { id: number; full_path: string };
}

async function expectProjectConsistent(id: number, namespacePath: string) {
  const project = await api<ProjectBody>('GET', `/projects/${id}`);
  expect(project.status).toBe(200);
  expect(project.body.namespace.full_path).toBe(namespacePath);
  expect(project.body.path_with_namespace).toBe(`${namespacePath}/${project.body.path}`);
  const byPath = await api<ProjectBody>(
    'GET',
    `/projects/${encodeURIComponent(project.body.path_with_namespace)}`,
  );
  expect(byPath.status, project.body.path_with_namespace).toBe(200);
  expect(byPath.body.id).toBe(id);
  const route = await storedItem(`ROUTE#${project.body.path_with_namespace.toLowerCase()}`, 'ROUTE');
  expect(route?.id).toBe(id);
}

describe('renames racing creations', () => {
  it('group renames, subgroup creations, project creations and transfers end consistent (5 rounds)', async () => {
    const root = await api<GroupBody>('POST', '/groups', { json: { name: unique('r'), path: unique('r') } });
    const sub = await api<GroupBody>('POST', '/groups', {
      json: { name: unique('s'), path: unique('s'), parent_id: root.body.id },
    });
    const other = await api<GroupBody>('POST', '/groups', { json: { name: unique('o'), path: unique('o') } });
    const projects: number[] = [];
    const subgroups: number[] = [sub.body.id];
    for (let round = 0; round < 5; round++) {
      const movable = await api<ProjectBody>('POST', '/projects', {
        json: { name: unique('m'), namespace_id: other.body.id },
      });
      const oldRoot = (await api<GroupBody>('GET', `/groups/${root.body.id}`)).body.full_path;
      const results = await Promise.all([
        api('PUT', `/groups/${root.body.id}`, { json: { path: unique(`r${round}`), name: unique('rn') } }),
        api('PUT', `/groups/${sub.body.id}`, { json: { path: unique(`s${round}`) } }),
        ...Array.from({ length: 6 }, (_, index) =>
          api<ProjectBody>('POST', '/projects', {
            json: { name: unique(`p${round}`), namespace_id: index % 2 ? root.body.id : sub.body.id },
          }),
        ),
        ...Array.from({ length: 2 }, () =>
          api<GroupBody>('POST', '/groups', {
            json: { name: unique('t'), path: unique('t'), parent_id: sub.body.id },
          }),
        ),
        api('POST', `/groups/${root.body.id}/projects/${movable.body.id}`),
      ]);
      for (const result of results) expect(result.status, result.text).toBeLessThan(300);
      for (const result of results.slice(2, 8)) projects.push((result.body as ProjectBody).id);
      for (const result of results.slice(8, 10)) subgroups.push((result.body as GroupBody).id);
      projects.push(movable.body.id);
      // The old root path names nothing any more.
      expect((await api('GET', `/groups/${encodeURIComponent(oldRoot)}`)).status).toBe(404);
    }

    const groups = new Map<number, GroupBody>();
    for (const id of [root.body.id, ...subgroups]) {
      const group = await api<GroupBody>('GET', `/groups/${id}`);
      expect(group.status).toBe(200);
      groups.set(id, group.body);
    }
    for (const group of groups.values()) {
      if (group.parent_id !== null) {
        const parent = groups.get(group.parent_id) as GroupBody;
        expect(group.full_path.startsWith(`${parent.full_path}/`), group.full_path).toBe(true);
        expect(group.full_name.startsWith(`${parent.full_name} / `), group.full_name).toBe(true);
      }
      const route = await storedItem(`ROUTE#${group.full_path.toLowerCase()}`, 'ROUTE');
      expect(route?.id).toBe(group.id);
    }
    for (const id of projects) {
      const project = await api<ProjectBody>('GET', `/projects/${id}`);
      const namespace = groups.get(project.body.namespace.id) as GroupBody;
      await expectProjectConsistent(id, namespace.full_path);
    }
  });

  it('user renames racing personal project creation end consistent', async () => {
    const user = await createUser();
    const created: number[] = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        api('PUT', `/users/${user.id}`, { json: { username: unique(`u${round}`) } }),
        ...Array.from({ length: 5 }, () =>
          api<ProjectBody>('POST', '/projects', { token: user.token, json: { name: unique('pp') } }),
        ),
      ]);
      for (const result of results) expect(result.status, result.text).toBeLessThan(300);
      for (const result of results.slice(1)) created.push((result.body as ProjectBody).id);
    }
    const username = (await api<{ username: string }>('GET', `/users/${user.id}`)).body.username;
    for (const id of created) await expectProjectConsistent(id, username);
  });
});

describe('a deleted group’s paths', () => {
  it('name nothing at once, even when someone takes the group path again', async () => {
    const owner = await createUser();
    const path = unique('gone');
    const group = await api<GroupBody>('POST', '/groups', { token: owner.token, json: { name: path, path } });
    const sub = await api<GroupBody>('POST', '/groups', {
      token: owner.token,
      json: { name: 'sub', path: 'sub', parent_id: group.body.id },
    });
    const project = await api<ProjectBody>('POST', '/projects', {
      token: owner.token,
      json: { name: 'secret', namespace_id: sub.body.id, visibility: 'private' },
    });
    expect(project.status).toBe(201);
    expect((await api('DELETE', `/groups/${group.body.id}`, { token: owner.token })).status).toBe(202);
    const taker = await createUser();
    const taken = await api('POST', '/groups', { token: taker.token, json: { name: path, path } });
    expect(taken.status).toBe(201);
    const old = await api('GET', `/projects/${encodeURIComponent(`${path}/sub/secret`)}`, {
      token: taker.token,
    });
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ message: '404 Project Not Found' });
    const oldSub = await api('GET', `/groups/${encodeURIComponent(`${path}/sub`)}`, { token: taker.token });
    expect(oldSub.status).toBe(404);
    expect(oldSub.body).toEqual({ message: '404 Group Not Found' });
  });
});
