/**
 * User states over HTTP: ban, unban, deactivate, activate, block and unblock with GitLab's rules
 * and answers, what a token of a user in each state may do, the state lists, a race, and who may
 * call each action.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser } from '../support/api.ts';

interface UserBody {
  id: number;
  username: string;
  state: string;
}

const deactivatedMessage =
  '403 Forbidden  - Your account has been deactivated by your administrator. Please log back in to reactivate your account.';

const act = (id: number, action: string, token?: string | null) =>
  api('POST', `/users/${id}/${action}`, { token });
const stateOf = async (id: number) => (await api<UserBody>('GET', `/users/${id}`)).body.state;

describe('user states', () => {
  it('walks a user through every state with GitLab answers, and the token follows the state', async () => {
    const user = await createUser();
    const expectAnswer = async (action: string, status: number, body: unknown, state: string) => {
      const response = await act(user.id, action);
      expect({ action, status: response.status, body: response.body }).toEqual({ action, status, body });
      expect(await stateOf(user.id)).toBe(state);
    };

    await expectAnswer('unban', 403, { message: 'You cannot unban active users.' }, 'active');
    await expectAnswer('activate', 201, false, 'active');
    await expectAnswer('ban', 201, true, 'banned');
    const bannedToken = await api('GET', '/user', { token: user.token });
    expect(bannedToken.status).toBe(403);
    expect(bannedToken.body).toEqual({ message: '403 Forbidden  - User is blocked' });
    await expectAnswer('ban', 403, { message: 'You cannot ban banned users.' }, 'banned');
    await expectAnswer(
      'activate',
      403,
      { message: '403 Forbidden  - A blocked user must be unblocked to be activated' },
      'banned',
    );
    await expectAnswer(
      'deactivate',
      403,
      { message: '403 Forbidden  - A blocked user cannot be deactivated by the API' },
      'banned',
    );
    await expectAnswer('block', 201, null, 'banned');
    await expectAnswer('unban', 201, true, 'active');
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);

    await expectAnswer('deactivate', 201, true, 'deactivated');
    const deactivatedToken = await api('GET', '/user', { token: user.token });
    expect(deactivatedToken.status).toBe(403);
    expect(deactivatedToken.body).toEqual({ message: deactivatedMessage });
    await expectAnswer('deactivate', 201, null, 'deactivated');
    await expectAnswer(
      'unblock',
      403,
      { message: '403 Forbidden  - Deactivated users cannot be unblocked by the API' },
      'deactivated',
    );
    await expectAnswer('ban', 403, { message: 'You cannot ban deactivated users.' }, 'deactivated');
    await expectAnswer('activate', 201, true, 'active');
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);

    await expectAnswer('block', 201, true, 'blocked');
    await expectAnswer('block', 201, null, 'blocked');
    await expectAnswer('ban', 403, { message: 'You cannot ban blocked users.' }, 'blocked');
    await expectAnswer('unblock', 201, true, 'active');
    await expectAnswer('unblock', 201, false, 'active');
  });

  it('the blocked and active lists follow the state', async () => {
    const user = await createUser();
    const listed = async (filter: string) =>
      (await api<UserBody[]>('GET', `/users?${filter}=true&username=${user.username}`)).body.map((u) => u.id);
    expect(await listed('active')).toEqual([user.id]);
    await act(user.id, 'ban');
    expect(await listed('active')).toEqual([]);
    expect(await listed('blocked')).toEqual([]);
    await act(user.id, 'unban');
    await act(user.id, 'block');
    expect(await listed('blocked')).toEqual([user.id]);
    const blockedPage = await api<UserBody[]>('GET', '/users?blocked=true&per_page=100');
    expect(blockedPage.body.filter((u) => u.id === user.id)).toHaveLength(1);
  });

  it('an admin cannot block themself', async () => {
    const admin = await createUser({ admin: true });
    const response = await act(admin.id, 'block', admin.token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      message: '403 Forbidden  - The API initiating user cannot be blocked by the API',
    });
    expect(await stateOf(admin.id)).toBe('active');
  });

  it('ten parallel bans: one true, nine refused on the state the winner left', async () => {
    const user = await createUser();
    const responses = await Promise.all(Array.from({ length: 10 }, () => act(user.id, 'ban')));
    const answers = responses.map((response) => `${response.status} ${JSON.stringify(response.body)}`).sort();
    expect(answers).toEqual(['201 true', ...Array(9).fill('403 {"message":"You cannot ban banned users."}')]);
    expect(await stateOf(user.id)).toBe('banned');
  });

  /** Each action with the state that lets it succeed and the state it leaves. */
  const matrix = [
    ['ban', undefined, 'banned'],
    ['unban', 'ban', 'active'],
    ['deactivate', undefined, 'deactivated'],
    ['activate', 'deactivate', 'active'],
    ['block', undefined, 'blocked'],
    ['unblock', 'block', 'active'],
  ] as const;
  it.each(matrix)(
    'POST /users/:id/%s: anonymous 401, a user 403 (even on themself), unknown 404, admin 201 true',
    async (action, before, after) => {
      const user = await createUser();
      if (before) expect((await act(user.id, before)).status).toBe(201);
      const anonymous = await act(user.id, action, null);
      expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
      const other = await createUser();
      const byUser = await act(user.id, action, other.token);
      expect([byUser.status, byUser.body]).toEqual([403, { message: '403 Forbidden' }]);
      if (!before) {
        const self = await act(user.id, action, user.token);
        expect([self.status, self.body]).toEqual([403, { message: '403 Forbidden' }]);
      }
      const unknown = await act(999999999, action);
      expect([unknown.status, unknown.body]).toEqual([404, { message: '404 User Not Found' }]);
      const admin = await act(user.id, action);
      expect([admin.status, admin.body]).toEqual([201, true]);
      expect(await stateOf(user.id)).toBe(after);
    },
  );
});
