/**
 * Reach through the group tree over HTTP: a member of a group reaches the private projects and
 * groups of every level below it (one Query on the tree index), a member of a subgroup reaches its
 * ancestors' group entries but not their projects nor sibling subgroups, a project shared with a
 * sub-subgroup reaches the members of its ancestors, and removing a membership takes the whole
 * tree away again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface AccessBody {
  access_level: number;
  notification_level: number;
}

interface ProjectBody {
  id: number;
  name: string;
  path_with_namespace: string;
  visibility: string;
  permissions?: { project_access: AccessBody | null; group_access: AccessBody | null };
}

interface GroupBody {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
  projects?: ProjectBody[];
  shared_projects?: ProjectBody[];
}

const DEVELOPER = 30;
const projectNotFound = { message: '404 Project Not Found' };
const groupNotFound = { message: '404 Group Not Found' };

/** Creates a private group as root. */
function createGroup(path: string, parentId?: number): Promise<GroupBody> {
  return must(
    api<GroupBody>('POST', '/groups', {
      json: {
        name: path,
        path,
        visibility: 'private',
        ...(parentId === undefined ? {} : { parent_id: parentId }),
      },
    }),
    201,
    `group create ${path}`,
  );
}

/** Creates a private project in a group namespace as root. */
function createProject(name: string, namespaceId: number): Promise<ProjectBody> {
  return must(
    api<ProjectBody>('POST', '/projects', {
      json: { name, namespace_id: namespaceId, visibility: 'private' },
    }),
    201,
    `project create ${name}`,
  );
}

function addGroupMember(groupId: number, userId: number, accessLevel: number) {
  return must(
    api('POST', `/groups/${groupId}/members`, { json: { user_id: userId, access_level: accessLevel } }),
    201,
    'group member add',
  );
}

const ids = (items: { id: number }[]) => items.map((item) => item.id);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/**
 * Every page of GET /projects for the caller (the database is shared with other test files, so
 * public and internal projects of theirs are listed too and may push ours past the first page).
 */
async function allProjects(token: string, query = ''): Promise<ProjectBody[]> {
  const all: ProjectBody[] = [];
  for (let page = 1; page <= 200; page++) {
    const response = await api<ProjectBody[]>('GET', `/projects?per_page=100&page=${page}${query}`, {
      token,
    });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    all.push(...response.body);
    if (!response.headers.get('x-next-page')) return all;
  }
  throw new Error('GET /projects did not end within 200 pages');
}

