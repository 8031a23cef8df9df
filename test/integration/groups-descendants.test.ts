/**
 * GET /groups/:id/descendant_groups (the whole subtree, as each caller may see it, with the
 * subgroups' filters), GET /groups?visibility= and GET /groups/:id/projects?include_subgroups=true,
 * with their pagination totals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

interface GroupBody {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
}
interface ProjectBody {
  id: number;
  name: string;
  visibility: string;
}

const newGroup = (token: string, parentId: number | undefined, visibility: string, name = unique('d')) =>
  must(
    api<GroupBody>('POST', '/groups', {
      token,
      json: { name, path: name, visibility, ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    'group create',
  );

const newProject = (token: string, namespaceId: number, visibility: string) =>
  must(
    api<ProjectBody>('POST', '/projects', {
      token,
      json: { name: unique('dp'), namespace_id: namespaceId, visibility },
    }),
    201,
    'project create',
  );

const ids = (body: unknown) => (body as { id: number }[]).map((item) => item.id);

/**
 * public root
 * ├── public  pub        (project: public, private)
 * │   └── internal int  (project: internal)
 * │       └── private deep   (project: private) — `deepMember` is a guest here only
 * └── private priv       (project: private)
 */
interface Tree {
  root: GroupBody;
  pub: GroupBody;
  int: GroupBody;
  deep: GroupBody;
  priv: GroupBody;
  projects: Record<
    'pubPublic' | 'pubPrivate' | 'intInternal' | 'deepPrivate' | 'privPrivate' | 'rootPublic',
    ProjectBody
  >;
}

