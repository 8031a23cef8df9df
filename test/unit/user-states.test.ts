import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import { allOrNoneOf } from '#domain/params.ts';
import {
  apiAccessDenial,
  isBlockedState,
  type StateAction,
  stateOutcome,
  type UserState,
} from '#domain/user-states.ts';
import {
  afterStateAction,
  newUserFrom,
  type User,
  updatedUser,
  userPublic,
  userWithAdmin,
  withCustomAttribute,
  withIdentity,
  withoutIdentity,
} from '#domain/users.ts';

const NOW = '2026-11-22T10:00:00.000Z';
const BASE = 'https://gitlab.example.com';

function outcomeOf(action: StateAction, state: UserState, self = false) {
  try {
    return stateOutcome(action, state, self);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, body: error.body };
  }
}

const forbidden = (reason: string) => ({ status: 403, body: { message: `403 Forbidden  - ${reason}` } });
const refused = (message: string) => ({ status: 403, body: { message } });

describe('state actions (GitLab users API rules)', () => {
  const table: [StateAction, UserState, unknown][] = [
    ['block', 'active', { next: 'blocked', answer: true }],
    ['block', 'deactivated', { next: 'blocked', answer: true }],
    ['block', 'blocked', { answer: null }],
    ['block', 'banned', { answer: null }],
    ['block', 'ldap_blocked', forbidden('LDAP blocked users cannot be modified by the API')],
    ['unblock', 'blocked', { next: 'active', answer: true }],
    ['unblock', 'banned', { next: 'active', answer: true }],
    ['unblock', 'active', { answer: false }],
    ['unblock', 'deactivated', forbidden('Deactivated users cannot be unblocked by the API')],
    ['unblock', 'ldap_blocked', forbidden('LDAP blocked users cannot be unblocked by the API')],
    ['ban', 'active', { next: 'banned', answer: true }],
    ['ban', 'blocked', refused('You cannot ban blocked users.')],
    ['ban', 'banned', refused('You cannot ban banned users.')],
    ['ban', 'deactivated', refused('You cannot ban deactivated users.')],
    ['ban', 'ldap_blocked', refused('You cannot ban ldap_blocked users.')],
    ['unban', 'banned', { next: 'active', answer: true }],
    ['unban', 'active', refused('You cannot unban active users.')],
    ['unban', 'blocked', refused('You cannot unban blocked users.')],
    ['unban', 'deactivated', refused('You cannot unban deactivated users.')],
    ['deactivate', 'active', { next: 'deactivated', answer: true }],
    ['deactivate', 'deactivated', { answer: null }],
    ['deactivate', 'blocked', forbidden('A blocked user cannot be deactivated by the API')],
    ['deactivate', 'banned', forbidden('A blocked user cannot be deactivated by the API')],
    ['deactivate', 'ldap_blocked', forbidden('A blocked user cannot be deactivated by the API')],
    ['activate', 'deactivated', { next: 'active', answer: true }],
    ['activate', 'active', { answer: false }],
    ['activate', 'blocked', forbidden('A blocked user must be unblocked to be activated')],
    ['activate', 'banned', forbidden('A blocked user must be unblocked to be activated')],
    ['activate', 'ldap_blocked', forbidden('A blocked user must be unblocked to be activated')],
  ];
  it.each(table)('%s of a user who is %s', (action, state, expected) => {
    expect(outcomeOf(action, state)).toEqual(expected);
  });

  it('an admin cannot block themself; the other actions do not care who acts', () => {
    expect(outcomeOf('block', 'active', true)).toEqual(
      forbidden('The API initiating user cannot be blocked by the API'),
    );
    expect(outcomeOf('ban', 'active', true)).toEqual({ next: 'banned', answer: true });
    expect(outcomeOf('deactivate', 'active', true)).toEqual({ next: 'deactivated', answer: true });
  });

  it('blocked, banned and directory-blocked users count as blocked; active and deactivated do not', () => {
    expect(
      ['active', 'blocked', 'ldap_blocked', 'banned', 'deactivated'].map((s) =>
        isBlockedState(s as UserState),
      ),
    ).toEqual([false, true, true, true, false]);
  });

  it('tokens of blocked and banned users are refused as blocked; deactivated users are told how to return', () => {
    expect(apiAccessDenial('active')).toBeUndefined();
    expect(apiAccessDenial('blocked')).toBe('User is blocked');
    expect(apiAccessDenial('banned')).toBe('User is blocked');
    expect(apiAccessDenial('ldap_blocked')).toBe('User is blocked');
    expect(apiAccessDenial('deactivated')).toBe(
      'Your account has been deactivated by your administrator. Please log back in to reactivate your account.',
    );
  });
});

