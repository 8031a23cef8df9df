/**
 * Sharing a group with a group over HTTP: the invited group's members reach a private project of
 * the shared group's subgroup at once, at the lower of their own level and the share's, and lose
 * it when the share ends; members/all and a project's groups show where members come from; every
 * new operation × every role.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';

interface GroupBody {
  id: number;
  name: string;
  full_path: string;
  shared_with_groups: unknown[];
}
interface ProjectBody {
  id: number;
  permissions: { project_access: unknown; group_access: { access_level: number } | null };
}
interface MemberBody {
  id: number;
  username: string;
  access_level: number;
}

const createGroup = (token: string, parentId?: number, visibility = 'private') => {
  const path = unique('share');
  return must(
    api<GroupBody>('POST', '/groups', {
      token,
      json: { name: path, path, visibility, ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    'group create',
  );
};

const addMember = (kind: 'groups' | 'projects', id: number, userId: number, level: number) =>
  must(
    api('POST', `/${kind}/${id}/members`, { json: { user_id: userId, access_level: level } }),
    201,
    'member add',
  );

let owner: TestUser;
let invitedMaintainer: TestUser;
let invitedGuestParent: TestUser;
let sharedDeveloper: TestUser;
let sharedGuest: TestUser;
let sharedMaintainer: TestUser;
let outsider: TestUser;
let shared: GroupBody;
let subgroup: GroupBody;
let invitedParent: GroupBody;
let invited: GroupBody;
let project: { id: number };

beforeAll(async () => {
  [owner, invitedMaintainer, invitedGuestParent, sharedDeveloper, sharedGuest, sharedMaintainer, outsider] =
    await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
      createUser(),
      createUser(),
      createUser(),
    ]);
  shared = await createGroup(owner.token);
  subgroup = await createGroup(owner.token, shared.id);
  // Public, so the shared group's owner may invite it.
  invitedParent = await createGroup(rootToken(), undefined, 'public');
  invited = await createGroup(rootToken(), invitedParent.id, 'public');
  await addMember('groups', invited.id, invitedMaintainer.id, 40);
  // Inherited in the invited group: a guest of its parent.
  await addMember('groups', invitedParent.id, invitedGuestParent.id, 10);
  await addMember('groups', shared.id, sharedDeveloper.id, 30);
  await addMember('groups', shared.id, sharedGuest.id, 10);
  await addMember('groups', shared.id, sharedMaintainer.id, 40);
  project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: owner.token,
      json: { name: unique('p'), namespace_id: subgroup.id, visibility: 'private' },
    }),
    201,
    'project create',
  );
});

describe('POST /groups/:id/share then DELETE', () => {
  it('gives the invited group members the lower level at once, and takes it back', async () => {
    const before = await api('GET', `/projects/${project.id}`, { token: invitedMaintainer.token });
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ message: '404 Project Not Found' });

    const created = await api<GroupBody>('POST', `/groups/${shared.id}/share`, {
      token: owner.token,
      json: { group_id: invited.id, group_access: 30, expires_at: null },
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(shared.id);
    expect(created.body.shared_with_groups).toEqual([
      {
        group_id: invited.id,
        group_name: invited.name,
        group_full_path: invited.full_path,
        group_access_level: 30,
        expires_at: null,
      },
    ]);

    const seen = await api<ProjectBody>('GET', `/projects/${project.id}`, { token: invitedMaintainer.token });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions.group_access).toEqual({ access_level: 30, notification_level: 3 });
    // Developer, not maintainer: settings stay closed.
    const hooks = await api('GET', `/projects/${project.id}/hooks`, { token: invitedMaintainer.token });
    expect(hooks.status).toBe(403);
    expect(hooks.body).toEqual({ message: '403 Forbidden' });
    // An inherited guest of the invited group reaches the project as a guest.
    const guest = await api<ProjectBody>('GET', `/projects/${project.id}`, {
      token: invitedGuestParent.token,
    });
    expect(guest.status).toBe(200);
    expect(guest.body.permissions.group_access).toEqual({ access_level: 10, notification_level: 3 });
    const subgroupSeen = await api<GroupBody>('GET', `/groups/${subgroup.id}`, {
      token: invitedMaintainer.token,
    });
    expect(subgroupSeen.status).toBe(200);
    expect(subgroupSeen.body.shared_with_groups).toEqual([]);
    const detail = await api<GroupBody>('GET', `/groups/${shared.id}`, { token: outsider.token });
    expect(detail.status).toBe(404);

    const twice = await api('POST', `/groups/${shared.id}/share`, {
      token: owner.token,
      json: { group_id: invited.id, group_access: 10 },
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: 'Shared group The group has already been shared with this group' });

    const removed = await api('DELETE', `/groups/${shared.id}/share/${invited.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    const after = await api('GET', `/projects/${project.id}`, { token: invitedMaintainer.token });
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ message: '404 Project Not Found' });
    const again = await api('DELETE', `/groups/${shared.id}/share/${invited.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Group Link Not Found' });
  });

  it('answers 400 for a bad level and 404 for an unknown group', async () => {
    const level = await api('POST', `/groups/${shared.id}/share`, {
      token: owner.token,
      json: { group_id: invited.id, group_access: 35 },
    });
    expect(level.status).toBe(400);
    expect(level.body).toEqual({ error: 'group_access does not have a valid value' });
    const missing = await api('POST', `/groups/${shared.id}/share`, {
      token: owner.token,
      json: { group_id: 99_999_999, group_access: 30 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Group Not Found' });
  });
});

/** Everyone reaching the shared group's tree once the invited group is shared at reporter level. */
const everyoneLevels = () => ({
  [owner.username]: 50,
  [sharedDeveloper.username]: 30,
  [sharedGuest.username]: 10,
  [sharedMaintainer.username]: 40,
  [invitedMaintainer.username]: 20,
  [invitedGuestParent.username]: 10,
  // The invited groups' creator owns them: capped at the share's reporter level.
  root: 20,
});
const levelsOf = (body: unknown) =>
  Object.fromEntries((body as MemberBody[]).map((member) => [member.username, member.access_level]));

