/** Who may do what with a group (GitLab's GroupPolicy), given the caller's inherited access. */
import { ACCESS, visibleWithoutMembership } from './access.ts';
import type { Group } from './groups.ts';
import type { Caller } from './users.ts';

export const canReadGroup = (group: Group, caller: Caller | undefined, access: number) =>
  visibleWithoutMembership(group.visibility, caller) || access >= ACCESS.guest;

/** Update, delete, members, LDAP: owners and admins. */
export const canAdminGroup = (caller: Caller, access: number) => caller.admin || access >= ACCESS.owner;

export const canCreateSubgroup = (caller: Caller, access: number) =>
  caller.admin || (access >= ACCESS.owner && caller.can_create_group);

export const canCreateTopLevelGroup = (caller: Caller) => caller.admin || caller.can_create_group;
