import { linkNotFound, namesNoLink } from '#domain/ldap-group-links.ts';
import { ldapSchemas } from '#domain/schemas/ldap.ts';
import { administeredGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeLdapGroupLinkByCn } from '#store/groups/ldap-group-links.ts';

/** Removes the group's link of that cn, of whichever provider (the first made, as GitLab). */
export const handler = defineRoute({
  auth: 'user',
  params: ldapSchemas.deleteLinkByCn,
  load: administeredGroup(),
  run: async ({ params: input, group }) => {
    const removed =
      !namesNoLink({ provider: '', kind: 'cn', value: input.cn }) &&
      (await removeLdapGroupLinkByCn(group.id, input.cn));
    if (!removed) throw linkNotFound();
    return reply.noContent();
  },
});