describe('members/all and project groups', () => {
  beforeAll(async () => {
    await must(
      api('POST', `/groups/${shared.id}/share`, {
        token: owner.token,
        json: { group_id: invited.id, group_access: 20 },
      }),
      201,
      'share',
    );
  });

  it('lists direct, inherited and shared members once at their effective level', async () => {
    const all = await api<MemberBody[]>('GET', `/projects/${project.id}/members/all?per_page=100`, {
      token: sharedDeveloper.token,
    });
    expect(all.status).toBe(200);
    const levels = levelsOf(all.body);
    expect(levels).toEqual(everyoneLevels());
    expect(all.headers.get('x-total')).toBe('7');
    const one = await api<MemberBody>('GET', `/groups/${subgroup.id}/members/all/${invitedMaintainer.id}`, {
      token: sharedDeveloper.token,
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: invitedMaintainer.id, access_level: 20 });
    const none = await api('GET', `/groups/${subgroup.id}/members/all/${outsider.id}`, {
      token: sharedDeveloper.token,
    });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: '404 Not found' });
    const paged = await api<MemberBody[]>('GET', `/groups/${subgroup.id}/members/all?per_page=1&page=2`, {
      token: sharedDeveloper.token,
    });
    expect(paged.status).toBe(200);
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-total')).toBe('7');
  });

  it("GET /projects lists the shared group's projects for the invited group's members, at the share's level", async () => {
    type Listed = ProjectBody[];
    const reached = (body: Listed) => body.find((listed) => listed.id === project.id);
    const membership = await api<Listed>('GET', '/projects?membership=true&per_page=100', {
      token: invitedMaintainer.token,
    });
    expect(membership.status).toBe(200);
    expect(reached(membership.body)?.permissions.group_access).toEqual({
      access_level: 20,
      notification_level: 3,
    });
    // Inherited in the invited group (a guest of its parent): capped lower still.
    const guest = await api<Listed>('GET', '/projects?membership=true&per_page=100', {
      token: invitedGuestParent.token,
    });
    expect(reached(guest.body)?.permissions.group_access).toEqual({
      access_level: 10,
      notification_level: 3,
    });
    const all = await api<Listed>('GET', '/projects?per_page=100', { token: invitedMaintainer.token });
    expect(all.status).toBe(200);
    expect(reached(all.body)?.permissions.group_access).toEqual({ access_level: 20, notification_level: 3 });
    const developerOnly = await api<Listed>('GET', '/projects?min_access_level=30&per_page=100', {
      token: invitedMaintainer.token,
    });
    expect(developerOnly.status).toBe(200);
    expect(reached(developerOnly.body)).toBeUndefined();
    const stranger = await api<Listed>('GET', '/projects?per_page=100', { token: outsider.token });
    expect(stranger.status).toBe(200);
    expect(reached(stranger.body)).toBeUndefined();
  });

  it("lists a project's groups, shared ones when asked", async () => {
    const groups = await api<{ id: number }[]>('GET', `/projects/${project.id}/groups`, {
      token: owner.token,
    });
    expect(groups.status).toBe(200);
    expect(groups.body.map((group) => group.id)).toEqual([subgroup.id, shared.id]);
    expect(Object.keys(groups.body[0] ?? {}).sort()).toEqual(
      ['avatar_url', 'full_name', 'full_path', 'id', 'name', 'web_url'].sort(),
    );
    const skipped = await api<{ id: number }[]>(
      'GET',
      `/projects/${project.id}/groups?skip_groups[]=${subgroup.id}`,
      { token: owner.token },
    );
    expect(skipped.body.map((group) => group.id)).toEqual([shared.id]);
  });
});

