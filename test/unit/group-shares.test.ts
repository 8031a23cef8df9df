import { describe, expect, it } from 'vitest';
import { levelThroughShares } from '#domain/group-shares.ts';
import { effectiveMembers, type Membership } from '#domain/members.ts';

const now = new Date('2030-06-15T12:00:00Z');
const share = (group_id: number, level: number, group_ids: number[], expires_at: string | null = null) => ({
  group_id,
  group_name: `g${group_id}`,
  group_full_path: `g${group_id}`,
  group_access_level: level,
  expires_at,
  group_ids,
});
const member = (user_id: number, access_level: number, expires_at: string | null = null): Membership => ({
  user_id,
  access_level,
  expires_at,
  created_at: '2030-01-01T00:00:00.000Z',
  created_by_id: 1,
});

describe('levelThroughShares', () => {
  it('caps the highest level in the invited group or its ancestors by the share', () => {
    const levels = new Map([
      [7, 50],
      [8, 10],
    ]);
    expect(levelThroughShares([share(8, 30, [7, 8])], levels, now)).toBe(30);
    expect(levelThroughShares([share(8, 30, [8])], levels, now)).toBe(10);
    expect(levelThroughShares([share(8, 30, [8]), share(7, 40, [7])], levels, now)).toBe(40);
  });
  it('ignores expired shares and groups the user is not in', () => {
    expect(levelThroughShares([share(7, 40, [7], '2030-06-15')], new Map([[7, 50]]), now)).toBe(0);
    expect(levelThroughShares([share(7, 40, [7], '2030-06-16')], new Map([[7, 50]]), now)).toBe(40);
    expect(levelThroughShares([share(9, 40, [9])], new Map([[7, 50]]), now)).toBe(0);
  });
});

describe('effectiveMembers', () => {
  it('shows each user once at the highest capped level, direct first among equals, by user id', () => {
    const direct = member(3, 20);
    const result = effectiveMembers(
      [
        { members: [direct, member(1, 10)] },
        { members: [member(3, 20), member(2, 30)] },
        { members: [member(1, 50), member(4, 50, '2030-06-01')], cap: 30 },
      ],
      now,
    );
    expect(result).toEqual([member(1, 30), member(2, 30), direct]);
  });
});
