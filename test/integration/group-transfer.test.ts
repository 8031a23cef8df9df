/**
 * POST /groups/:id/transfer: the subtree moves with its projects, paths, routes, tree place and
 * inherited access; GitLab's refusals; who may transfer; and transfers racing each other and the
 * creation of subgroups and projects inside the moving subtree, checked by reading everything back.
 */

import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { publish, registerLocalDispatch, registerLocalQueueControl } from '#queue/publish.ts';
import { getGroup } from '#store/groups/group-items.ts';
import { startGroupTransfer } from '#store/groups/group-transfer.ts';
import { LocalQueues } from '../../bin/local/queue.ts';
import { workers } from '../../functions/workers.ts';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';
import { listSize, localDatabase, partitionItems, storedItem } from '../support/db.ts';

interface GroupBody {
  id: number;
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  parent_id: number | null;
  visibility: string;
  web_url: string;
}
interface ProjectBody {
  id: number;
  path: string;
  path_with_namespace: string;
  name_with_namespace: string;
  visibility: string;
  namespace: { id: number; full_path: string; parent_id: number | null };
}

const newGroup = (token: string, parentId?: number, visibility = 'private', path = unique('g')) =>
  must(
    api<GroupBody>('POST', '/groups', {
      token,
      json: { name: path, path, visibility, ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    'group create',
  );

const newProject = (token: string, namespaceId: number, visibility = 'private') =>
  must(
    api<ProjectBody>('POST', '/projects', {
      token,
      json: { name: unique('p'), namespace_id: namespaceId, visibility },
    }),
    201,
    'project create',
  );

const transfer = (id: number, groupId?: number, token: string | null = rootToken()) =>
  api<GroupBody>('POST', `/groups/${id}/transfer`, {
    token,
    json: groupId === undefined ? {} : { group_id: groupId },
  });

const failed = (reason: string) => ({ message: `Transfer failed: ${reason}` });

/** Every group's path follows its parent's and owns its route; every project's path follows its group's. */
async function expectConsistent(groupIds: number[], projectIds: number[]) {
  const groups = new Map<number, GroupBody>();
  for (const id of groupIds) {
    const group = await api<GroupBody>('GET', `/groups/${id}`);
    expect(group.status, `group ${id}`).toBe(200);
    groups.set(id, group.body);
  }
  const paths = new Set<string>();
  for (const group of groups.values()) {
    expect(paths.has(group.full_path.toLowerCase()), group.full_path).toBe(false);
    paths.add(group.full_path.toLowerCase());
    const stored = await storedItem(`GROUP#${group.id}`, 'GROUP');
    expect(stored?.moving, `${group.full_path} still marked`).toBeUndefined();
    expect(Number(stored?.moves_below ?? 0)).toBe(0);
    // The parent chain reaches the top without a cycle, and the stored ancestors are that chain.
    const chain: number[] = [];
    for (let at = group.parent_id; at !== null; ) {
      expect(chain.includes(at) || at === group.id, `cycle at ${group.full_path}`).toBe(false);
      chain.unshift(at);
      const parent = groups.get(at) ?? (await api<GroupBody>('GET', `/groups/${at}`)).body;
      at = parent.parent_id;
    }
    expect(stored?.ancestor_ids).toEqual(chain);
    expect(stored?.tpath).toBe([...chain, group.id].map((id) => `${String(id).padStart(12, '0')}/`).join(''));
    expect(stored?.tree).toBe(`TREE#${chain[0] ?? group.id}#GROUPS`);
    if (group.parent_id !== null) {
      const parent =
        groups.get(group.parent_id) ?? (await api<GroupBody>('GET', `/groups/${group.parent_id}`)).body;
      expect(group.full_path).toBe(`${parent.full_path}/${group.path}`);
      expect(group.full_name).toBe(`${parent.full_name} / ${group.name}`);
    } else {
      expect(group.full_path).toBe(group.path);
    }
    const route = await storedItem(`ROUTE#${group.full_path.toLowerCase()}`, 'ROUTE');
    expect(route?.id, group.full_path).toBe(group.id);
    const byPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(group.full_path)}`);
    expect(byPath.status, group.full_path).toBe(200);
    expect(byPath.body.id).toBe(group.id);
  }
  for (const id of projectIds) {
    const project = await api<ProjectBody>('GET', `/projects/${id}`);
    expect(project.status).toBe(200);
    const namespace =
      groups.get(project.body.namespace.id) ??
      (await api<GroupBody>('GET', `/groups/${project.body.namespace.id}`)).body;
    expect(project.body.namespace.full_path).toBe(namespace.full_path);
    expect(project.body.path_with_namespace).toBe(`${namespace.full_path}/${project.body.path}`);
    expect(paths.has(project.body.path_with_namespace.toLowerCase())).toBe(false);
    paths.add(project.body.path_with_namespace.toLowerCase());
    const route = await storedItem(`ROUTE#${project.body.path_with_namespace.toLowerCase()}`, 'ROUTE');
    expect(route?.id, project.body.path_with_namespace).toBe(id);
    const stored = await storedItem(`PROJECT#${id}`, 'PROJECT');
    const namespaceItem = await storedItem(`GROUP#${namespace.id}`, 'GROUP');
    const groupIds = [...((namespaceItem?.ancestor_ids ?? []) as number[]), namespace.id];
    expect((stored?.namespace as { group_ids?: number[] } | undefined)?.group_ids).toEqual(groupIds);
    expect(stored?.tree).toBe(`TREE#${groupIds[0]}#PROJECTS#${project.body.visibility}`);
  }
}

describe('POST /groups/:id/transfer', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser();
  });

  it('moves the subtree with its projects, routes, tree place and lists', async () => {
    const from = await newGroup(owner.token);
    const to = await newGroup(owner.token);
    const moving = await newGroup(owner.token, from.id);
    const child = await newGroup(owner.token, moving.id);
    const grandchild = await newGroup(owner.token, child.id);
    const projects = [await newProject(owner.token, moving.id), await newProject(owner.token, grandchild.id)];
    const oldPath = moving.full_path;
    const fromChildren = await listSize('l2', `GROUPS#CHILDREN#${from.id}`);

    const moved = await transfer(moving.id, to.id, owner.token);
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body).toMatchObject({
      id: moving.id,
      path: moving.path,
      full_path: `${to.full_path}/${moving.path}`,
      full_name: `${to.full_name} / ${moving.name}`,
      parent_id: to.id,
      visibility: 'private',
      projects: [expect.objectContaining({ id: projects[0]?.id })],
    });
    expect(moved.body.web_url).toMatch(new RegExp(`/groups/${to.full_path}/${moving.path}$`));
    await expectConsistent(
      [to.id, moving.id, child.id, grandchild.id],
      projects.map((project) => project.id),
    );
    expect((await api('GET', `/groups/${encodeURIComponent(oldPath)}`)).status).toBe(404);
    expect(await storedItem(`ROUTE#${oldPath.toLowerCase()}`, 'ROUTE')).toBeUndefined();
    expect(await listSize('l2', `GROUPS#CHILDREN#${from.id}`)).toBe(fromChildren - 1);
    const subgroups = await api<GroupBody[]>('GET', `/groups/${to.id}/subgroups`, { token: owner.token });
    expect(subgroups.body.map((group) => group.id)).toEqual([moving.id]);
    expect(subgroups.headers.get('x-total')).toBe('1');
    expect(
      (await api<GroupBody[]>('GET', `/groups/${from.id}/subgroups`, { token: owner.token })).body,
    ).toEqual([]);
  });

  it('makes a subgroup a top-level group without group_id, and refuses a second time', async () => {
    const from = await newGroup(owner.token);
    const moving = await newGroup(owner.token, from.id);
    const project = await newProject(owner.token, moving.id);
    const moved = await transfer(moving.id, undefined, owner.token);
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body).toMatchObject({ id: moving.id, full_path: moving.path, parent_id: null });
    await expectConsistent([moving.id], [project.id]);
    const again = await transfer(moving.id, undefined, owner.token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(failed('Group is already a root group.'));
  });

  it('refuses as GitLab does', async () => {
    const top = await newGroup(owner.token);
    const sub = await newGroup(owner.token, top.id);
    const deep = await newGroup(owner.token, sub.id);
    const same = await transfer(sub.id, top.id, owner.token);
    expect(same.status).toBe(400);
    expect(same.body).toEqual(failed('Group is already associated to the parent group.'));
    const into = await transfer(top.id, deep.id, owner.token);
    expect(into.status).toBe(400);
    expect(into.body).toEqual(failed('Cannot transfer group to one of its subgroup.'));
    const itself = await transfer(sub.id, sub.id, owner.token);
    expect(itself.status).toBe(400);
    expect(itself.body).toEqual(failed('Cannot transfer group to one of its subgroup.'));
    // A group, or a project, already at the path in the new parent.
    const other = await newGroup(owner.token);
    await newGroup(owner.token, other.id, 'private', sub.path);
    const clash = await transfer(sub.id, other.id, owner.token);
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual(
      failed('The parent group already has a subgroup or a project with the same path.'),
    );
    const third = await newGroup(owner.token);
    const project = await must(
      api<ProjectBody>('POST', '/projects', {
        token: owner.token,
        json: { name: unique('n'), path: deep.path, namespace_id: third.id },
      }),
      201,
      'project',
    );
    expect(project.path).toBe(deep.path);
    const projectClash = await transfer(deep.id, third.id, owner.token);
    expect(projectClash.status).toBe(400);
    expect(projectClash.body).toEqual(
      failed('The parent group already has a subgroup or a project with the same path.'),
    );
    const missing = await transfer(sub.id, 999_999_999, owner.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Group Not Found' });
    // Nothing moved.
    await expectConsistent([top.id, sub.id, deep.id], []);
    expect((await api<GroupBody>('GET', `/groups/${sub.id}`)).body.parent_id).toBe(top.id);
  });

  it('lowers the subtree to the new parent’s visibility', async () => {
    const from = await newGroup(owner.token, undefined, 'public');
    const moving = await newGroup(owner.token, from.id, 'public');
    const child = await newGroup(owner.token, moving.id, 'internal');
    const project = await newProject(owner.token, moving.id, 'public');
    const to = await newGroup(owner.token, undefined, 'private');
    const before = await listSize('l1', 'GROUPS#public');
    expect((await transfer(moving.id, to.id, owner.token)).body.visibility).toBe('private');
    expect((await api<GroupBody>('GET', `/groups/${child.id}`)).body.visibility).toBe('private');
    expect((await api<ProjectBody>('GET', `/projects/${project.id}`)).body.visibility).toBe('private');
    expect(await listSize('l1', 'GROUPS#public')).toBe(before - 1);
    await expectConsistent([moving.id, child.id], [project.id]);
  });

  it('gives the new parent’s members their inherited access at once', async () => {
    const reader = await createUser();
    const from = await newGroup(owner.token);
    const to = await newGroup(owner.token);
    await must(
      api('POST', `/groups/${to.id}/members`, {
        token: owner.token,
        json: { user_id: reader.id, access_level: 30 },
      }),
      201,
      'member',
    );
    const moving = await newGroup(owner.token, from.id);
    const child = await newGroup(owner.token, moving.id);
    const project = await newProject(owner.token, child.id);
    const movingMember = await createUser();
    await must(
      api('POST', `/groups/${moving.id}/members`, {
        token: owner.token,
        json: { user_id: movingMember.id, access_level: 30 },
      }),
      201,
      'moving member',
    );
    // A project elsewhere shared with the moving group's child: the new parent's members reach it too.
    const elsewhere = await newGroup(owner.token);
    const shared = await newProject(owner.token, elsewhere.id);
    await must(
      api('POST', `/projects/${shared.id}/share`, {
        token: owner.token,
        json: { group_id: child.id, group_access: 30 },
      }),
      201,
      'share',
    );
    expect((await api('GET', `/projects/${project.id}`, { token: reader.token })).status).toBe(404);
    expect((await api('GET', `/projects/${shared.id}`, { token: reader.token })).status).toBe(404);
    expect((await transfer(moving.id, to.id, owner.token)).status).toBe(201);
    const sharedSeen = await api<{ shared_with_groups: { group_id: number; group_full_path: string }[] }>(
      'GET',
      `/projects/${shared.id}`,
      { token: reader.token },
    );
    expect(sharedSeen.status).toBe(200);
    expect(sharedSeen.body.shared_with_groups).toEqual([
      expect.objectContaining({
        group_id: child.id,
        group_full_path: `${to.full_path}/${moving.path}/${child.path}`,
      }),
    ]);
    const link = await storedItem(`PROJECT#${shared.id}`, `SHARE#${child.id}`);
    expect(link?.tree).toBe(`TREE#${to.id}#SHARES`);
    const seen = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: reader.token });
    expect(seen.status).toBe(200);
    expect(seen.body.path_with_namespace).toBe(
      `${to.full_path}/${moving.path}/${child.path}/${project.path}`,
    );
    const sub = await api<GroupBody>('GET', `/groups/${child.id}`, { token: reader.token });
    expect(sub.status).toBe(200);
    // A member of the moved group alone finds it and its subgroup under the new root.
    const own = await api<GroupBody[]>('GET', '/groups?per_page=100', { token: movingMember.token });
    const byId = (a: number, b: number) => a - b;
    // Its groups with their ancestors: the new parent now, never the old one.
    expect(own.body.map((group) => group.id).sort(byId)).toEqual([to.id, moving.id, child.id].sort(byId));
    expect(own.headers.get('x-total')).toBe('3');
    // The new parent's member finds the new parent, the moved group and its subgroup.
    const mine = await api<GroupBody[]>('GET', '/groups?per_page=100', { token: reader.token });
    expect(mine.body.map((group) => group.id)).toEqual(expect.arrayContaining([to.id, moving.id, child.id]));
  });
});

