/**
 * A group's detail as a caller sees it: the group with the projects it holds and is shared with,
 * and the groups it is shared with.
 */
import { canAdminGroup } from './group-policy.ts';
import { sharedWithGroupEntity, sharesOf } from './group-shares.ts';
import { type Group, groupDetailEntity } from './groups.ts';
import { type LdapGroupLink, ldapGroupLinkEntity } from './ldap-group-links.ts';
import type { LdapSyncState } from './ldap-sync.ts';
import { type ProjectPage, presentProjects } from './project-views.ts';
import type { Caller } from './users.ts';

type ProjectsSeen = Pick<ProjectPage, 'items' | 'access'>;

/** A group with no projects yet (a new one). */
export const noProjects: ProjectsSeen = { items: [], access: new Map() };

/**
 * `sharedWithGroups` are the shares as the caller may see them (read with the invited groups);
 * without them, the shares the group keeps are shown as they were made. `ldapGroupLinks`, when
 * read, are shown as GitLab EE's group entity shows them: only when the group has any.
 * `ldapSync`, given only to those who administer the group, shows how it was last synced.
 */
export function groupDetail(
  group: Group,
  caller: Caller | undefined,
  options: { baseUrl: string; customAttributes?: boolean },
  related: {
    projects: ProjectsSeen;
    shared: ProjectsSeen;
    sharedWithGroups?: unknown[];
    ldapGroupLinks?: LdapGroupLink[];
    /** The group's LDAP sync state, shown to its administrators (owners and admins) only. */
    ldapSync?: LdapSyncState;
    /** The caller's access to the group, which decides whether the sync state is shown. */
    access?: number;
  },
) {
  const present = (page: ProjectsSeen) => presentProjects(page, caller, { baseUrl: options.baseUrl });
  return {
    ...groupDetailEntity(group, options, {
      projects: present(related.projects),
      shared_projects: present(related.shared),
    }),
    ...(related.ldapGroupLinks?.length
      ? { ldap_group_links: related.ldapGroupLinks.map(ldapGroupLinkEntity) }
      : {}),
    ...(caller && canAdminGroup(caller, related.access ?? 0) ? related.ldapSync : {}),
    shared_with_groups: related.sharedWithGroups ?? sharesOf(group).map(sharedWithGroupEntity),
  };
}
