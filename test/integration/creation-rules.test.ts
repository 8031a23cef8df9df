/**
 * What may be created where: GitLab's project path rules, and the group's project_creation_level
 * and subgroup_creation_level with GitLab's defaults (developers create projects, maintainers
 * create subgroups).
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, type TestUser, unique } from '../support/api.ts';

const SEGMENTS =
  'must not start or end with a special character and must not contain consecutive special characters.';

describe('project paths', () => {
  it.each(['..', 'a..b', '.hidden', 'end-', '_x', 'a_-b'])(
    'path %s is refused with GitLab’s message',
    async (path) => {
      const response = await api('POST', '/projects', { json: { name: unique('p'), path } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { path: [SEGMENTS] } });
    },
  );

  it('paths of runs joined by single separators are accepted', async () => {
    const path = `${unique('ok')}.v2_final`;
    const response = await api<{ path: string }>('POST', '/projects', { json: { name: unique('p'), path } });
    expect(response.status).toBe(201);
    expect(response.body.path).toBe(path);
  });

  it('group paths and usernames keep the namespace rule', async () => {
    const group = await api('POST', '/groups', { json: { name: unique('g'), path: 'ends-with-dot.' } });
    expect(group.status).toBe(400);
    const user = await api('POST', '/users', {
      json: { username: '..', email: `${unique('e')}@example.com`, name: 'n', password: 'password123' },
    });
    expect(user.status).toBe(400);
  });
});

async function groupWith(levels: Record<string, string> = {}) {
  const owner = await createUser();
  const group = await api<{ id: number; project_creation_level: string; subgroup_creation_level: string }>(
    'POST',
    '/groups',
    { token: owner.token, json: { name: unique('g'), path: unique('g'), ...levels } },
  );
  expect(group.status).toBe(201);
  return { owner, group: group.body };
}

async function memberAt(groupId: number, owner: TestUser, level: number) {
  const user = await createUser();
  const added = await api('POST', `/groups/${groupId}/members`, {
    token: owner.token,
    json: { user_id: user.id, access_level: level },
  });
  expect(added.status).toBe(201);
  return user;
}

describe('creation levels', () => {
  it('defaults: developers create projects, maintainers create subgroups; shown on the group', async () => {
    const { owner, group } = await groupWith();
    expect(group.project_creation_level).toBe('developer');
    expect(group.subgroup_creation_level).toBe('maintainer');
    const developer = await memberAt(group.id, owner, 30);
    const project = await api('POST', '/projects', {
      token: developer.token,
      json: { name: unique('p'), namespace_id: group.id },
    });
    expect(project.status).toBe(201);
    const maintainer = await memberAt(group.id, owner, 40);
    const subgroup = await api('POST', '/groups', {
      token: maintainer.token,
      json: { name: unique('s'), path: unique('s'), parent_id: group.id },
    });
    expect(subgroup.status).toBe(201);
    const devSubgroup = await api('POST', '/groups', {
      token: developer.token,
      json: { name: unique('s'), path: unique('s'), parent_id: group.id },
    });
    expect(devSubgroup.status).toBe(403);
    expect(devSubgroup.body).toEqual({ message: '403 Forbidden' });
  });

  it('maintainer and owner levels narrow who creates; noone leaves it to admins', async () => {
    const { owner, group } = await groupWith({
      project_creation_level: 'maintainer',
      subgroup_creation_level: 'owner',
    });
    const developer = await memberAt(group.id, owner, 30);
    const maintainer = await memberAt(group.id, owner, 40);
    const refused = await api('POST', '/projects', {
      token: developer.token,
      json: { name: unique('p'), namespace_id: group.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { namespace: ['is not valid'] } });
    expect(
      (
        await api('POST', '/projects', {
          token: maintainer.token,
          json: { name: unique('p'), namespace_id: group.id },
        })
      ).status,
    ).toBe(201);
    const subgroup = await api('POST', '/groups', {
      token: maintainer.token,
      json: { name: unique('s'), path: unique('s'), parent_id: group.id },
    });
    expect(subgroup.status).toBe(403);

    const changed = await api<{ project_creation_level: string }>('PUT', `/groups/${group.id}`, {
      token: owner.token,
      json: { project_creation_level: 'noone' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.project_creation_level).toBe('noone');
    const byOwner = await api('POST', '/projects', {
      token: owner.token,
      json: { name: unique('p'), namespace_id: group.id },
    });
    expect(byOwner.status).toBe(400);
    expect(byOwner.body).toEqual({ message: { namespace: ['is not valid'] } });
    const byAdmin = await api('POST', '/projects', { json: { name: unique('p'), namespace_id: group.id } });
    expect(byAdmin.status).toBe(201);
  });

  it('an unknown level is refused', async () => {
    const response = await api('POST', '/groups', {
      json: { name: unique('g'), path: unique('g'), project_creation_level: 'everyone' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'project_creation_level does not have a valid value' });
  });
});
