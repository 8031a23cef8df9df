import { ldapGroupLinkEntity, noLinks } from '#domain/ldap-group-links.ts';
import { ldapSchemas } from '#domain/schemas/ldap.ts';
import { administeredGroup } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { readLdapGroupLinks } from '#store/groups/ldap-group-links.ts';

/** A group's LDAP group links, for owners and admins; GitLab answers 404 when there are none. */
export const handler = defineRoute({
  auth: 'user',
  params: ldapSchemas.listLinks,
  load: administeredGroup(),
  run: async ({ group }) => {
    const links = await readLdapGroupLinks(group.id);
    if (links.length === 0) throw noLinks();
    return links.map(ldapGroupLinkEntity);
  },
});
