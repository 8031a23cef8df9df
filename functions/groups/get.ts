import { groupDetail } from '#domain/group-views.ts';
import { type GroupEntityOptions, showsGroupStatistics } from '#domain/groups.ts';
import { groupSchemas } from '#domain/schemas/groups.ts';
import { group } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { groupDetailProjects, startGroupDetail } from '#store/groups/group-projects.ts';
import { sharedWithGroupsSeenBy } from '#store/groups/group-shares.ts';
import { startGroupStatistics } from '#store/groups/group-statistics.ts';
import { startGroupLdap } from '#store/groups/ldap-group-links.ts';

/**
 * A group with its projects and shared projects; anonymous callers see public groups. Statistics
 * (admins only) and the group's LDAP group links and sync state (owners and admins) are read
 * beside the access check.
 */
export const handler = defineRoute({
  auth: 'optional',
  params: groupSchemas.get,
  load: group({
    alongside: (item, { caller, readScope }, params: { id: string | number; statistics?: boolean }) => ({
      detail: startGroupDetail(item, readScope),
      statistics: startGroupStatistics(item, showsGroupStatistics(params, caller)),
      ldap: startGroupLdap(item),
    }),
  }),
  run: async ({ params: input, caller, readScope, request, group, access, alongside }) => {
    const [related, statistics, sharedWithGroups, ldap] = await Promise.all([
      groupDetailProjects(group, access, readScope, alongside.detail),
      alongside.statistics,
      sharedWithGroupsSeenBy(group, readScope),
      alongside.ldap,
    ]);
    // The entity options reach groupEntity whole, statistics included.
    const options: GroupEntityOptions = {
      baseUrl: request.baseUrl,
      customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
      statistics,
    };
    return groupDetail(group, caller, options, {
      ...related,
      sharedWithGroups,
      ldapGroupLinks: ldap.links,
      ldapSync: ldap.sync,
      access,
    });
  },
});
