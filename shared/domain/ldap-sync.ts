/** LDAP group sync: what membership the linked directory groups ask for, and the changes to get there. */
import { ACCESS } from './access.ts';
import type { Membership } from './members.ts';

/** GitLab EE's LDAP sync state machine: ready → pending → started → ready | failed. */
export type LdapSyncStatus = 'ready' | 'pending' | 'started' | 'failed';

/** How a group was last synced, with GitLab EE's column names (shown to those who administer it). */
export interface LdapSyncState {
  ldap_sync_status: LdapSyncStatus;
  ldap_sync_error: string | null;
  ldap_sync_last_update_at: string | null;
  ldap_sync_last_successful_update_at: string | null;
  ldap_sync_last_sync_at: string | null;
}

/** A group never synced: GitLab's column defaults. */
export const NEVER_SYNCED: LdapSyncState = {
  ldap_sync_status: 'ready',
  ldap_sync_error: null,
  ldap_sync_last_update_at: null,
  ldap_sync_last_successful_update_at: null,
  ldap_sync_last_sync_at: null,
};

/** A member as the sync sees it: `ldap` marks a membership the sync made (it may change it). */
export interface SyncedMembership extends Membership {
  ldap?: boolean;
}

export type LdapSyncChange =
  | { kind: 'add'; userId: number; level: number }
  | { kind: 'change'; member: SyncedMembership; level: number }
  | { kind: 'remove'; member: SyncedMembership };

export interface LdapSyncPlan {
  changes: LdapSyncChange[];
  /** Users whose removal or demotion would leave the group without an owner. */
  keptOwners: number[];
}

/** Each user's level: the highest over the links whose directory groups include them. */
export function desiredLevels(
  linked: readonly { level: number; userIds: readonly number[] }[],
): Map<number, number> {
  const levels = new Map<number, number>();
  for (const { level, userIds } of linked) {
    for (const userId of userIds) levels.set(userId, Math.max(levels.get(userId) ?? 0, level));
  }
  return levels;
}

/**
 * The changes that make membership follow the directory: missing users added, members the sync
 * added moved to their level or removed; members added by hand are left alone; an owner whose
 * removal or demotion would leave the group without one stays.
 */
export function planLdapSync(
  members: readonly SyncedMembership[],
  desired: ReadonlyMap<number, number>,
): LdapSyncPlan {
  const byUser = new Map(members.map((member) => [member.user_id, member]));
  const changes: LdapSyncChange[] = [];
  const keptOwners: number[] = [];
  let owners = members.filter((member) => member.access_level === ACCESS.owner).length;
  for (const [userId, level] of desired) {
    const member = byUser.get(userId);
    if (!member) {
      changes.push({ kind: 'add', userId, level });
      if (level === ACCESS.owner) owners += 1;
    }
  }
  for (const member of members) {
    if (!member.ldap) continue;
    const level = desired.get(member.user_id);
    if (level === member.access_level) continue;
    const losesOwner = member.access_level === ACCESS.owner;
    if (losesOwner && owners <= 1) {
      keptOwners.push(member.user_id);
      continue;
    }
    if (losesOwner) owners -= 1;
    if (level === undefined) changes.push({ kind: 'remove', member });
    else {
      if (level === ACCESS.owner) owners += 1;
      changes.push({ kind: 'change', member, level });
    }
  }
  return { changes, keptOwners };
}
