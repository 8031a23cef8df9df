import { describe, expect, it } from 'vitest';
import { desiredLevels, planLdapSync, type SyncedMembership } from '../../shared/domain/ldap-sync.ts';

const member = (user_id: number, access_level: number, ldap?: boolean): SyncedMembership => ({
  user_id,
  access_level,
  expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  created_by_id: null,
  ...(ldap ? { ldap } : {}),
});

describe('desiredLevels', () => {
  it('takes the highest level over the links that include a user', () => {
    expect(
      desiredLevels([
        { level: 30, userIds: [1, 2] },
        { level: 40, userIds: [2, 3] },
        { level: 10, userIds: [3] },
      ]),
    ).toEqual(
      new Map([
        [1, 30],
        [2, 40],
        [3, 40],
      ]),
    );
  });
});

describe('planLdapSync', () => {
  it('adds, moves and removes synced members and leaves members added by hand alone', () => {
    const members = [
      member(1, 50),
      member(2, 30, true),
      member(3, 20, true),
      member(4, 10),
      member(5, 30, true),
    ];
    const plan = planLdapSync(
      members,
      new Map([
        [2, 40],
        [4, 40],
        [5, 30],
        [6, 20],
      ]),
    );
    expect(plan).toEqual({
      changes: [
        { kind: 'add', userId: 6, level: 20 },
        { kind: 'change', member: members[1], level: 40 },
        { kind: 'remove', member: members[2] },
      ],
      keptOwners: [],
    });
  });

  it('keeps the last owner when the directory no longer has them, and says so', () => {
    const members = [member(7, 50, true), member(8, 30)];
    expect(planLdapSync(members, new Map([[7, 30]]))).toEqual({ changes: [], keptOwners: [7] });
    expect(planLdapSync(members, new Map())).toEqual({ changes: [], keptOwners: [7] });
  });

  it('demotes a synced owner while another owner stays; nothing to do when all is as wanted', () => {
    const members = [member(1, 50), member(7, 50, true)];
    expect(planLdapSync(members, new Map([[7, 40]]))).toEqual({
      changes: [{ kind: 'change', member: members[1], level: 40 }],
      keptOwners: [],
    });
    expect(planLdapSync(members, new Map([[7, 50]]))).toEqual({ changes: [], keptOwners: [] });
  });
});
