import type * as v from 'valibot';
import { conflict, invalidParams } from '#domain/errors.ts';
import {
  ldapGroupLinkEntity,
  linkNameOf,
  linkNameRefusal,
  linkRefusal,
  newLdapGroupLink,
} from '#domain/ldap-group-links.ts';
import { ldapSchemas } from '#domain/schemas/ldap.ts';
import { administeredGroup } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { parseFilter } from '#ldap/filters.ts';
import { addLdapGroupLink } from '#store/groups/ldap-group-links.ts';

/** Whether the directory would take the filter (GitLab's model parses it the same way). */
const filterParses = (filter: string) => {
  try {
    parseFilter(filter);
    return true;
  } catch {
    return false;
  }
};

/**
 * Owners and admins link an LDAP group (by cn, or by a user filter) of a provider at a level.
 * GitLab takes any provider name: a link of a provider not configured is kept and never synced.
 */
export const handler = defineRoute({
  auth: 'user',
  params: ldapSchemas.createLink,
  load: administeredGroup<v.InferOutput<typeof ldapSchemas.createLink>>(linkNameRefusal),
  run: async ({ params: input, group }) => {
    const name = linkNameOf(input);
    if (typeof name === 'string') throw invalidParams(name);
    const refusal = linkRefusal(name, filterParses);
    if (refusal) throw conflict(refusal);
    const link = newLdapGroupLink(group.id, name, input.group_access, new Date().toISOString());
    await addLdapGroupLink(link);
    return reply.created(ldapGroupLinkEntity(link));
  },
});