describe('authorization matrix', () => {
  const roles = ['anonymous', 'non-member', 'guest', 'developer', 'maintainer', 'owner', 'admin'] as const;
  type Role = (typeof roles)[number];
  const tokenOf = (role: Role) =>
    ({
      anonymous: null,
      'non-member': outsider.token,
      guest: sharedGuest.token,
      developer: sharedDeveloper.token,
      maintainer: sharedMaintainer.token,
      owner: owner.token,
      admin: rootToken(),
    })[role];
  // Sharing manages the group's members: owners alone (GitLab's admin_group_member), others are
  // refused by the service with its bare `Not Found`.
  const shareStatus = {
    anonymous: 401,
    'non-member': 404,
    guest: 404,
    developer: 404,
    maintainer: 404,
    owner: 201,
    admin: 201,
  };
  const shareBody = {
    anonymous: { message: '401 Unauthorized' },
    'non-member': { message: '404 Group Not Found' },
    guest: { message: 'Not Found' },
    developer: { message: 'Not Found' },
    maintainer: { message: 'Not Found' },
  };
  for (const role of roles) {
    it(`POST and DELETE /groups/:id/share as ${role}`, async () => {
      const target = await createGroup(rootToken(), undefined, 'public');
      const response = await api<GroupBody>('POST', `/groups/${shared.id}/share`, {
        token: tokenOf(role),
        json: { group_id: target.id, group_access: 10 },
      });
      expect(response.status).toBe(shareStatus[role]);
      if (role in shareBody) expect(response.body).toEqual(shareBody[role as keyof typeof shareBody]);
      else
        expect(response.body.shared_with_groups).toContainEqual(
          expect.objectContaining({ group_id: target.id }),
        );
      if (response.status !== 201) {
        await must(
          api('POST', `/groups/${shared.id}/share`, { json: { group_id: target.id, group_access: 10 } }),
          201,
          'share as admin',
        );
      }
      const removed = await api('DELETE', `/groups/${shared.id}/share/${target.id}`, {
        token: tokenOf(role),
      });
      // GitLab's destroy service answers a member who may not end the link as if it were done.
      const removeStatus = {
        anonymous: 401,
        'non-member': 404,
        guest: 204,
        developer: 204,
        maintainer: 204,
        owner: 204,
        admin: 204,
      }[role];
      expect(removed.status).toBe(removeStatus);
      if (removeStatus === 401) expect(removed.body).toEqual({ message: '401 Unauthorized' });
      if (removeStatus === 404) expect(removed.body).toEqual({ message: '404 Group Not Found' });
      const detail = await api<GroupBody>('GET', `/groups/${shared.id}`);
      const stays = role !== 'owner' && role !== 'admin';
      expect(
        detail.body.shared_with_groups.some(
          (share) => (share as { group_id: number }).group_id === target.id,
        ),
      ).toBe(stays);
    });
    it(`GET members/all and project groups as ${role}`, async () => {
      const token = tokenOf(role);
      const expected = {
        anonymous: 401,
        'non-member': 404,
        guest: 200,
        developer: 200,
        maintainer: 200,
        owner: 200,
        admin: 200,
      }[role];
      const groupAll = await api('GET', `/groups/${shared.id}/members/all`, { token });
      expect(groupAll.status).toBe(expected);
      const projectAll = await api('GET', `/projects/${project.id}/members/all`, { token });
      expect(projectAll.status).toBe(expected);
      const groups = await api<{ id: number }[]>('GET', `/projects/${project.id}/groups`, { token });
      expect(groups.status).toBe(role === 'anonymous' ? 404 : expected);
      if (expected === 200) {
        expect(levelsOf(groupAll.body)).toEqual(everyoneLevels());
        expect(levelsOf(projectAll.body)).toEqual(everyoneLevels());
        expect(groups.body.map((group) => group.id)).toEqual([subgroup.id, shared.id]);
      } else {
        const refusal =
          expected === 401
            ? { message: '401 Unauthorized' }
            : { group: { message: '404 Group Not Found' }, project: { message: '404 Project Not Found' } };
        expect(groupAll.body).toEqual('group' in refusal ? refusal.group : refusal);
        expect(projectAll.body).toEqual('project' in refusal ? refusal.project : refusal);
        expect(groups.body).toEqual({ message: '404 Project Not Found' });
      }
    });
  }
});