const user = (overrides: Partial<User> = {}): User => ({
  ...newUserFrom({ email: 'bob@example.com', name: 'Bob', username: 'bob', password: 'password123' }, NOW),
  id: 7,
  created_at: NOW,
  updated_at: NOW,
  ...overrides,
});

describe('afterStateAction', () => {
  it('moves the state and the update time, or leaves the user as it is', () => {
    const active = user();
    expect(afterStateAction(active, 'ban', 1, 'later')).toEqual({
      next: { ...active, state: 'banned', updated_at: 'later' },
      result: true,
    });
    expect(afterStateAction(user({ state: 'blocked' }), 'block', 1, 'later')).toEqual({
      next: undefined,
      result: null,
    });
    expect(() => afterStateAction(active, 'block', 7, 'later')).toThrow(ApiError);
  });
});

describe('identities', () => {
  it('a new user takes the identity it names; without a provider it has none', () => {
    const fields = { email: 'a@example.com', name: 'A', username: 'a', password: 'password123' };
    expect(newUserFrom({ ...fields, provider: 'github', extern_uid: 'A-1' }, NOW).identities).toEqual([
      { provider: 'github', extern_uid: 'A-1' },
    ]);
    expect('identities' in newUserFrom(fields, NOW)).toBe(false);
  });

  it('a blank provider is a model error', () => {
    let caught: unknown;
    try {
      newUserFrom({ email: 'a@example.com', name: 'A', username: 'a', provider: ' ', extern_uid: 'x' }, NOW);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).body).toEqual({ message: { 'identities.provider': ["can't be blank"] } });
  });

  it('an update replaces the identity of the same provider and keeps the others', () => {
    const withTwo = user({
      identities: [
        { provider: 'github', extern_uid: 'old' },
        { provider: 'ldapmain', extern_uid: 'uid=bob' },
      ],
    });
    expect(updatedUser(withTwo, { provider: 'github', extern_uid: 'new' }, 'later').identities).toEqual([
      { provider: 'ldapmain', extern_uid: 'uid=bob' },
      { provider: 'github', extern_uid: 'new' },
    ]);
    expect(withIdentity(user(), { provider: 'saml', extern_uid: 's' })).toEqual([
      { provider: 'saml', extern_uid: 's' },
    ]);
  });

  it('removing a provider the user has not → 404 Identity Not Found', () => {
    const withOne = user({ identities: [{ provider: 'github', extern_uid: 'g' }] });
    expect(withoutIdentity(withOne, 'github', 'later')).toEqual({
      ...withOne,
      identities: [],
      updated_at: 'later',
    });
    let caught: unknown;
    try {
      withoutIdentity(withOne, 'gitlab', 'later');
    } catch (error) {
      caught = error;
    }
    expect((caught as ApiError).status).toBe(404);
    expect((caught as ApiError).body).toEqual({ message: '404 Identity Not Found' });
  });

  it('the user entity shows each identity with saml_provider_id null, to admins and to the user', () => {
    const withOne = user({ identities: [{ provider: 'github', extern_uid: 'g' }] });
    const expected = [{ provider: 'github', extern_uid: 'g', saml_provider_id: null }];
    expect(userWithAdmin(withOne, BASE).identities).toEqual(expected);
    expect(userPublic(withOne, BASE).identities).toEqual(expected);
    expect(userPublic(user(), BASE).identities).toEqual([]);
  });

  it("Grape's all_or_none_of for extern_uid and provider", () => {
    const names = ['extern_uid', 'provider'];
    expect(allOrNoneOf({}, names)).toBeUndefined();
    expect(allOrNoneOf({ extern_uid: 'x', provider: 'p' }, names)).toBeUndefined();
    expect(allOrNoneOf({ provider: 'p' }, names)).toBe(
      'extern_uid, provider provide all or none of parameters',
    );
    expect(allOrNoneOf({ extern_uid: 'x' }, names)).toBe(
      'extern_uid, provider provide all or none of parameters',
    );
  });
});

describe('custom attributes', () => {
  it('sets, replaces and removes one key, moving updated_at', () => {
    const first = withCustomAttribute(user(), 'color', 'red', 'later');
    expect(first.custom_attributes).toEqual({ color: 'red' });
    expect(first.updated_at).toBe('later');
    const second = withCustomAttribute(
      { ...first, custom_attributes: { color: 'red', size: 'L' } },
      'color',
      'blue',
      'x',
    );
    expect(second.custom_attributes).toEqual({ size: 'L', color: 'blue' });
    expect(withCustomAttribute(second, 'size', undefined, 'y').custom_attributes).toEqual({ color: 'blue' });
  });
});
