/** Award emoji rules: which names are emoji, GitLab's aliases, votes, who removes an award, the entity. */
import { describe, expect, it } from 'vitest';
import {
  type AwardEmoji,
  awardEmojiEntity,
  awardNameErrors,
  awardTaken,
  awardUserIds,
  checkedAwardName,
  checkMayRemoveAward,
  isEmojiName,
  normalizedEmojiName,
  voteOf,
} from '#domain/award-emoji.ts';
import { ApiError } from '#domain/errors.ts';
import type { Caller, User } from '#domain/users.ts';

const BASE = 'https://gitlab.example.com';

function thrown(run: () => unknown): { status: number; body: unknown } {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  return { status: error.status, body: error.body };
}

const award: AwardEmoji = {
  id: 11,
  name: 'thumbsup',
  user_id: 7,
  awardable_id: 310,
  awardable_type: 'Issue',
  created_at: '2026-01-15T08:00:00.000Z',
  updated_at: '2026-01-15T08:00:00.000Z',
};

const caller = (id: number, admin = false): Caller => ({
  id,
  username: `u${id}`,
  admin,
  state: 'active',
  can_create_group: true,
  external: false,
});

describe('names', () => {
  it('knows the emoji by every name, and nothing else', () => {
    for (const name of ['thumbsup', '+1', 'thumbsdown', '-1', 'tada', 'heart', 'eyes', 'smile']) {
      expect(isEmojiName(name), name).toBe(true);
    }
    for (const name of ['', 'no_such_emoji', ':tada:', 'Tada', 'tada ', 'x'.repeat(300)]) {
      expect(isEmojiName(name), name).toBe(false);
    }
  });

  it('stores the votes’ short forms under GitLab’s names, any other name as given', () => {
    expect(normalizedEmojiName('+1')).toBe('thumbsup');
    expect(normalizedEmojiName('-1')).toBe('thumbsdown');
    expect(normalizedEmojiName('tada')).toBe('tada');
    expect(checkedAwardName('+1')).toBe('thumbsup');
    expect(checkedAwardName('heart')).toBe('heart');
  });

  it('refuses what is no emoji with the model’s errors inside a 404', () => {
    expect(awardNameErrors('tada')).toEqual([]);
    expect(awardNameErrors('nope')).toEqual(['is not included in the list']);
    expect(awardNameErrors(' ')).toEqual(["can't be blank", 'is not included in the list']);
    expect(thrown(() => checkedAwardName('nope'))).toEqual({
      status: 404,
      body: { message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found' },
    });
    expect(thrown(() => checkedAwardName(''))).toEqual({
      status: 404,
      body: {
        message: '404 Award Emoji {:name=>["can\'t be blank", "is not included in the list"]} Not Found',
      },
    });
    expect({ status: awardTaken().status, body: awardTaken().body }).toEqual({
      status: 404,
      body: { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' },
    });
  });
});

describe('votes', () => {
  it('counts thumbsup and thumbsdown on issues, merge requests and snippets, never on notes', () => {
    expect(voteOf(award)).toBe('upvotes');
    expect(voteOf({ name: 'thumbsdown', awardable_type: 'MergeRequest' })).toBe('downvotes');
    expect(voteOf({ name: 'tada', awardable_type: 'Issue' })).toBeUndefined();
    expect(voteOf({ name: 'thumbsup', awardable_type: 'Note' })).toBeUndefined();
  });
});

describe('removal', () => {
  it('is the owner’s and admins’; anyone else is told 401', () => {
    expect(() => checkMayRemoveAward(caller(7), award)).not.toThrow();
    expect(() => checkMayRemoveAward(caller(1, true), award)).not.toThrow();
    expect(thrown(() => checkMayRemoveAward(caller(8), award))).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});

describe('entity', () => {
  const bob = {
    id: 7,
    username: 'bob',
    name: 'Bob Builder',
    state: 'active',
    avatar_url: null,
  } as unknown as User;

  it('shows the award with its user as UserBasic, or the ghost when they are gone', () => {
    const shown = awardEmojiEntity(award, new Map([[7, bob]]), BASE);
    expect(Object.keys(shown)).toEqual([
      'id',
      'name',
      'user',
      'created_at',
      'updated_at',
      'awardable_id',
      'awardable_type',
    ]);
    expect(shown).toMatchObject({
      id: 11,
      name: 'thumbsup',
      created_at: award.created_at,
      updated_at: award.updated_at,
      awardable_id: 310,
      awardable_type: 'Issue',
      user: { id: 7, username: 'bob', name: 'Bob Builder', state: 'active', web_url: `${BASE}/bob` },
    });
    expect(awardEmojiEntity(award, new Map(), BASE).user).toMatchObject({ id: 7, username: 'ghost' });
    expect(awardUserIds([award, { ...award, id: 12 }, { ...award, id: 13, user_id: 9 }])).toEqual([7, 9]);
  });
});