describe('transfers of the invited and of the shared group', () => {
  it('the access follows the invited group’s new ancestors; the shared group’s projects stay listed', async () => {
    const [fromMember, toMember] = await Promise.all([createUser(), createUser()]);
    const from = await createGroup(rootToken(), undefined, 'public');
    const to = await createGroup(rootToken(), undefined, 'public');
    const child = await createGroup(rootToken(), from.id, 'public');
    await addMember('groups', from.id, fromMember.id, 30);
    await addMember('groups', to.id, toMember.id, 30);
    const target = await createGroup(owner.token);
    const targetProject = await must(
      api<{ id: number }>('POST', '/projects', {
        token: owner.token,
        json: { name: unique('p'), namespace_id: target.id, visibility: 'private' },
      }),
      201,
      'project create',
    );
    await must(
      api('POST', `/groups/${target.id}/share`, {
        token: owner.token,
        json: { group_id: child.id, group_access: 20 },
      }),
      201,
      'share',
    );
    const levelOf = async (user: TestUser) => {
      const seen = await api<ProjectBody>('GET', `/projects/${targetProject.id}`, { token: user.token });
      return seen.status === 200 ? seen.body.permissions.group_access : seen.body;
    };
    expect(await levelOf(fromMember)).toEqual({ access_level: 20, notification_level: 3 });
    expect(await levelOf(toMember)).toEqual({ message: '404 Project Not Found' });

    await must(api('POST', `/groups/${child.id}/transfer`, { json: { group_id: to.id } }), 201, 'transfer');

    expect(await levelOf(fromMember)).toEqual({ message: '404 Project Not Found' });
    expect(await levelOf(toMember)).toEqual({ access_level: 20, notification_level: 3 });
    // The shared group moves too: its projects stay listed for the invited group's members.
    const newParent = await createGroup(rootToken());
    await must(
      api('POST', `/groups/${target.id}/transfer`, { json: { group_id: newParent.id } }),
      201,
      'transfer',
    );
    const listed = await api<ProjectBody[]>('GET', '/projects?membership=true&per_page=100', {
      token: toMember.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.find((item) => item.id === targetProject.id)?.permissions.group_access).toEqual({
      access_level: 20,
      notification_level: 3,
    });
    const detail = await api<GroupBody>('GET', `/groups/${target.id}`, { token: owner.token });
    expect(detail.status).toBe(200);
    expect(detail.body.shared_with_groups).toEqual([
      {
        group_id: child.id,
        group_name: child.name,
        group_full_path: `${to.full_path}/${child.full_path.split('/').at(-1)}`,
        group_access_level: 20,
        expires_at: null,
      },
    ]);
  });
});