describe('transfer authorization', () => {
  const ROLES = ['anonymous', 'non-member', 'guest', 'developer', 'maintainer', 'owner', 'admin'] as const;
  type Role = (typeof ROLES)[number];
  const LEVELS = { guest: 10, developer: 30, maintainer: 40, owner: 50 } as const;
  const users = {} as Record<Exclude<Role, 'anonymous' | 'admin'>, TestUser>;
  let creator: TestUser;

  beforeAll(async () => {
    creator = await createUser();
    for (const role of ['non-member', 'guest', 'developer', 'maintainer', 'owner'] as const)
      users[role] = await createUser();
  });

  const tokenOf = (role: Role) =>
    role === 'anonymous' ? null : role === 'admin' ? rootToken() : users[role].token;

  /** A private group under a private parent, each role a member of the group, and a target group. */
  async function world(targetLevel: number | undefined) {
    const parent = await newGroup(creator.token);
    const group = await newGroup(creator.token, parent.id);
    for (const [role, level] of Object.entries(LEVELS)) {
      await must(
        api('POST', `/groups/${group.id}/members`, {
          token: creator.token,
          json: { user_id: users[role as keyof typeof LEVELS].id, access_level: level },
        }),
        201,
        'member',
      );
    }
    const target = await newGroup(creator.token);
    if (targetLevel !== undefined) {
      for (const role of ['owner', 'maintainer'] as const) {
        await must(
          api('POST', `/groups/${target.id}/members`, {
            token: creator.token,
            json: { user_id: users[role].id, access_level: targetLevel },
          }),
          201,
          'target member',
        );
      }
    }
    return { group, target };
  }

  const expected: Record<Role, [number, unknown]> = {
    anonymous: [401, { message: '401 Unauthorized' }],
    'non-member': [404, { message: '404 Group Not Found' }],
    guest: [403, { message: '403 Forbidden' }],
    developer: [403, { message: '403 Forbidden' }],
    maintainer: [403, { message: '403 Forbidden' }],
    owner: [201, undefined],
    admin: [201, undefined],
  };

  for (const role of ROLES) {
    it(`${role} moving a group under a group they own`, async () => {
      const { group, target } = await world(50);
      const response = await transfer(group.id, target.id, tokenOf(role));
      const [status, body] = expected[role];
      expect(response.status, response.text).toBe(status);
      if (body) expect(response.body).toEqual(body);
      else expect(response.body).toMatchObject({ id: group.id, parent_id: target.id });
    });
  }

  it('an owner of the group who is only a developer of the target: 400, nothing moved', async () => {
    const { group, target } = await world(30);
    const response = await transfer(group.id, target.id, users.owner.token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(failed("You don't have enough permissions."));
    expect((await api<GroupBody>('GET', `/groups/${group.id}`)).body.full_path).toBe(group.full_path);
  });

  it('an owner of the group who cannot see the target: 404', async () => {
    const { group, target } = await world(undefined);
    const response = await transfer(group.id, target.id, users.owner.token);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Group Not Found' });
  });

  it('a maintainer of the target may place it there when maintainers create subgroups', async () => {
    const { group, target } = await world(40);
    const response = await transfer(group.id, target.id, users.maintainer.token);
    expect(response.status).toBe(403);
    const byOwner = await transfer(group.id, target.id, users.owner.token);
    expect(byOwner.status, byOwner.text).toBe(201);
  });

  it('an owner without the right to create top-level groups may not make it top level', async () => {
    const { group } = await world(undefined);
    const limited = await must(
      api('PUT', `/users/${users.owner.id}`, { json: { can_create_group: false } }),
      200,
      'user update',
    );
    expect(limited).toMatchObject({ can_create_group: false });
    try {
      const response = await transfer(group.id, undefined, users.owner.token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failed("You don't have enough permissions."));
    } finally {
      await api('PUT', `/users/${users.owner.id}`, { json: { can_create_group: true } });
    }
  });
});

describe('transfers under concurrency', () => {
  it('racing transfers and creations inside the moving subtree leave every path unique and consistent', async () => {
    const owner = await createUser();
    const a = await newGroup(owner.token);
    const b = await newGroup(owner.token);
    const c = await newGroup(owner.token);
    const groupIds = [a.id, b.id, c.id];
    const projectIds: number[] = [];
    // A subtree under A: a1 (with a11) and a2, with projects.
    const a1 = await newGroup(owner.token, a.id);
    const a11 = await newGroup(owner.token, a1.id);
    const a2 = await newGroup(owner.token, a.id);
    groupIds.push(a1.id, a11.id, a2.id);
    const firstProjects: ProjectBody[] = [];
    for (const namespace of [a.id, a1.id, a11.id, a2.id]) {
      const project = await newProject(owner.token, namespace);
      firstProjects.push(project);
      projectIds.push(project.id);
    }
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Creations that take the path of a child still on its way: never allowed to succeed.
    const clashes = () =>
      [0, 15, 30, 60, 120].flatMap((delay) => [
        pause(delay).then(() =>
          api('POST', '/groups', {
            token: owner.token,
            json: { name: unique('c'), path: a11.path, parent_id: a1.id },
          }),
        ),
        pause(delay).then(() =>
          api('POST', '/projects', {
            token: owner.token,
            json: { name: unique('cp'), path: firstProjects[2]?.path, namespace_id: a11.id },
          }),
        ),
      ]);

    const outcomes = { moved: 0, created: 0 };
    for (let round = 0; round < 4; round++) {
      // Two groups with one path, moved into one parent at once: one wins.
      const twinPath = unique('twin');
      const twin1 = await newGroup(owner.token, a2.id, 'private', twinPath);
      const twin2 = await newGroup(owner.token, b.id, 'private', twinPath);
      groupIds.push(twin1.id, twin2.id);
      const [parentOfA, parentOfB] = round % 2 ? [b.id, c.id] : [c.id, a1.id];
      const clashing = Promise.all(clashes());
      const results = await Promise.all([
        transfer(a.id, parentOfA, owner.token),
        transfer(b.id, parentOfB, owner.token),
        transfer(twin1.id, c.id, owner.token),
        transfer(twin2.id, c.id, owner.token),
        ...[a1.id, a11.id, a2.id].map((parent) =>
          api<GroupBody>('POST', '/groups', {
            token: owner.token,
            json: { name: unique('n'), path: unique('n'), parent_id: parent },
          }),
        ),
        ...[a.id, a1.id, a11.id, a2.id].map((namespace) =>
          api<ProjectBody>('POST', '/projects', {
            token: owner.token,
            json: { name: unique('np'), namespace_id: namespace },
          }),
        ),
      ]);
      for (const result of results) {
        // A transfer may be refused (a cycle, a clash, an overlapping move: 400/409); a create may
        // be refused while its group is on the move (409); nothing else.
        expect([201, 400, 409], result.text).toContain(result.status);
        if (result.status === 400)
          expect((result.body as unknown as { message: string }).message).toMatch(/^Transfer failed: /);
        if (result.status === 409) expect(result.body).toEqual({ message: '409 Conflict: Resource lock' });
      }
      for (const clash of await clashing) {
        expect([400, 409], clash.text).toContain(clash.status);
      }
      outcomes.moved += results.slice(0, 4).filter((result) => result.status === 201).length;
      outcomes.created += results.slice(4).filter((result) => result.status === 201).length;
      const twins = results.slice(2, 4).filter((result) => result.status === 201);
      expect(twins.length).toBeLessThanOrEqual(1);
      results.slice(4, 7).forEach((result) => {
        if (result.status === 201) groupIds.push((result.body as GroupBody).id);
      });
      results.slice(7).forEach((result) => {
        if (result.status === 201) projectIds.push((result.body as ProjectBody).id);
      });
      await expectConsistent(groupIds, projectIds);
      // Back to the top for the next round (either may already be there).
      for (const id of [a.id, b.id]) {
        const back = await transfer(id, undefined, owner.token);
        expect([201, 400]).toContain(back.status);
      }
    }
    await expectConsistent(groupIds, projectIds);
    // The race did happen: moves and creations both went through.
    expect(outcomes.moved).toBeGreaterThan(0);
    expect(outcomes.created).toBeGreaterThan(0);
    // Every group of the subtree is read back from the tree index under the root.
    const descendants = await api<GroupBody[]>('GET', `/groups/${a.id}/descendant_groups?per_page=100`, {
      token: owner.token,
    });
    expect(descendants.status).toBe(200);
    const below = new Set<number>();
    for (const id of groupIds) {
      let at = (await api<GroupBody>('GET', `/groups/${id}`)).body.parent_id;
      while (at !== null) {
        if (at === a.id) below.add(id);
        at = (await api<GroupBody>('GET', `/groups/${at}`)).body.parent_id;
      }
    }
    expect(new Set(descendants.body.map((group) => group.id))).toEqual(below);
    expect(descendants.headers.get('x-total')).toBe(String(below.size));
  });

  it('nothing joins a group while it is on the move, and it joins again once the move is over', async () => {
    const owner = await createUser();
    const group = await newGroup(owner.token);
    const { db, table } = localDatabase();
    const mark = (expression: string) =>
      db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: `GROUP#${group.id}`, sk: 'GROUP' },
          UpdateExpression: expression,
          ...(expression.startsWith('SET') ? { ExpressionAttributeValues: { ':token': 'a-move' } } : {}),
        }),
      );
    await mark('SET moving = :token');
    const subgroup = await api('POST', '/groups', {
      token: owner.token,
      json: { name: unique('w'), path: unique('w'), parent_id: group.id },
    });
    expect(subgroup.status).toBe(409);
    expect(subgroup.body).toEqual({ message: '409 Conflict: Resource lock' });
    const project = await api('POST', '/projects', {
      token: owner.token,
      json: { name: unique('wp'), namespace_id: group.id },
    });
    expect(project.status).toBe(409);
    expect(project.body).toEqual({ message: '409 Conflict: Resource lock' });
    const rename = await api('PUT', `/groups/${group.id}`, {
      token: owner.token,
      json: { path: unique('rn') },
    });
    expect(rename.status).toBe(409);
    expect(rename.body).toEqual({ message: '409 Conflict: Resource lock' });
    const moved = await transfer(group.id, (await newGroup(owner.token)).id, owner.token);
    expect(moved.status).toBe(409);
    expect(moved.body).toEqual({ message: '409 Conflict: Resource lock' });
    expect(await listSize('l2', `GROUPS#CHILDREN#${group.id}`)).toBe(0);
    await mark('REMOVE moving');
    const later = await api('POST', '/groups', {
      token: owner.token,
      json: { name: unique('w'), path: unique('w'), parent_id: group.id },
    });
    expect(later.status, later.text).toBe(201);
    await expectConsistent([group.id, (later.body as GroupBody).id], []);
  });

  it('a move cut short after its first step is finished by the next transfer that meets its mark', async () => {
    const owner = await createUser();
    const a = await newGroup(owner.token);
    const b = await newGroup(owner.token);
    const g = await newGroup(owner.token, a.id);
    const c = await newGroup(owner.token, g.id);
    const project = await newProject(owner.token, c.id);
    // The state the first transaction of "g into b" leaves, as if its function then stopped.
    const { db, table } = localDatabase();
    const padded = (...ids: number[]) => ids.map((id) => `${String(id).padStart(12, '0')}/`).join('');
    const stored = (await storedItem(`GROUP#${g.id}`, 'GROUP')) as Record<string, unknown>;
    const newPath = `${b.full_path}/${g.path}`;
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...stored,
          parent_id: b.id,
          ancestor_ids: [b.id],
          full_path: newPath,
          full_name: `${b.full_name} / ${g.name}`,
          l2: `GROUPS#CHILDREN#${b.id}`,
          tree: `TREE#${b.id}#GROUPS`,
          tpath: padded(b.id, g.id),
          moving: 'cut-short',
          move: {
            token: 'cut-short',
            since: 0,
            from_root: a.id,
            from_prefix: padded(a.id, g.id),
            counted: [a.id, b.id],
          },
        },
      }),
    );
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `ROUTE#${newPath.toLowerCase()}`,
          sk: 'ROUTE',
          kind: 'group',
          id: g.id,
          full_path: newPath,
        },
      }),
    );
    await db.send(
      new DeleteCommand({ TableName: table, Key: { pk: `ROUTE#${g.full_path.toLowerCase()}`, sk: 'ROUTE' } }),
    );
    for (const [list, delta] of [
      [`GROUPS#CHILDREN#${a.id}`, -1],
      [`GROUPS#CHILDREN#${b.id}`, 1],
    ] as const) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: `LISTCOUNT#${list}`, sk: 'COUNT' },
          UpdateExpression: 'ADD #count :delta',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':delta': delta },
        }),
      );
    }
    for (const id of [a.id, b.id]) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: `GROUP#${id}`, sk: 'GROUP' },
          UpdateExpression: 'SET moves_below = :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    }
    // Until then the subtree takes nothing new.
    const refused = await api('POST', '/groups', {
      token: owner.token,
      json: { name: unique('w'), path: unique('w'), parent_id: g.id },
    });
    expect(refused.status).toBe(409);
    // Moving it back first finishes the move cut short, then makes its own.
    const back = await transfer(g.id, a.id, owner.token);
    expect(back.status, back.text).toBe(201);
    expect(back.body).toMatchObject({ id: g.id, parent_id: a.id, full_path: `${a.full_path}/${g.path}` });
    await expectConsistent([a.id, b.id, g.id, c.id], [project.id]);
    expect((await storedItem(`GROUP#${g.id}`, 'GROUP'))?.move).toBeUndefined();
    expect((await api<ProjectBody>('GET', `/projects/${project.id}`)).body.path_with_namespace).toBe(
      `${a.full_path}/${g.path}/${c.path}/${project.path}`,
    );
    expect(await listSize('l2', `GROUPS#CHILDREN#${b.id}`)).toBe(0);
  });

  it('A into B while B into A: at most one wins, never a cycle', async () => {
    const owner = await createUser();
    for (let round = 0; round < 5; round++) {
      const a = await newGroup(owner.token);
      const b = await newGroup(owner.token);
      const a1 = await newGroup(owner.token, a.id);
      const b1 = await newGroup(owner.token, b.id);
      const results = await Promise.all([
        transfer(a.id, b1.id, owner.token),
        transfer(b.id, a1.id, owner.token),
      ]);
      const won = results.filter((result) => result.status === 201);
      expect(won.length).toBeLessThanOrEqual(1);
      for (const result of results.filter((r) => r.status !== 201)) {
        expect([400, 409], result.text).toContain(result.status);
      }
      await expectConsistent([a.id, b.id, a1.id, b1.id], []);
    }
  });
});

