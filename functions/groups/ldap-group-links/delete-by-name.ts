import type * as v from 'valibot';
import { invalidParams } from '#domain/errors.ts';
import { linkNameOf, linkNameRefusal, linkNotFound, namesNoLink } from '#domain/ldap-group-links.ts';
import { ldapSchemas } from '#domain/schemas/ldap.ts';
import { administeredGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { removeLdapGroupLink } from '#store/groups/ldap-group-links.ts';

/** Removes the group's link of a provider named by `cn` or by `filter` (exactly one). */
export const handler = defineRoute({
  auth: 'user',
  params: ldapSchemas.deleteLink,
  load: administeredGroup<v.InferOutput<typeof ldapSchemas.deleteLink>>(linkNameRefusal),
  run: async ({ params: input, group }) => {
    const name = linkNameOf(input);
    if (typeof name === 'string') throw invalidParams(name);
    const removed = !namesNoLink(name) && (await removeLdapGroupLink(group.id, name));
    if (!removed) throw linkNotFound();
    return reply.noContent();
  },
});
