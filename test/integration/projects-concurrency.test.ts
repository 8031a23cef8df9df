/**
 * Projects under concurrent writes: many users starring and unstarring one project at once keep
 * an exact star_count; racing creations of one path give exactly one project; concurrent shares
 * and updates of one project lose nothing.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  star_count: number;
  shared_with_groups: { group_id: number; group_access_level: number }[];
}

/** Creates `count` users, a few at a time. */
async function users(count: number): Promise<TestUser[]> {
  const created: TestUser[] = [];
  while (created.length < count) {
    const batch = Math.min(10, count - created.length);
    created.push(...(await Promise.all(Array.from({ length: batch }, () => createUser()))));
  }
  return created;
}

describe('projects under concurrency', () => {
  it('50 users star one project at once: star_count 50; starring again 304; 50 unstars: 0', async () => {
    const fans = await users(50);
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Popular'), visibility: 'public' } }),
      201,
      'project',
    );

    const stars = await Promise.all(
      fans.map((fan) => api<ProjectBody>('POST', `/projects/${project.id}/star`, { token: fan.token })),
    );
    expect(stars.map((response) => response.status)).toEqual(Array(50).fill(201));
    // Each response shows a count that includes its own star.
    for (const response of stars) {
      expect(response.body.star_count).toBeGreaterThanOrEqual(1);
      expect(response.body.star_count).toBeLessThanOrEqual(50);
    }
    const counted = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(counted.status).toBe(200);
    expect(counted.body.star_count).toBe(50);

    const again = await Promise.all(
      fans.map((fan) => api('POST', `/projects/${project.id}/star`, { token: fan.token })),
    );
    expect(again.map((response) => response.status)).toEqual(Array(50).fill(304));
    expect(again.map((response) => response.text)).toEqual(Array(50).fill(''));
    const still = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(still.status).toBe(200);
    expect(still.body.star_count).toBe(50);

    const starredBy = await api<{ id: number }[]>('GET', '/projects?starred=true', { token: fans[7]?.token });
    expect(starredBy.status).toBe(200);
    expect(starredBy.body.map((item) => item.id)).toEqual([project.id]);

    const unstars = await Promise.all(
      fans.map((fan) => api<ProjectBody>('POST', `/projects/${project.id}/unstar`, { token: fan.token })),
    );
    expect(unstars.map((response) => response.status)).toEqual(Array(50).fill(201));
    const none = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(none.status).toBe(200);
    expect(none.body.star_count).toBe(0);

    const unstarAgain = await Promise.all(
      fans.slice(0, 10).map((fan) => api('POST', `/projects/${project.id}/unstar`, { token: fan.token })),
    );
    expect(unstarAgain.map((response) => response.status)).toEqual(Array(10).fill(304));
    const stillNone = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(stillNone.status).toBe(200);
    expect(stillNone.body.star_count).toBe(0);
  });

  it('one user starring the same project 20 times at once: one 201, nineteen 304, star_count 1', async () => {
    const [fan] = await users(1);
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Once'), visibility: 'public' } }),
      201,
      'project',
    );
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', `/projects/${project.id}/star`, { token: fan?.token })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(19).fill(304)]);
    const counted = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(counted.status).toBe(200);
    expect(counted.body.star_count).toBe(1);
  });

  it('20 creations of one path in one namespace at once: one 201, nineteen 400 path taken, one project', async () => {
    const [owner] = await users(1);
    const path = unique('race');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api<ProjectBody>('POST', '/projects', { token: owner?.token, json: { name: `Racer ${i}`, path } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(19).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
    }
    const winner = responses.find((response) => response.status === 201)?.body as ProjectBody;
    expect(winner.path_with_namespace).toBe(`${owner?.username}/${path}`);

    const listed = await api<ProjectBody[]>('GET', `/projects?search=${path}`, { token: owner?.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((project) => project.id)).toEqual([winner.id]);
    expect(listed.headers.get('x-total')).toBe('1');
    const owned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: owner?.token });
    expect(owned.status).toBe(200);
    expect(owned.body.map((project) => project.id)).toEqual([winner.id]);
    const byPath = await api<ProjectBody>(
      'GET',
      `/projects/${encodeURIComponent(winner.path_with_namespace)}`,
      {
        token: owner?.token,
      },
    );
    expect(byPath.status).toBe(200);
    expect(byPath.body).toMatchObject({ id: winner.id, name: winner.name });
  });

  it('20 creations of one name with different paths at once: one 201, nineteen 400 name taken', async () => {
    const [owner] = await users(1);
    const name = unique('Same Name');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api<ProjectBody>('POST', '/projects', { token: owner?.token, json: { name, path: `p-${i}` } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(19).fill(400)]);
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body).toEqual({ message: { name: ['has already been taken'] } });
    }
    const owned = await api<ProjectBody[]>('GET', '/projects?owned=true', { token: owner?.token });
    expect(owned.status).toBe(200);
    expect(owned.body).toHaveLength(1);
  });

  it('shares with 8 groups at once are all kept in shared_with_groups', async () => {
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Sharing') } }),
      201,
      'project',
    );
    const groups = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const path = unique('sg');
        return must(api<{ id: number }>('POST', '/groups', { json: { name: path, path } }), 201, 'group');
      }),
    );
    const responses = await Promise.all(
      groups.map((group) =>
        api('POST', `/projects/${project.id}/share`, { json: { group_id: group.id, group_access: 20 } }),
      ),
    );
    expect(
      responses.map((response) => response.status),
      responses.map((response) => response.text).join('\n'),
    ).toEqual(Array(8).fill(201));
    const shown = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.shared_with_groups.map((share) => share.group_id).sort((a, b) => a - b)).toEqual(
      groups.map((group) => group.id).sort((a, b) => a - b),
    );

    const unshares = await Promise.all(
      groups.map((group) => api('DELETE', `/projects/${project.id}/share/${group.id}`)),
    );
    expect(unshares.map((response) => response.status)).toEqual(Array(8).fill(204));
    const after = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(after.status).toBe(200);
    expect(after.body.shared_with_groups).toEqual([]);
  });

  it('the same share sent 10 times at once: one 201, nine 409', async () => {
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Dup Share') } }),
      201,
      'project',
    );
    const path = unique('dsg');
    const group = await must(
      api<{ id: number }>('POST', '/groups', { json: { name: path, path } }),
      201,
      'group',
    );
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `/projects/${project.id}/share`, { json: { group_id: group.id, group_access: 30 } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body).toEqual({ message: 'Group already shared with this group' });
    }
    const shown = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.shared_with_groups).toHaveLength(1);
  });

  it('stars during updates: star_count is not overwritten by a concurrent PUT', async () => {
    const fans = await users(10);
    const project = await must(
      api<ProjectBody>('POST', '/projects', { json: { name: unique('Busy'), visibility: 'public' } }),
      201,
      'project',
    );
    const responses = await Promise.all([
      ...fans.map((fan) => api('POST', `/projects/${project.id}/star`, { token: fan.token })),
      ...Array.from({ length: 10 }, (_, i) =>
        api('PUT', `/projects/${project.id}`, { json: { description: `edit ${i}` } }),
      ),
    ]);
    expect(responses.slice(0, 10).map((response) => response.status)).toEqual(Array(10).fill(201));
    const updates = responses.slice(10).map((response) => response.status);
    // Every update either lands or reports the lost race as GitLab's resource-lock conflict.
    for (const [i, status] of updates.entries()) {
      expect([200, 409], `update ${i}: ${responses[10 + i]?.text}`).toContain(status);
    }
    const counted = await api<ProjectBody>('GET', `/projects/${project.id}`);
    expect(counted.status).toBe(200);
    expect(counted.body.star_count).toBe(10);
  });
});
