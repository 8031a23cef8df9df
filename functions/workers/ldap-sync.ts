import { runLdapSync } from '#jobs/ldap-sync.ts';
import { defineWorker } from '#queue/worker.ts';

/** Makes a group's membership follow its linked LDAP groups; the outcome is recorded on the group. */
export const handler = defineWorker('ldap-sync', async ({ groupId }) => {
  await runLdapSync(groupId);
});
