/**
 * GET /namespaces, GET /namespaces/:id and GET /namespaces/:id/exists: what each caller sees,
 * the entity, pagination and GitLab's refusals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

interface NamespaceBody {
  id: number;
  name: string;
  path: string;
  kind: string;
  full_path: string;
  parent_id: number | null;
  members_count_with_descendants?: number;
}
interface GroupBody {
  id: number;
  path: string;
  full_path: string;
  name: string;
  web_url: string;
}

const newGroup = (parentId?: number, path = unique('ns')) =>
  must(
    api<GroupBody>('POST', '/groups', {
      json: { name: path, path, ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    'group',
  );

const addMember = (groupId: number, user: TestUser, level: number) =>
  must(
    api('POST', `/groups/${groupId}/members`, { json: { user_id: user.id, access_level: level } }),
    201,
    'member',
  );

let user: TestUser;
let other: TestUser;
let owned: GroupBody;
let developerOf: GroupBody;
let child: GroupBody;
let foreign: GroupBody;
let baseUrl: string;

beforeAll(async () => {
  [user, other] = await Promise.all([createUser(), createUser()]);
  // One after the other: the lists are in id order, and ids follow the order of creation.
  owned = await newGroup();
  [developerOf, foreign] = await Promise.all([newGroup(), newGroup()]);
  child = await newGroup(owned.id);
  await Promise.all([
    addMember(owned.id, user, 50),
    addMember(developerOf.id, user, 30),
    addMember(child.id, other, 30),
  ]);
  baseUrl = owned.web_url.slice(0, -`/groups/${owned.full_path}`.length);
});

describe('GET /namespaces', () => {
  it('a user sees their personal namespace and the groups they are direct members of, in id order', async () => {
    const response = await api<NamespaceBody[]>('GET', '/namespaces', { token: user.token });
    expect(response.status).toBe(200);
    const personal = response.body[0] as NamespaceBody;
    expect(response.body).toEqual([
      {
        id: personal.id,
        name: user.username,
        path: user.username,
        kind: 'user',
        full_path: user.username,
        parent_id: null,
        avatar_url: `${baseUrl}/assets/no_avatar.png`,
        web_url: `${baseUrl}/${user.username}`,
      },
      {
        id: owned.id,
        name: owned.name,
        path: owned.path,
        kind: 'group',
        full_path: owned.full_path,
        parent_id: null,
        avatar_url: null,
        web_url: `${baseUrl}/groups/${owned.full_path}`,
        // Lists never show the members count, not even to owners (a page's cost would grow with
        // per_page and the subtrees); GET /namespaces/:id does.
      },
      {
        id: developerOf.id,
        name: developerOf.name,
        path: developerOf.path,
        kind: 'group',
        full_path: developerOf.full_path,
        parent_id: null,
        avatar_url: null,
        web_url: `${baseUrl}/groups/${developerOf.full_path}`,
      },
    ]);
    expect(response.headers.get('x-total')).toBe('3');
  });

  it('owned_only, search and pagination narrow it', async () => {
    const ownedOnly = await api<NamespaceBody[]>('GET', '/namespaces?owned_only=true', { token: user.token });
    expect(ownedOnly.body.map((namespace) => namespace.full_path)).toEqual([user.username, owned.full_path]);
    const searched = await api<NamespaceBody[]>(
      'GET',
      `/namespaces?search=${developerOf.path.toUpperCase()}`,
      {
        token: user.token,
      },
    );
    expect(searched.body.map((namespace) => namespace.id)).toEqual([developerOf.id]);
    const second = await api<NamespaceBody[]>('GET', '/namespaces?per_page=1&page=2', { token: user.token });
    expect(second.body.map((namespace) => namespace.id)).toEqual([owned.id]);
    expect(second.headers.get('x-total')).toBe('3');
    expect(second.headers.get('x-total-pages')).toBe('3');
  });

  it('admins see every namespace in id order, paginated with totals; anonymous callers get 401', async () => {
    const first = await api<NamespaceBody[]>('GET', '/namespaces?per_page=100');
    expect(first.status).toBe(200);
    const ids = first.body.map((namespace) => namespace.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const total = Number(first.headers.get('x-total'));
    expect(total).toBeGreaterThanOrEqual(6);
    const found = await api<NamespaceBody[]>('GET', `/namespaces?search=${foreign.path}`);
    expect(found.body.map((namespace) => namespace.id)).toEqual([foreign.id]);
    const users = await api<NamespaceBody[]>('GET', `/namespaces?search=${other.username}`);
    expect(users.body).toMatchObject([{ kind: 'user', path: other.username }]);
    const top = await api<NamespaceBody[]>('GET', `/namespaces?top_level_only=true&search=${child.path}`);
    expect(top.body).toEqual([]);
    expect(await api('GET', '/namespaces', { token: null })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});

describe('GET /namespaces/:id', () => {
  it('by id or path: members and admins see it, others get 404', async () => {
    const mine = await api<NamespaceBody>('GET', `/namespaces/${user.username}`, { token: user.token });
    expect(mine).toMatchObject({ status: 200, body: { kind: 'user', full_path: user.username } });
    const byId = await api<NamespaceBody>('GET', `/namespaces/${mine.body.id}`, { token: user.token });
    expect(byId.body).toEqual(mine.body);
    const nested = await api<NamespaceBody>('GET', `/namespaces/${encodeURIComponent(child.full_path)}`, {
      token: user.token,
    });
    expect(nested).toMatchObject({ status: 200, body: { id: child.id, parent_id: owned.id, kind: 'group' } });
    const notFound = { status: 404, body: { message: '404 Namespace Not Found' } };
    // Another user's personal namespace, a group without membership, nothing at all.
    expect(await api('GET', `/namespaces/${other.username}`, { token: user.token })).toMatchObject(notFound);
    expect(await api('GET', `/namespaces/${foreign.id}`, { token: user.token })).toMatchObject(notFound);
    expect(await api('GET', '/namespaces/999999999', { token: user.token })).toMatchObject(notFound);
    // The owner sees the distinct members of the group and its subgroup: its creator (the admin),
    // the user, and the subgroup's developer.
    const asOwner = await api<NamespaceBody>('GET', `/namespaces/${owned.id}`, { token: user.token });
    expect({ status: asOwner.status, body: asOwner.body }).toEqual({
      status: 200,
      body: {
        id: owned.id,
        name: owned.name,
        path: owned.path,
        kind: 'group',
        full_path: owned.full_path,
        parent_id: null,
        avatar_url: null,
        web_url: `${baseUrl}/groups/${owned.full_path}`,
        members_count_with_descendants: 3,
      },
    });
    // The admin sees it too; the subgroup's count is its own members' (the creator and its developer).
    expect(
      (await api<NamespaceBody>('GET', `/namespaces/${encodeURIComponent(child.full_path)}`)).body
        .members_count_with_descendants,
    ).toBe(2);
    // A developer of the group sees it without the members count; the admin sees all.
    const asDeveloper = await api<NamespaceBody>('GET', `/namespaces/${developerOf.id}`, {
      token: user.token,
    });
    expect(asDeveloper.status).toBe(200);
    expect(asDeveloper.body.members_count_with_descendants).toBeUndefined();
    const asAdmin = await api<NamespaceBody>('GET', `/namespaces/${other.username}`);
    expect(asAdmin).toMatchObject({ status: 200, body: { kind: 'user', path: other.username } });
    expect(await api('GET', `/namespaces/${owned.id}`, { token: null })).toMatchObject({ status: 401 });
  });
});

describe('GET /namespaces/:id/exists', () => {
  it('tells whether a path is taken at the top level or under a parent, suggesting a free one', async () => {
    const token = other.token;
    expect(await api('GET', `/namespaces/${owned.path}/exists`, { token })).toMatchObject({
      status: 200,
      body: { exists: true, suggests: [`${owned.path}1`] },
    });
    expect(await api('GET', `/namespaces/${user.username}/exists`, { token })).toMatchObject({
      body: { exists: true, suggests: [`${user.username}1`] },
    });
    await newGroup(undefined, `${owned.path}1`);
    expect(await api('GET', `/namespaces/${owned.path}/exists`, { token })).toMatchObject({
      body: { exists: true, suggests: [`${owned.path}2`] },
    });
    expect(await api('GET', `/namespaces/${unique('free')}/exists`, { token })).toMatchObject({
      body: { exists: false, suggests: [] },
    });
    expect(
      await api('GET', `/namespaces/${child.path}/exists?parent_id=${owned.id}`, { token }),
    ).toMatchObject({
      body: { exists: true, suggests: [`${child.path}1`] },
    });
    // A subgroup's path is free at the top level.
    expect(await api('GET', `/namespaces/${child.path}/exists`, { token })).toMatchObject({
      body: { exists: false, suggests: [] },
    });
    expect(await api('GET', `/namespaces/${owned.path}/exists?parent_id=abc`, { token })).toMatchObject({
      status: 400,
      body: { error: 'parent_id is invalid' },
    });
    expect(await api('GET', `/namespaces/${owned.path}/exists`, { token: null })).toMatchObject({
      status: 401,
    });
    expect(rootToken()).toBeTruthy();
  });
});
