import type { ScheduledEvent } from 'aws-lambda';
import { log } from '#http/log.ts';
import { requestScheduledLdapSyncs } from '#jobs/ldap-sync-requests.ts';

/** The LDAP group sync's schedule: every group with an LDAP group link gets a sync. */
export const handler = async (event: ScheduledEvent): Promise<{ queued: number }> => {
  const queued = await requestScheduledLdapSyncs();
  log('info', 'LDAP group syncs queued', { queued, scheduledAt: event.time });
  return { queued };
};