/** Every membership item of the groups carries its group's stored ancestors. */
async function expectMembersFollow(groupIds: number[]) {
  for (const id of groupIds) {
    const group = await storedItem(`GROUP#${id}`, 'GROUP');
    const members = (await partitionItems(`GROUP#${id}`)).filter((item) =>
      String(item.sk).startsWith('MEMBER#'),
    );
    expect(members.length, `members of ${id}`).toBeGreaterThan(0);
    for (const member of members)
      expect(member.group_ancestor_ids, `member ${member.user_id} of ${id}`).toEqual(group?.ancestor_ids);
  }
}

describe('a move cut short, finished by the group-transfer worker', () => {
  // This process plays the part of a function stopped after the first transaction: the store's
  // start step runs here against the runtime's table, the message goes to a local queue here, and
  // the real worker handles it with a 6 s lease (the runtime keeps its 60 s): long enough that the
  // checks made while it holds are done before it runs out, even on a loaded machine.
  const saved = {
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    TABLE_NAME: process.env.TABLE_NAME,
    QUEUE_MODE: process.env.QUEUE_MODE,
    GROUP_MOVE_LEASE_SECONDS: process.env.GROUP_MOVE_LEASE_SECONDS,
  };
  const receives: number[] = [];
  let queues: LocalQueues;

  beforeAll(async () => {
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: inject('tableName'),
      QUEUE_MODE: 'local',
      GROUP_MOVE_LEASE_SECONDS: '6',
    });
    const { handler } = await import('../../functions/workers/group-transfer.ts');
    const definition = workers.find((worker) => worker.queue === 'group-transfer');
    if (!definition) throw new Error('no group-transfer worker');
    queues = new LocalQueues();
    queues.register(definition, async (event: SQSEvent) => {
      receives.push(Date.now());
      return (await handler(event, {} as never)) as SQSBatchResponse;
    });
    registerLocalDispatch(queues.send);
    registerLocalQueueControl({ defer: queues.defer, deadLetter: queues.deadLetter });
    queues.start();
  });

  afterAll(() => {
    queues?.stop();
    registerLocalDispatch(undefined);
    registerLocalQueueControl(undefined);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('the worker waits out the lease, then moves the rest of the subtree and removes the marks', async () => {
    const owner = await createUser();
    const member = await createUser();
    const a = await newGroup(owner.token);
    const b = await newGroup(owner.token);
    const g = await newGroup(owner.token, a.id);
    const c = await newGroup(owner.token, g.id);
    const project = await newProject(owner.token, c.id);
    await must(
      api('POST', `/groups/${c.id}/members`, {
        token: owner.token,
        json: { user_id: member.id, access_level: 30 },
      }),
      201,
      'member of c',
    );
    // The first transaction of "g into b", then the message, as the route sends them; no settling.
    const [moving, into] = await Promise.all([getGroup(g.id), getGroup(b.id)]);
    if (!moving || !into) throw new Error('groups not found');
    const started = await startGroupTransfer(moving, into);
    const sentAt = Date.now();
    await publish('group-transfer', { groupId: g.id, token: started.token });

    // Cut short: g is at its new place, its subgroup and project still at the old one, and the
    // subtree refuses what could clash with the move.
    expect(await storedItem(`GROUP#${g.id}`, 'GROUP')).toMatchObject({
      full_path: `${b.full_path}/${g.path}`,
      moving: started.token,
    });
    expect((await api<GroupBody>('GET', `/groups/${c.id}`)).body.full_path).toBe(
      `${a.full_path}/${g.path}/${c.path}`,
    );
    const refused = await api('POST', '/groups', {
      token: owner.token,
      json: { name: unique('w'), path: unique('w'), parent_id: g.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: '409 Conflict: Resource lock' });

    await queues.drain(20_000);
    // Received at once and deferred while the move was held, then taken up once the lease ran out.
    expect(receives.length).toBeGreaterThanOrEqual(2);
    expect((receives.at(-1) ?? 0) - sentAt).toBeGreaterThanOrEqual(5_900);
    expect(queues.deadLetters('group-transfer')).toEqual([]);

    await expectConsistent([a.id, b.id, g.id, c.id], [project.id]);
    expect((await api<GroupBody>('GET', `/groups/${c.id}`)).body).toMatchObject({
      parent_id: g.id,
      full_path: `${b.full_path}/${g.path}/${c.path}`,
    });
    expect((await api<ProjectBody>('GET', `/projects/${project.id}`)).body.path_with_namespace).toBe(
      `${b.full_path}/${g.path}/${c.path}/${project.path}`,
    );
    for (const id of [g.id, c.id]) {
      const stored = await storedItem(`GROUP#${id}`, 'GROUP');
      expect(stored?.moving).toBeUndefined();
      expect(stored?.move).toBeUndefined();
    }
    expect(await listSize('l2', `GROUPS#CHILDREN#${a.id}`)).toBe(0);
    expect(await listSize('l2', `GROUPS#CHILDREN#${b.id}`)).toBe(1);
    await expectMembersFollow([g.id, c.id]);
    // The subtree takes creates again.
    const created = await api<GroupBody>('POST', '/groups', {
      token: owner.token,
      json: { name: unique('w'), path: unique('w'), parent_id: c.id },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.full_path).toBe(`${b.full_path}/${g.path}/${c.path}/${created.body.path}`);

    // A redelivery of the same message finds the move finished and does nothing.
    const before = receives.length;
    const groupBefore = await storedItem(`GROUP#${g.id}`, 'GROUP');
    await publish('group-transfer', { groupId: g.id, token: started.token });
    await queues.drain(10_000);
    expect(receives.length).toBe(before + 1);
    expect(await storedItem(`GROUP#${g.id}`, 'GROUP')).toEqual(groupBefore);
  });
});

describe('member writes racing a transfer', () => {
  it('every membership in the moving subtree ends with its group’s ancestors; refused writes say 409', async () => {
    const owner = await createUser();
    const users = await Promise.all(Array.from({ length: 9 }, () => createUser()));
    const a = await newGroup(owner.token);
    const b = await newGroup(owner.token);
    const g = await newGroup(owner.token, a.id);
    const c = await newGroup(owner.token, g.id);
    const d = await newGroup(owner.token, c.id);
    const subtree = [g.id, c.id, d.id];
    const lockRefused = { message: '409 Conflict: Resource lock' };
    // One member per group whose level is changed again and again while the group moves (a change
    // rewrites the member's copy of the ancestors too), and six users added during the moves.
    const [steady, racing] = [users.slice(0, 3), users.slice(3)];
    for (const [index, user] of steady.entries())
      await must(
        api('POST', `/groups/${subtree[index]}/members`, {
          token: owner.token,
          json: { user_id: user.id, access_level: 10 },
        }),
        201,
        'steady member',
      );
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const added = new Map<number, Set<number>>(subtree.map((id) => [id, new Set<number>()]));
    for (const [round, parent] of [b.id, a.id, b.id, a.id, b.id, a.id].entries()) {
      let moving = true;
      // Several writers per member, so that some read the group before its move and write after.
      const changes = [...steady, ...steady, ...steady, ...steady].map(async (user, at) => {
        const index = at % 3;
        const statuses: number[] = [];
        while (moving) {
          const response = await api('PUT', `/groups/${subtree[index]}/members/${user.id}`, {
            token: owner.token,
            json: { access_level: 20 + 10 * (statuses.length % 2) },
          });
          if (response.status !== 200) expect([response.status, response.body]).toEqual([409, lockRefused]);
          statuses.push(response.status);
        }
        return statuses;
      });
      const adds = racing.map((user, index) => {
        const groupId = subtree[index % 3] as number;
        return pause(index * 10).then(async () => {
          const response = await api('POST', `/groups/${groupId}/members`, {
            token: owner.token,
            json: { user_id: user.id, access_level: 10 + 10 * (round % 4) },
          });
          return { response, groupId, userId: user.id };
        });
      });
      const moved = await pause(20).then(() => transfer(g.id, parent, owner.token));
      moving = false;
      expect(moved.status, moved.text).toBe(201);
      expect((await Promise.all(changes)).flat().length).toBeGreaterThan(0);
      for (const { response, groupId, userId } of await Promise.all(adds)) {
        if (response.status === 201) added.get(groupId)?.add(userId);
        else if (added.get(groupId)?.has(userId))
          expect([response.status, response.body]).toEqual([409, { message: 'Member already exists' }]);
        else expect([response.status, response.body]).toEqual([409, lockRefused]);
      }
      await expectConsistent([a.id, b.id, g.id, c.id, d.id], []);
      await expectMembersFollow(subtree);
    }
    // Every add that answered 201 is a member.
    for (const [groupId, userIds] of added) {
      const listed = await api<{ id: number }[]>('GET', `/groups/${groupId}/members?per_page=100`, {
        token: owner.token,
      });
      expect(listed.status).toBe(200);
      expect(listed.body.map((user) => user.id)).toEqual(expect.arrayContaining([...userIds]));
    }
  });
});
