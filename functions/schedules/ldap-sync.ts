import { requestScheduledLdapSyncs } from '#jobs/ldap-sync-requests.ts';
import { log } from '#observability/log.ts';
import { defineSchedule } from '#queue/schedule.ts';

/** The LDAP group sync's schedule: every group with an LDAP group link gets a sync. */
export const handler = defineSchedule(async (event) => {
  const queued = await requestScheduledLdapSyncs();
  log('info', 'LDAP group syncs queued', { queued, scheduledAt: event.time });
  return { queued };
});
