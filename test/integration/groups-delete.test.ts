/**
 * Deleting a group tree: 202 at once, every group of the tree gone (at once or after the
 * group-delete worker), the paths free again, and nothing of the tree left in the table, checked
 * key by key in the runtime's DynamoDB Local.
 *
 * The last scenario adds 50 projects across the tree (with members, stars and shares) and checks
 * that the worker removes them too, their partitions, routes, names and list entries included.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, idle, type TestUser, unique } from '../support/api.ts';
import { itemsLeft, listSize, partitionItems, storedItem, storedListCount } from '../support/db.ts';

interface GroupBody {
  id: number;
  path: string;
  full_path: string;
  visibility: Visibility;
  parent_id: number | null;
}

type Visibility = 'private' | 'internal' | 'public';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const getItem = storedItem;

/** A list counter's value (its shards summed), or undefined when it has no shard. */
const listCounter = storedListCount;

/**
 * Whether a shared list's counter equals the number of items in it. Other test files write the
 * same lists concurrently, so it retries until it reads the counter unchanged around the Query.
 */
async function counterMatchesList(list: 'l1' | 'l2', name: string): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    const before = (await listCounter(name)) ?? 0;
    const size = await listSize(list, name);
    const after = (await listCounter(name)) ?? 0;
    if (before === after && before === size) return 'consistent';
    last = `counter ${before}→${after}, list ${size}`;
    await sleep(50);
  }
  return `${name}: ${last}`;
}

async function sharedCountersConsistent(): Promise<string[]> {
  return Promise.all([
    counterMatchesList('l1', 'GROUPS#private'),
    counterMatchesList('l1', 'GROUPS#internal'),
    counterMatchesList('l1', 'GROUPS#public'),
    counterMatchesList('l2', 'GROUPS#CHILDREN#ROOT'),
  ]);
}

async function createGroup(
  token: string,
  fields: { path: string; visibility: Visibility; parent_id?: number },
): Promise<GroupBody> {
  const response = await api<GroupBody>('POST', '/groups', { token, json: { name: fields.path, ...fields } });
  if (response.status !== 201) throw new Error(`group create failed: ${response.status} ${response.text}`);
  return response.body;
}

async function addMember(groupId: number, user: TestUser, accessLevel: number, token: string) {
  const response = await api('POST', `/groups/${groupId}/members`, {
    token,
    json: { user_id: user.id, access_level: accessLevel },
  });
  if (response.status !== 201) throw new Error(`member add failed: ${response.status} ${response.text}`);
}

interface Tree {
  creator: TestUser;
  others: TestUser[];
  root: GroupBody;
  /** Every group of the tree, root first, level by level. */
  groups: GroupBody[];
  children: Map<number, number[]>;
  /** Direct members of each group (the creator owns every one). */
  members: Map<number, number[]>;
}

const less: Record<Visibility, Visibility> = { public: 'internal', internal: 'private', private: 'private' };

/**
 * A public top-level group with three levels of subgroups (3, then 2 per group, then 2 per group:
 * 22 groups, all three visibilities) and members at every level.
 */
async function buildTree(): Promise<Tree> {
  const [creator, first, second] = await Promise.all([createUser(), createUser(), createUser()]);
  const root = await createGroup(creator.token, { path: unique('del'), visibility: 'public' });
  const groups = [root];
  const children = new Map<number, number[]>();
  const members = new Map<number, number[]>([[root.id, [creator.id]]]);
  let level = [root];
  const widths = [3, 2, 2];
  for (const [depth, width] of widths.entries()) {
    const next = (
      await Promise.all(
        level.map((parent) =>
          Promise.all(
            Array.from({ length: width }, (_, i) =>
              createGroup(creator.token, {
                path: `l${depth + 1}-${i}`,
                parent_id: parent.id,
                visibility: i === 0 ? parent.visibility : less[parent.visibility],
              }),
            ),
          ),
        ),
      )
    ).flat();
    for (const group of next) {
      children.set(group.parent_id!, [...(children.get(group.parent_id!) ?? []), group.id]);
      members.set(group.id, [creator.id]);
    }
    groups.push(...next);
    level = next;
  }
  // Members at every level: `first` in the root and every second-level group, `second` in every
  // first- and third-level group.
  const perDepth: [number, TestUser, number][] = [
    [0, first, 30],
    [1, second, 10],
    [2, first, 40],
    [3, second, 20],
  ];
  const memberships = perDepth.flatMap(([depth, user, accessLevel]) =>
    groups.filter((group) => depthOf(group) === depth).map((group) => ({ group, user, accessLevel })),
  );
  await Promise.all(
    memberships.map(async ({ group, user, accessLevel }) => {
      await addMember(group.id, user, accessLevel, creator.token);
      members.get(group.id)!.push(user.id);
    }),
  );
  return { creator, others: [first, second], root, groups, children, members };
}