describe('descendant groups and subtree lists', () => {
  let owner: TestUser;
  let outsider: TestUser;
  let member: TestUser;
  let deepMember: TestUser;
  let tree: Tree;

  beforeAll(async () => {
    [owner, outsider, member, deepMember] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    const root = await newGroup(owner.token, undefined, 'public', unique('root'));
    const pub = await newGroup(owner.token, root.id, 'public', unique('b-pub'));
    const int = await newGroup(owner.token, pub.id, 'internal', unique('c-int'));
    const deep = await newGroup(owner.token, int.id, 'private', unique('a-deep'));
    const priv = await newGroup(owner.token, root.id, 'private', unique('d-priv'));
    tree = {
      root,
      pub,
      int,
      deep,
      priv,
      projects: {
        rootPublic: await newProject(owner.token, root.id, 'public'),
        pubPublic: await newProject(owner.token, pub.id, 'public'),
        pubPrivate: await newProject(owner.token, pub.id, 'private'),
        intInternal: await newProject(owner.token, int.id, 'internal'),
        deepPrivate: await newProject(owner.token, deep.id, 'private'),
        privPrivate: await newProject(owner.token, priv.id, 'private'),
      },
    };
    await must(
      api('POST', `/groups/${root.id}/members`, {
        token: owner.token,
        json: { user_id: member.id, access_level: 10 },
      }),
      201,
      'member',
    );
    await must(
      api('POST', `/groups/${deep.id}/members`, {
        token: owner.token,
        json: { user_id: deepMember.id, access_level: 10 },
      }),
      201,
      'deep member',
    );
  });

  describe('GET /groups/:id/descendant_groups', () => {
    const cases: [string, () => string | null, () => number[]][] = [
      ['anonymous', () => null, () => [tree.pub.id]],
      ['a non-member', () => outsider.token, () => [tree.pub.id, tree.int.id]],
      ['a member of one deep group', () => deepMember.token, () => [tree.deep.id, tree.pub.id, tree.int.id]],
      [
        'a guest of the root',
        () => member.token,
        () => [tree.deep.id, tree.pub.id, tree.int.id, tree.priv.id],
      ],
      ['the owner', () => owner.token, () => [tree.deep.id, tree.pub.id, tree.int.id, tree.priv.id]],
      ['an admin', () => rootToken(), () => [tree.deep.id, tree.pub.id, tree.int.id, tree.priv.id]],
    ];
    for (const [who, token, expected] of cases) {
      it(`${who} sees the descendants they may read, by name`, async () => {
        const response = await api<GroupBody[]>('GET', `/groups/${tree.root.id}/descendant_groups`, {
          token: token(),
        });
        expect(response.status).toBe(200);
        expect(ids(response.body)).toEqual(expected());
        expect(response.headers.get('x-total')).toBe(String(expected().length));
        expect(response.body[0]).toMatchObject({ id: expected()[0], parent_id: expect.any(Number) });
      });
    }

    it('a private group’s descendants: 404 to those who cannot see it', async () => {
      for (const token of [null, outsider.token]) {
        const response = await api('GET', `/groups/${tree.priv.id}/descendant_groups`, { token });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ message: '404 Group Not Found' });
      }
      const own = await api('GET', `/groups/${tree.priv.id}/descendant_groups`, { token: owner.token });
      expect(own.status).toBe(200);
      expect(own.body).toEqual([]);
      expect(own.headers.get('x-total')).toBe('0');
    });

    it('takes the subgroups’ filters and pages with totals', async () => {
      const base = `/groups/${tree.root.id}/descendant_groups`;
      const byVisibility = await api<GroupBody[]>('GET', `${base}?visibility=private`, {
        token: owner.token,
      });
      expect(ids(byVisibility.body)).toEqual([tree.deep.id, tree.priv.id]);
      expect(byVisibility.headers.get('x-total')).toBe('2');
      const skipped = await api<GroupBody[]>('GET', `${base}?skip_groups[]=${tree.int.id}`, {
        token: owner.token,
      });
      expect(ids(skipped.body)).toEqual([tree.deep.id, tree.pub.id, tree.priv.id]);
      const searched = await api('GET', `${base}?search=c-int`, { token: owner.token });
      expect(searched.body).toEqual([
        { id: tree.int.id, name: tree.int.name, path: tree.int.path, description: '' },
      ]);
      const byId = await api<GroupBody[]>('GET', `${base}?order_by=id&sort=desc&per_page=2&page=2`, {
        token: owner.token,
      });
      expect(ids(byId.body)).toEqual([tree.int.id, tree.pub.id]);
      expect(byId.headers.get('x-total')).toBe('4');
      expect(byId.headers.get('x-total-pages')).toBe('2');
      expect(byId.headers.get('x-page')).toBe('2');
      const bad = await api('GET', `${base}?visibility=secret`, { token: owner.token });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'visibility does not have a valid value' });
    });
  });

  describe('GET /groups?visibility=', () => {
    it('lists only groups of that visibility, with the total of that list', async () => {
      const all = await api<GroupBody[]>(
        'GET',
        '/groups?visibility=internal&all_available=true&per_page=100',
        {
          token: owner.token,
        },
      );
      expect(all.status).toBe(200);
      expect(all.body.every((group) => group.visibility === 'internal')).toBe(true);
      expect(ids(all.body)).toContain(tree.int.id);
      expect(all.headers.get('x-total')).toBe(String(all.body.length));
      const mine = await api<GroupBody[]>('GET', '/groups?visibility=private&per_page=100', {
        token: deepMember.token,
      });
      expect(ids(mine.body)).toEqual([tree.deep.id]);
      expect(mine.headers.get('x-total')).toBe('1');
      const anonymous = await api<GroupBody[]>('GET', '/groups?visibility=private', { token: null });
      expect(anonymous.body).toEqual([]);
      expect(anonymous.headers.get('x-total')).toBe('0');
    });
  });

  describe('GET /groups/:id/projects?include_subgroups=true', () => {
    const everything = () => Object.values(tree.projects).map((project) => project.id);
    it('lists the whole subtree’s projects as each caller may see them', async () => {
      const cases: [string | null, number[]][] = [
        [owner.token, everything()],
        [member.token, everything()],
        [null, [tree.projects.rootPublic.id, tree.projects.pubPublic.id]],
        [
          outsider.token,
          [tree.projects.rootPublic.id, tree.projects.pubPublic.id, tree.projects.intInternal.id],
        ],
        [
          deepMember.token,
          [
            tree.projects.rootPublic.id,
            tree.projects.pubPublic.id,
            tree.projects.intInternal.id,
            tree.projects.deepPrivate.id,
          ],
        ],
      ];
      for (const [token, expected] of cases) {
        const response = await api<ProjectBody[]>(
          'GET',
          `/groups/${tree.root.id}/projects?include_subgroups=true&order_by=id&sort=asc`,
          { token },
        );
        expect(response.status).toBe(200);
        expect(ids(response.body)).toEqual([...expected].sort((a, b) => a - b));
        expect(response.headers.get('x-total')).toBe(String(expected.length));
      }
      const own = await api<ProjectBody[]>('GET', `/groups/${tree.root.id}/projects`, { token: owner.token });
      expect(ids(own.body)).toEqual([tree.projects.rootPublic.id]);
    });

    it('filters and pages the subtree’s projects', async () => {
      const base = `/groups/${tree.pub.id}/projects?include_subgroups=true`;
      const priv = await api<ProjectBody[]>('GET', `${base}&visibility=private&order_by=id&sort=asc`, {
        token: owner.token,
      });
      expect(ids(priv.body)).toEqual([tree.projects.pubPrivate.id, tree.projects.deepPrivate.id]);
      expect(priv.headers.get('x-total')).toBe('2');
      const paged = await api<ProjectBody[]>('GET', `${base}&order_by=id&sort=desc&per_page=3&page=2`, {
        token: owner.token,
      });
      expect(ids(paged.body)).toEqual([tree.projects.pubPublic.id]);
      expect(paged.headers.get('x-total')).toBe('4');
      const searched = await api<ProjectBody[]>('GET', `${base}&search=${tree.projects.intInternal.name}`, {
        token: owner.token,
      });
      expect(ids(searched.body)).toEqual([tree.projects.intInternal.id]);
    });
  });
});
