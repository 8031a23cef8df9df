/**
 * Asking for LDAP group syncs (the route and the schedule): kept apart from the job so that
 * neither bundles the directory client.
 */
import { ldapProviders } from '#config/ldap.ts';
import { publish } from '#queue/publish.ts';
import { forEachLdapLinkedGroup } from '#store/groups/ldap-group-links.ts';
import { markLdapSyncPending } from '#store/groups/ldap-sync-state.ts';

/**
 * Asks for a group's sync: marked pending and one ldap-sync message sent, unless one is already
 * pending or running (then nothing is queued, as GitLab's state machine refuses the transition).
 */
export async function requestLdapSync(groupId: number, now: Date = new Date()): Promise<boolean> {
  if (!(await markLdapSyncPending(groupId, now))) return false;
  await publish('ldap-sync', { groupId });
  return true;
}

/**
 * The hourly run (GitLab's LDAP group sync worker): every group with a link is asked for a sync.
 * Nothing when no provider is configured. Returns how many syncs were queued.
 */
export async function requestScheduledLdapSyncs(now: Date = new Date()): Promise<number> {
  if (ldapProviders().length === 0) return 0;
  let queued = 0;
  await forEachLdapLinkedGroup(async (groupIds) => {
    for (const groupId of groupIds) if (await requestLdapSync(groupId, now)) queued++;
  });
  return queued;
}
