/**
 * GET /projects with id_after, id_before, last_activity_after and last_activity_before: bounds are
 * exclusive, they combine with the order and each other, and X-Total counts the bounded set.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface ProjectBody {
  id: number;
  last_activity_at: string;
}

let user: TestUser;
let outsider: TestUser;
let projects: ProjectBody[];

const ids = (response: ApiResponse<ProjectBody[]>) => response.body.map((project) => project.id);

beforeAll(async () => {
  [user, outsider] = await Promise.all([createUser(), createUser()]);
  projects = [];
  for (let index = 0; index < 4; index++) {
    projects.push(
      await must(
        api<ProjectBody>('POST', '/projects', { token: user.token, json: { name: unique('flt') } }),
        201,
        'project',
      ),
    );
  }
});

describe('GET /projects bounds', () => {
  it('id_after and id_before bound the ids (exclusive), in id order with the total of the bounded set', async () => {
    const [a, b, c, d] = projects.map((project) => project.id) as [number, number, number, number];
    const response = await api<ProjectBody[]>(
      'GET',
      `/projects?owned=true&order_by=id&sort=asc&id_after=${a}&id_before=${d}`,
      { token: user.token },
    );
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([b, c]);
    expect(response.headers.get('x-total')).toBe('2');
    // The admin's list (every project, read as a key range) gives the same.
    const admin = await api<ProjectBody[]>(
      'GET',
      `/projects?order_by=id&sort=desc&id_after=${a}&id_before=${d}`,
    );
    expect(ids(admin)).toEqual([c, b]);
    expect(admin.headers.get('x-total')).toBe('2');
    const page = await api<ProjectBody[]>(
      'GET',
      `/projects?order_by=id&id_after=${a}&id_before=${d}&per_page=1&page=2`,
    );
    expect(ids(page)).toEqual([b]);
    expect(page.headers.get('x-total')).toBe('2');
    // Bounds nothing can satisfy.
    const none = await api<ProjectBody[]>('GET', `/projects?order_by=id&id_after=${c}&id_before=${c}`);
    expect(none).toMatchObject({ status: 200, body: [] });
    expect(none.headers.get('x-total')).toBe('0');
    // In another order the bounds still hold.
    const byName = await api<ProjectBody[]>('GET', `/projects?owned=true&order_by=name&id_after=${b}`, {
      token: user.token,
    });
    expect(ids(byName).sort((x, y) => x - y)).toEqual([c, d]);
  });

  it('last_activity_after and last_activity_before bound the activity (exclusive)', async () => {
    const [a, b, , d] = projects as [ProjectBody, ProjectBody, ProjectBody, ProjectBody];
    const after = await api<ProjectBody[]>(
      'GET',
      `/projects?owned=true&order_by=last_activity_at&sort=asc&last_activity_after=${encodeURIComponent(a.last_activity_at)}`,
      { token: user.token },
    );
    expect(ids(after)).toEqual(projects.slice(1).map((project) => project.id));
    const admin = await api<ProjectBody[]>(
      'GET',
      `/projects?order_by=last_activity_at&sort=asc&last_activity_after=${encodeURIComponent(a.last_activity_at)}&last_activity_before=${encodeURIComponent(d.last_activity_at)}`,
    );
    expect(ids(admin).filter((id) => projects.some((project) => project.id === id))).toEqual([
      b.id,
      (projects[2] as ProjectBody).id,
    ]);
    expect(ids(admin)).not.toContain(a.id);
    expect(ids(admin)).not.toContain(d.id);
    const bad = await api('GET', '/projects?last_activity_after=yesterday', { token: user.token });
    expect(bad).toMatchObject({ status: 400, body: { error: 'last_activity_after is invalid' } });
    const badId = await api('GET', '/projects?id_after=x', { token: user.token });
    expect(badId).toMatchObject({ status: 400, body: { error: 'id_after is invalid' } });
  });

  it('bounds never show what the caller may not see (anonymous, another user)', async () => {
    const first = (projects[0] as ProjectBody).id;
    const anonymous = await api<ProjectBody[]>('GET', `/projects?order_by=id&id_after=${first - 1}`, {
      token: null,
    });
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous).some((id) => projects.some((project) => project.id === id))).toBe(false);
    const other = await api<ProjectBody[]>('GET', `/projects?order_by=id&id_after=${first - 1}`, {
      token: outsider.token,
    });
    expect(other.status).toBe(200);
    expect(ids(other).some((id) => projects.some((project) => project.id === id))).toBe(false);
  });
});
