import { ldapProviders } from '#config/ldap.ts';
import { notFound } from '#domain/errors.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { requestLdapSync } from '#jobs/ldap-sync-requests.ts';

const owned = group<{ id: string | number }>({ allow: 'owner' });
/** GitLab checks that group sync is on before it looks the group up. */
const syncableGroup: typeof owned = {
  start: owned.start,
  authorize: (started, reader, params) => {
    if (ldapProviders().length === 0) throw notFound();
    return owned.authorize(started, reader, params);
  },
};

/**
 * Owners and admins ask for a group's LDAP sync: 404 when no provider is configured, else 202; a
 * sync already pending or running is not queued twice.
 */
export const handler = defineRoute({
  auth: 'user',
  params: groupSchemas.byId,
  load: syncableGroup,
  run: async ({ group }) => {
    await requestLdapSync(group.id);
    return reply.acceptedStatus();
  },
});
