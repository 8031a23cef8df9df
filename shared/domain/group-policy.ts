/** Who may do what with a group (GitLab's GroupPolicy), given the caller's inherited access. */
import { ACCESS } from './access.ts';
import type { Group } from './groups.ts';
import type { Caller } from './users.ts';

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

/** Who acts on a loaded group: the caller, their inherited access and the request's parameters. */
interface GroupAction<P> {
  caller: Caller;
  access: number;
  params: P;
}

/** Owners change a group; only admins set its shared runners minutes. */
export const mayUpdateGroup = ({
  caller,
  access,
  params,
}: GroupAction<{ shared_runners_minutes_limit?: number }>) =>
  canAdminGroup(caller, access) && (params.shared_runners_minutes_limit === undefined || caller.admin);

/** Owners remove anyone; a member may always leave (the last owner is refused later). */
export const mayRemoveGroupMember = ({ caller, access, params }: GroupAction<{ user_id: number }>) =>
  params.user_id === caller.id || canAdminGroup(caller, access);

/** A new group at the top, or under a parent the caller may create subgroups in. */
export const mayCreateGroupIn = ({
  caller,
  access,
  params,
  group,
}: GroupAction<{ shared_runners_minutes_limit?: number }> & { group: Group | undefined }) =>
  (params.shared_runners_minutes_limit === undefined || caller.admin) &&
  (group ? canCreateSubgroup(caller, access, group) : canCreateTopLevelGroup(caller));