const depthOf = (group: GroupBody) => group.full_path.split('/').length - 1;

/** Once the runtime is idle (the group-delete worker has run): the groups whose item is still stored. */
async function leftAfterPurge(groups: GroupBody[]): Promise<string[]> {
  await idle();
  const items = await Promise.all(groups.map((group) => getItem(`GROUP#${group.id}`, 'GROUP')));
  return groups.filter((_, i) => items[i] !== undefined).map((group) => group.full_path);
}

/** Everything the table could still hold of a group, by key; empty when nothing is left. */
async function remainsOf(group: GroupBody, memberIds: number[]): Promise<string[]> {
  const found: string[] = [];
  const label = `${group.full_path} (${group.id})`;
  if (await getItem(`GROUP#${group.id}`, 'GROUP')) found.push(`${label}: GROUP item`);
  for (const userId of memberIds) {
    if (await getItem(`GROUP#${group.id}`, `MEMBER#${userId}`)) found.push(`${label}: MEMBER#${userId}`);
  }
  const route = await getItem(`ROUTE#${group.full_path.toLowerCase()}`, 'ROUTE');
  if (route) found.push(`${label}: ROUTE item ${JSON.stringify(route)}`);
  const rest = await partitionItems(`GROUP#${group.id}`);
  if (rest.length) found.push(`${label}: partition holds ${rest.map((item) => item.sk).join(', ')}`);
  const memberList = await listSize('l1', `MEMBERS#GROUP#${group.id}`);
  if (memberList) found.push(`${label}: member list holds ${memberList}`);
  const childList = await listSize('l2', `GROUPS#CHILDREN#${group.id}`);
  if (childList) found.push(`${label}: children list holds ${childList}`);
  const childCounter = await listCounter(`GROUPS#CHILDREN#${group.id}`);
  if (childCounter !== undefined && childCounter !== 0)
    found.push(`${label}: children counter ${childCounter}`);
  const memberCounter = await listCounter(`MEMBERS#GROUP#${group.id}`);
  if (memberCounter !== undefined && memberCounter !== 0)
    found.push(`${label}: member counter ${memberCounter}`);
  return found;
}