describe('reach through the group tree', () => {
  let root: string;
  let a: GroupBody;
  let b: GroupBody;
  let c: GroupBody;
  let d: GroupBody;
  let x: GroupBody;
  let pA: ProjectBody;
  let pB: ProjectBody;
  let pC: ProjectBody;
  let pD: ProjectBody;
  let pX: ProjectBody;
  /** Developer of the top-level group A. */
  let memberA: TestUser;
  /** Developer of the subgroup A/B only. */
  let memberB: TestUser;
  /** Developer of A, removed again in the last test. */
  let leaver: TestUser;
  /** Member of nothing. */
  let outsider: TestUser;
  /** Every private project of this file, to pick ours out of a shared database's lists. */
  let fixtureIds: Set<number>;

  /** The ids of this file's projects in a list, in list order. */
  const ours = (projects: ProjectBody[]) => ids(projects).filter((id) => fixtureIds.has(id));

  beforeAll(async () => {
    root = unique('tree');
    a = await createGroup(root);
    [b, d, x] = await Promise.all([
      createGroup('b', a.id),
      createGroup('d', a.id),
      createGroup(unique('treex')),
    ]);
    c = await createGroup('c', b.id);
    // One at a time so that created_at order is A, B, C, D, X.
    pA = await createProject(`${root} in A`, a.id);
    pB = await createProject(`${root} in B`, b.id);
    pC = await createProject(`${root} in C`, c.id);
    pD = await createProject(`${root} in D`, d.id);
    pX = await createProject(`${root} in X`, x.id);
    fixtureIds = new Set([pA.id, pB.id, pC.id, pD.id, pX.id]);
    [memberA, memberB, leaver, outsider] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
    await Promise.all([
      addGroupMember(a.id, memberA.id, DEVELOPER),
      addGroupMember(b.id, memberB.id, DEVELOPER),
      addGroupMember(a.id, leaver.id, DEVELOPER),
    ]);
  });

  it('the fixture has the expected shape', () => {
    expect(b).toMatchObject({ full_path: `${root}/b`, parent_id: a.id, visibility: 'private' });
    expect(c).toMatchObject({ full_path: `${root}/b/c`, parent_id: b.id, visibility: 'private' });
    expect(d).toMatchObject({ full_path: `${root}/d`, parent_id: a.id, visibility: 'private' });
    for (const project of [pA, pB, pC, pD, pX]) expect(project.visibility).toBe('private');
    expect(pC.path_with_namespace).toMatch(new RegExp(`^${root}/b/c/`));
  });

  describe('a direct member of the top-level group A', () => {
    it('GET /projects lists the private projects of A, A/B, A/B/C and A/D, not those of X', async () => {
      const listed = await allProjects(memberA.token);
      expect(ours(listed)).toEqual([pD.id, pC.id, pB.id, pA.id]);
    });

    it('GET /projects?membership=true lists exactly the projects of A’s tree', async () => {
      const listed = await allProjects(memberA.token, '&membership=true');
      expect(ids(listed)).toEqual([pD.id, pC.id, pB.id, pA.id]);
    });

    it('permissions show the inherited developer access through the group, no project access', async () => {
      const listed = await allProjects(memberA.token);
      const developerAccess = {
        project_access: null,
        group_access: { access_level: DEVELOPER, notification_level: 3 },
      };
      for (const project of [pA, pB, pC, pD]) {
        const entry = listed.find((item) => item.id === project.id);
        expect(entry?.permissions).toEqual(developerAccess);
      }
      const shown = await api<ProjectBody>('GET', `/projects/${pC.id}`, { token: memberA.token });
      expect(shown.status).toBe(200);
      expect(shown.body.permissions).toEqual(developerAccess);
    });

    it('GET /projects/:id is 200 at every level of the tree and 404 in X', async () => {
      for (const project of [pA, pB, pC, pD]) {
        const shown = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: memberA.token });
        expect(shown.status).toBe(200);
        expect(shown.body.id).toBe(project.id);
      }
      const hidden = await api('GET', `/projects/${pX.id}`, { token: memberA.token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(projectNotFound);
    });

    it('GET /groups lists A and every group below it', async () => {
      const response = await api<GroupBody[]>('GET', '/groups?per_page=100', { token: memberA.token });
      expect(response.status).toBe(200);
      expect(sorted(ids(response.body))).toEqual(sorted([a.id, b.id, c.id, d.id]));
      expect(response.headers.get('x-total')).toBe('4');
    });

    it('GET /groups/:id for A/B/C is 200 by id and by encoded full path', async () => {
      const byId = await api<GroupBody>('GET', `/groups/${c.id}`, { token: memberA.token });
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({ id: c.id, full_path: `${root}/b/c` });
      expect(ids(byId.body.projects ?? [])).toEqual([pC.id]);

      const byPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(`${root}/b/c`)}`, {
        token: memberA.token,
      });
      expect(byPath.status).toBe(200);
      expect(byPath.body.id).toBe(c.id);
      expect(ids(byPath.body.projects ?? [])).toEqual([pC.id]);
    });
  });

  describe('a member of the subgroup A/B only', () => {
    it('GET /projects lists the private projects of A/B and A/B/C, not those of A or A/D', async () => {
      const listed = await allProjects(memberB.token);
      expect(ours(listed)).toEqual([pC.id, pB.id]);
      const membership = await allProjects(memberB.token, '&membership=true');
      expect(ids(membership)).toEqual([pC.id, pB.id]);
    });

    it('GET /projects/:id is 200 in A/B and A/B/C, 404 in A and A/D', async () => {
      for (const project of [pB, pC]) {
        const shown = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: memberB.token });
        expect(shown.status).toBe(200);
        expect(shown.body.id).toBe(project.id);
      }
      for (const project of [pA, pD]) {
        const hidden = await api('GET', `/projects/${project.id}`, { token: memberB.token });
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual(projectNotFound);
      }
    });

    it('GET /groups lists the ancestor A, A/B and A/B/C, not the sibling A/D', async () => {
      const response = await api<GroupBody[]>('GET', '/groups?per_page=100', { token: memberB.token });
      expect(response.status).toBe(200);
      expect(sorted(ids(response.body))).toEqual(sorted([a.id, b.id, c.id]));
      expect(response.headers.get('x-total')).toBe('3');
    });

    it('GET /groups/:id is 200 for A/B/C (id and path), 404 for the sibling A/D', async () => {
      const byId = await api<GroupBody>('GET', `/groups/${c.id}`, { token: memberB.token });
      expect(byId.status).toBe(200);
      expect(byId.body.id).toBe(c.id);
      const byPath = await api<GroupBody>('GET', `/groups/${encodeURIComponent(`${root}/b/c`)}`, {
        token: memberB.token,
      });
      expect(byPath.status).toBe(200);
      expect(byPath.body.id).toBe(c.id);
      const sibling = await api('GET', `/groups/${d.id}`, { token: memberB.token });
      expect(sibling.status).toBe(404);
      expect(sibling.body).toEqual(groupNotFound);
    });
  });

  describe('an outsider', () => {
    it('sees none of the tree', async () => {
      const listed = await allProjects(outsider.token);
      expect(ours(listed)).toEqual([]);
      const groups = await api<GroupBody[]>('GET', '/groups', { token: outsider.token });
      expect(groups.status).toBe(200);
      expect(groups.body).toEqual([]);
      const group = await api('GET', `/groups/${c.id}`, { token: outsider.token });
      expect(group.status).toBe(404);
      expect(group.body).toEqual(groupNotFound);
      const project = await api('GET', `/projects/${pC.id}`, { token: outsider.token });
      expect(project.status).toBe(404);
      expect(project.body).toEqual(projectNotFound);
    });
  });

  describe('a project of X shared with A/B/C', () => {
    it('reaches the members of A/B/C’s ancestors while shared, and no longer once unshared', async () => {
      const share = await api('POST', `/projects/${pX.id}/share`, {
        json: { group_id: c.id, group_access: DEVELOPER },
      });
      expect(share.status).toBe(201);
      expect(share.body).toMatchObject({ project_id: pX.id, group_id: c.id, group_access: DEVELOPER });

      for (const user of [memberA, memberB]) {
        const listed = await allProjects(user.token);
        expect(ours(listed)).toContain(pX.id);
        const membership = await allProjects(user.token, '&membership=true');
        expect(ids(membership)).toContain(pX.id);
        const shown = await api<ProjectBody>('GET', `/projects/${pX.id}`, { token: user.token });
        expect(shown.status).toBe(200);
        expect(shown.body.id).toBe(pX.id);
      }
      const inC = await api<GroupBody>('GET', `/groups/${c.id}`, { token: memberA.token });
      expect(inC.status).toBe(200);
      expect(ids(inC.body.shared_projects ?? [])).toEqual([pX.id]);

      const outsiderView = await api('GET', `/projects/${pX.id}`, { token: outsider.token });
      expect(outsiderView.status).toBe(404);
      expect(outsiderView.body).toEqual(projectNotFound);
      expect(ours(await allProjects(outsider.token))).toEqual([]);

      const unshare = await api('DELETE', `/projects/${pX.id}/share/${c.id}`);
      expect(unshare.status).toBe(204);

      for (const user of [memberA, memberB]) {
        const listed = await allProjects(user.token);
        expect(ours(listed)).not.toContain(pX.id);
        const membership = await allProjects(user.token, '&membership=true');
        expect(ids(membership)).not.toContain(pX.id);
        const shown = await api('GET', `/projects/${pX.id}`, { token: user.token });
        expect(shown.status).toBe(404);
        expect(shown.body).toEqual(projectNotFound);
      }
      const afterC = await api<GroupBody>('GET', `/groups/${c.id}`, { token: memberA.token });
      expect(afterC.status).toBe(200);
      expect(afterC.body.shared_projects).toEqual([]);
    });
  });

  describe('a member removed from A', () => {
    it('loses every project and group of A’s tree', async () => {
      const before = await allProjects(leaver.token);
      expect(ours(before)).toEqual([pD.id, pC.id, pB.id, pA.id]);

      const removed = await api('DELETE', `/groups/${a.id}/members/${leaver.id}`);
      expect(removed.status).toBe(204);

      const after = await allProjects(leaver.token);
      expect(ours(after)).toEqual([]);
      const membership = await allProjects(leaver.token, '&membership=true');
      expect(membership).toEqual([]);
      for (const project of [pA, pB, pC, pD]) {
        const hidden = await api('GET', `/projects/${project.id}`, { token: leaver.token });
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual(projectNotFound);
      }
      const groups = await api<GroupBody[]>('GET', '/groups', { token: leaver.token });
      expect(groups.status).toBe(200);
      expect(groups.body).toEqual([]);
      const group = await api('GET', `/groups/${c.id}`, { token: leaver.token });
      expect(group.status).toBe(404);
      expect(group.body).toEqual(groupNotFound);

      // The others keep their reach.
      expect(ours(await allProjects(memberA.token))).toEqual([pD.id, pC.id, pB.id, pA.id]);
    });
  });
});
