/** GET /users/:id/memberships over HTTP: both kinds merged in creation order, the type filter, pages, admins only. */
import { describe, expect, it } from 'vitest';
import { api, createUser, unique } from '../support/api.ts';

interface MembershipBody {
  source_id: number;
  source_name: string;
  source_type: string;
  access_level: number;
}

async function created<T>(response: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const answer = await response;
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${answer.text}`);
  return answer.body;
}

describe('user memberships', () => {
  it('lists group (Namespace) and project memberships as made, filters by type, pages with totals', async () => {
    const user = await createUser();
    const groupPath = unique('memg');
    const group = await created(
      api<{ id: number; name: string }>('POST', '/groups', {
        json: { name: `Team ${groupPath}`, path: groupPath },
      }),
    );
    await created(
      api('POST', `/groups/${group.id}/members`, { json: { user_id: user.id, access_level: 30 } }),
    );
    const project = await created(
      api<{ id: number; name: string }>('POST', '/projects', { json: { name: unique('memp') } }),
    );
    await created(
      api('POST', `/projects/${project.id}/members`, { json: { user_id: user.id, access_level: 40 } }),
    );
    const ownGroupPath = unique('own');
    const ownGroup = await created(
      api<{ id: number; name: string }>('POST', '/groups', {
        token: user.token,
        json: { name: ownGroupPath, path: ownGroupPath },
      }),
    );

    const all = await api<MembershipBody[]>('GET', `/users/${user.id}/memberships`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { source_id: group.id, source_name: group.name, source_type: 'Namespace', access_level: 30 },
      { source_id: project.id, source_name: project.name, source_type: 'Project', access_level: 40 },
      { source_id: ownGroup.id, source_name: ownGroup.name, source_type: 'Namespace', access_level: 50 },
    ]);
    expect(all.headers.get('x-total')).toBe('3');

    const pages = await Promise.all(
      [1, 2, 3].map((page) =>
        api<MembershipBody[]>('GET', `/users/${user.id}/memberships?per_page=1&page=${page}`),
      ),
    );
    expect(pages.map((page) => page.body.map((membership) => membership.source_id))).toEqual([
      [group.id],
      [project.id],
      [ownGroup.id],
    ]);
    expect(pages.map((page) => page.headers.get('x-total-pages'))).toEqual(['3', '3', '3']);

    const groups = await api<MembershipBody[]>('GET', `/users/${user.id}/memberships?type=Namespace`);
    expect(groups.body.map((membership) => membership.source_id)).toEqual([group.id, ownGroup.id]);
    expect(groups.headers.get('x-total')).toBe('2');
    const projects = await api<MembershipBody[]>('GET', `/users/${user.id}/memberships?type=Project`);
    expect(projects.body.map((membership) => membership.source_id)).toEqual([project.id]);
    expect(projects.headers.get('x-total')).toBe('1');

    const badType = await api('GET', `/users/${user.id}/memberships?type=Group`);
    expect([badType.status, badType.body]).toEqual([400, { error: 'type does not have a valid value' }]);
  });

  it('a user with none → 200 []; an unknown user → 404', async () => {
    const user = await createUser();
    const none = await api<MembershipBody[]>('GET', `/users/${user.id}/memberships`);
    expect([none.status, none.body, none.headers.get('x-total')]).toEqual([200, [], '0']);
    const unknown = await api('GET', '/users/999999999/memberships');
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 User Not Found' }]);
  });

  it('anonymous 401; the user themself and other users 403', async () => {
    const user = await createUser();
    const other = await createUser();
    const anonymous = await api('GET', `/users/${user.id}/memberships`, { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    for (const token of [user.token, other.token]) {
      const refused = await api('GET', `/users/${user.id}/memberships`, { token });
      expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    }
  });
});
