/**
 * LDAP group sync: every linked directory group is read first (one failure and nothing changes),
 * then membership follows the directory one conditional write at a time.
 */
import { findLdapProvider } from '#config/ldap.ts';
import { desiredLevels, planLdapSync } from '#domain/ldap-sync.ts';
import type { User } from '#domain/users.ts';
import { DirectoryError, type DirectoryMember, readLdapGroupMembers } from '#ldap/directory.ts';
import {
  addSyncedGroupMember,
  changeSyncedGroupMember,
  listGroupMembers,
  removeSyncedGroupMember,
} from '#store/access/members.ts';
import { getGroup } from '#store/groups/group-items.ts';
import { readLdapGroupLinks } from '#store/groups/ldap-group-links.ts';
import { markLdapSyncStarted, recordLdapSync } from '#store/groups/ldap-sync-state.ts';
import { findUserByEmail, findUserByIdentity, findUserByUsername } from '#store/users/users.ts';

export interface LdapSyncOutcome {
  status: 'ready' | 'failed' | 'gone';
  changed: number;
  /** Owners kept because their removal or demotion would leave the group without one. */
  keptOwners: number[];
  error: string | null;
}

async function userOf(provider: string, entry: DirectoryMember): Promise<User | undefined> {
  return (
    (await findUserByIdentity(provider, entry.dn)) ??
    (await findUserByUsername(entry.username)) ??
    (entry.email ? await findUserByEmail(entry.email) : undefined)
  );
}

export async function runLdapSync(
  groupId: number,
  now: () => Date = () => new Date(),
): Promise<LdapSyncOutcome> {
  const [group, links] = await Promise.all([getGroup(groupId), readLdapGroupLinks(groupId)]);
  if (!group) return { status: 'gone', changed: 0, keptOwners: [], error: null };
  await markLdapSyncStarted(groupId, now().toISOString());
  const read: { level: number; provider: string; members: DirectoryMember[] }[] = [];
  try {
    for (const link of links) {
      const provider = findLdapProvider(link.provider);
      // A link of a provider not configured is kept and never synced (as GitLab does).
      if (!provider) continue;
      const selector = link.cn !== null ? { cn: link.cn } : { filter: link.filter ?? '' };
      const { members } = await readLdapGroupMembers(provider, selector);
      read.push({ level: link.group_access, provider: link.provider, members });
    }
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    await recordLdapSync(groupId, now().toISOString(), { failed: true, error: error.message });
    return { status: 'failed', changed: 0, keptOwners: [], error: error.message };
  }
  const linked = await Promise.all(
    read.map(async ({ level, provider, members }) => ({
      level,
      userIds: (await Promise.all(members.map((entry) => userOf(provider, entry))))
        .filter((user): user is User => user !== undefined)
        .map((user) => user.id),
    })),
  );
  const plan = planLdapSync(await listGroupMembers(groupId), desiredLevels(linked));
  let changed = 0;
  for (const change of plan.changes) {
    const done =
      change.kind === 'add'
        ? await addSyncedGroupMember(group, change.userId, change.level)
        : change.kind === 'change'
          ? await changeSyncedGroupMember(group, { group_id: groupId, ...change.member }, change.level)
          : await removeSyncedGroupMember(group, { group_id: groupId, ...change.member });
    if (done) changed += 1;
  }
  const error = plan.keptOwners.length
    ? `Kept the group's last owner (user ${plan.keptOwners.join(', ')}): not in a linked LDAP group`
    : null;
  await recordLdapSync(groupId, now().toISOString(), { failed: false, error });
  return { status: 'ready', changed, keptOwners: plan.keptOwners, error };
}