describe('group deletion cascade', () => {
  it('the setup is what the checks below assume (counters and lists by key)', async () => {
    const tree = await buildTree();
    expect(tree.groups).toHaveLength(22);
    const stored = await Promise.all(
      tree.groups.map(async (group) => ({
        path: group.full_path,
        childCounter: await listCounter(`GROUPS#CHILDREN#${group.id}`),
        childList: await listSize('l2', `GROUPS#CHILDREN#${group.id}`),
        memberCounter: await listCounter(`MEMBERS#GROUP#${group.id}`),
        memberList: await listSize('l1', `MEMBERS#GROUP#${group.id}`),
        route: await getItem(`ROUTE#${group.full_path.toLowerCase()}`, 'ROUTE'),
      })),
    );
    expect(stored).toEqual(
      tree.groups.map((group) => {
        const children = tree.children.get(group.id)?.length ?? 0;
        const members = tree.members.get(group.id)!.length;
        return {
          path: group.full_path,
          childCounter: children || undefined,
          childList: children,
          memberCounter: members,
          memberList: members,
          route: expect.objectContaining({ kind: 'group', id: group.id }),
        };
      }),
    );
    expect(await listCounter(`MEMBERSHIPS#GROUP#USER#${tree.creator.id}`)).toBe(22);
    const removed = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(removed.status).toBe(202);
    expect(await leftAfterPurge(tree.groups)).toEqual([]);
  });

  it('deletes a three-level tree with members: 202, all 404, path reusable, nothing left by key', async () => {
    const tree = await buildTree();
    const users = [tree.creator, ...tree.others];
    expect(await sharedCountersConsistent()).toEqual([
      'consistent',
      'consistent',
      'consistent',
      'consistent',
    ]);

    const removed = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ message: '202 Accepted' });

    const rootNow = await api('GET', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(rootNow.status).toBe(404);
    expect(rootNow.body).toEqual({ message: '404 Group Not Found' });
    const again = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Group Not Found' });

    // Every subgroup answers 404 once the worker has run.
    await idle();
    const answers = await Promise.all(
      tree.groups.map((group) => api('GET', `/groups/${group.id}`, { token: tree.creator.token })),
    );
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual(
      tree.groups.map(() => [404, { message: '404 Group Not Found' }]),
    );
    for (const group of tree.groups) {
      const byPath = await api('GET', `/groups/${encodeURIComponent(group.full_path)}`);
      expect(byPath.status, group.full_path).toBe(404);
      expect(byPath.body).toEqual({ message: '404 Group Not Found' });
    }

    expect(await leftAfterPurge(tree.groups)).toEqual([]);
    const remains = (
      await Promise.all(tree.groups.map((group) => remainsOf(group, tree.members.get(group.id)!)))
    ).flat();
    expect(remains).toEqual([]);
    for (const user of users) {
      expect(await listSize('l2', `MEMBERSHIPS#GROUP#USER#${user.id}`), user.username).toBe(0);
      expect((await listCounter(`MEMBERSHIPS#GROUP#USER#${user.id}`)) ?? 0, user.username).toBe(0);
      const listed = await api('GET', '/groups', { token: user.token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([]);
    }
    expect(await sharedCountersConsistent()).toEqual([
      'consistent',
      'consistent',
      'consistent',
      'consistent',
    ]);

    // The paths are free again.
    const reused = await createGroup(tree.creator.token, { path: tree.root.path, visibility: 'private' });
    expect(reused.id).not.toBe(tree.root.id);
    const reusedChild = await createGroup(tree.creator.token, {
      path: 'l1-0',
      visibility: 'private',
      parent_id: reused.id,
    });
    const byPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(`${tree.root.path}/l1-0`)}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(reusedChild.id);
  });

  it('a path reused before the worker has run stays with its new group', async () => {
    const tree = await buildTree();
    const removed = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(removed.status).toBe(202);
    // At once: the root path is free while the worker may still be removing the old tree.
    const reused = await api<GroupBody>('POST', '/groups', {
      token: tree.creator.token,
      json: { name: 'again', path: tree.root.path, visibility: 'public' },
    });
    expect(reused.status).toBe(201);
    expect(await leftAfterPurge(tree.groups)).toEqual([]);

    const child = await createGroup(tree.creator.token, {
      path: 'l1-1',
      visibility: 'public',
      parent_id: reused.body.id,
    });
    for (const [path, id] of [
      [tree.root.path, reused.body.id],
      [`${tree.root.path}/l1-1`, child.id],
    ] as const) {
      const found = await api<GroupBody>('GET', `/groups/${encodeURIComponent(path)}`, { token: null });
      expect(found.status, path).toBe(200);
      expect(found.body.id, path).toBe(id);
      expect(await getItem(`ROUTE#${path.toLowerCase()}`, 'ROUTE'), path).toMatchObject({
        kind: 'group',
        id,
      });
    }
    const remains = (
      await Promise.all(
        tree.groups
          .filter((group) => group.id !== tree.root.id && group.full_path !== `${tree.root.path}/l1-1`)
          .map((group) => remainsOf(group, tree.members.get(group.id)!)),
      )
    ).flat();
    expect(remains).toEqual([]);
    expect(await partitionItems(`GROUP#${tree.root.id}`)).toEqual([]);
  });

  it('deleting a subgroup removes its subtree and leaves the parent and siblings', async () => {
    const tree = await buildTree();
    const [doomed, sibling] = tree.groups.filter((group) => group.parent_id === tree.root.id) as [
      GroupBody,
      GroupBody,
    ];
    const subtree = tree.groups.filter(
      (group) => group.full_path === doomed.full_path || group.full_path.startsWith(`${doomed.full_path}/`),
    );
    expect(subtree).toHaveLength(7);
    expect(await listCounter(`GROUPS#CHILDREN#${tree.root.id}`)).toBe(3);

    const removed = await api('DELETE', `/groups/${doomed.id}`, { token: tree.creator.token });
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ message: '202 Accepted' });

    const subgroups = await api<GroupBody[]>('GET', `/groups/${tree.root.id}/subgroups`, {
      token: tree.creator.token,
    });
    expect(subgroups.status).toBe(200);
    expect(subgroups.body.map((group) => group.id)).not.toContain(doomed.id);
    expect(subgroups.body).toHaveLength(2);
    expect(subgroups.headers.get('x-total')).toBe('2');
    expect(await listCounter(`GROUPS#CHILDREN#${tree.root.id}`)).toBe(2);

    expect(await leftAfterPurge(subtree)).toEqual([]);
    const remains = (
      await Promise.all(subtree.map((group) => remainsOf(group, tree.members.get(group.id)!)))
    ).flat();
    expect(remains).toEqual([]);

    const parent = await api<GroupBody>('GET', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(parent.status).toBe(200);
    const siblingNow = await api<GroupBody>('GET', `/groups/${encodeURIComponent(sibling.full_path)}`, {
      token: tree.creator.token,
    });
    expect(siblingNow.status).toBe(200);
    expect(siblingNow.body.id).toBe(sibling.id);
    expect(await listCounter(`MEMBERSHIPS#GROUP#USER#${tree.creator.id}`)).toBe(22 - 7);

    const cleanup = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(cleanup.status).toBe(202);
  });

  it('deletes a three-level tree holding 50 projects: nothing of the projects is left by key', async () => {
    const tree = await buildTree();
    const [, first] = tree.others as [TestUser, TestUser];
    const outside = await createGroup(tree.creator.token, { path: unique('outside'), visibility: 'private' });
    const projects: { id: number; path_with_namespace: string; name: string; namespaceId: number }[] = [];
    for (let start = 0; start < 50; start += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, offset) => {
          const index = start + offset;
          const group = tree.groups[index % tree.groups.length] as GroupBody;
          const created = await api<{ id: number; path_with_namespace: string; name: string }>(
            'POST',
            '/projects',
            {
              token: tree.creator.token,
              json: { name: `Project ${index}`, namespace_id: group.id, visibility: 'private' },
            },
          );
          expect(created.status, created.text).toBe(201);
          return { ...created.body, namespaceId: group.id };
        }),
      );
      projects.push(...batch);
    }
    // Give the projects the items that live beside them: a member, a star, a share.
    for (const project of projects.slice(0, 10)) {
      const member = await api('POST', `/projects/${project.id}/members`, {
        token: tree.creator.token,
        json: { user_id: first.id, access_level: 30 },
      });
      expect(member.status, member.text).toBe(201);
      const star = await api('POST', `/projects/${project.id}/star`, { token: tree.creator.token });
      expect(star.status).toBe(201);
      const share = await api('POST', `/projects/${project.id}/share`, {
        token: tree.creator.token,
        json: { group_id: outside.id, group_access: 20 },
      });
      expect(share.status, share.text).toBe(201);
    }
    expect(await listCounter(`SHARES#GROUP#${outside.id}`)).toBe(10);

    const removed = await api('DELETE', `/groups/${tree.root.id}`, { token: tree.creator.token });
    expect(removed.status).toBe(202);
    expect(await leftAfterPurge(tree.groups)).toEqual([]);

    const left: string[] = [];
    for (const project of projects) {
      const label = `${project.path_with_namespace} (${project.id})`;
      const items = await itemsLeft(`PROJECT#${project.id}`);
      if (items.length) left.push(`${label}: partition holds ${items.map((item) => item.sk).join(', ')}`);
      if (await getItem(`ROUTE#${project.path_with_namespace.toLowerCase()}`, 'ROUTE'))
        left.push(`${label}: route`);
      if (await getItem(`PROJECTNAME#${project.namespaceId}#${project.name.toLowerCase()}`, 'PROJECTNAME')) {
        left.push(`${label}: name item`);
      }
      const answer = await api('GET', `/projects/${project.id}`);
      if (answer.status !== 404) left.push(`${label}: GET answers ${answer.status}`);
    }
    for (const group of tree.groups) {
      for (const visibility of ['private', 'internal', 'public']) {
        const list = `PROJECTS#NS#${group.id}#${visibility}`;
        const listed = await listSize('l2', list);
        if (listed) left.push(`${group.full_path}: ${visibility} project list holds ${listed}`);
        const counter = await listCounter(list);
        if (counter) left.push(`${group.full_path}: ${visibility} project counter ${counter}`);
      }
    }
    expect(left).toEqual([]);
    expect(await listSize('l2', `STARRED#USER#${tree.creator.id}`)).toBe(0);
    expect(await listSize('l2', `MEMBERSHIPS#PROJECT#USER#${first.id}`)).toBe(0);
    expect(await listSize('l1', `SHARES#GROUP#${outside.id}`)).toBe(0);
    expect(await listCounter(`SHARES#GROUP#${outside.id}`)).toBe(0);
  });
});
