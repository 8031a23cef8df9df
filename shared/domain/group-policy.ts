/** Who may do what with a group (GitLab's GroupPolicy), given the caller's inherited access. */
import { ACCESS, visibleWithoutMembership } from './access.ts';
import type { Group } from './groups.ts';
import type { Caller } from './users.ts';

export const canReadGroup = (group: Group, caller: Caller | undefined, access: number) =>
  visibleWithoutMembership(group.visibility, caller) || access >= ACCESS.guest;

/** Update, delete, members, LDAP: owners and admins. */
export const canAdminGroup = (caller: Caller, access: number) => caller.admin || access >= ACCESS.owner;

/** Owners, and maintainers where the group's subgroup_creation_level says so. */
export const canCreateSubgroup = (caller: Caller, access: number, group: Group) =>
  caller.admin ||
  (caller.can_create_group &&
    access >= (group.subgroup_creation_level === 'maintainer' ? ACCESS.maintainer : ACCESS.owner));

/** The level the group's project_creation_level asks of a project's creator (admins always may). */
export const canCreateProjectIn = (caller: Caller, access: number, group: Group) =>
  caller.admin ||
  (group.project_creation_level !== 'noone' &&
    access >= (group.project_creation_level === 'developer' ? ACCESS.developer : ACCESS.maintainer));

export const canCreateTopLevelGroup = (caller: Caller) => caller.admin || caller.can_create_group;
