import { type LdapLinkName, linkNotFound, namesNoLink } from '#domain/ldap-group-links.ts';
import { ldapSchemas } from '#domain/schemas/ldap.ts';
import { administeredGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeLdapGroupLink } from '#store/groups/ldap-group-links.ts';

/** Removes the group's link of that provider and cn: one conditional delete by its key. */
export const handler = defineRoute({
  auth: 'user',
  params: ldapSchemas.deleteLinkForProvider,
  load: administeredGroup(),
  run: async ({ params: input, group }) => {
    const name: LdapLinkName = { provider: input.provider, kind: 'cn', value: input.cn };
    const removed = !namesNoLink(name) && (await removeLdapGroupLink(group.id, name));
    if (!removed) throw linkNotFound();
    return reply.noContent();
  },
});
