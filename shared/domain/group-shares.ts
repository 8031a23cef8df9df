/**
 * Groups shared with groups (GitLab's GroupGroupLink): the members of the invited group reach the
 * shared group, its subgroups and their projects, each at the lower of their own level in the
 * invited group (inherited levels included) and the share's level.
 */
import { ApiError, conflict } from './errors.ts';
import { canAdminGroup } from './group-policy.ts';
import { type Group, groupEntity } from './groups.ts';
import { isMembershipActive } from './members.ts';
import type { ProjectShare } from './projects.ts';
import type { Caller } from './users.ts';

/** One share as the shared group keeps it: the invited group, its ancestors and the share's level. */
export type GroupShare = ProjectShare;

/** The shares a group keeps (none for groups stored before sharing existed). */
export const sharesOf = (group: Pick<Group, 'shared_with_groups'>): GroupShare[] =>
  group.shared_with_groups ?? [];

/**
 * The highest level a user reaches through shares: for each active share, the lower of the share's
 * level and the user's highest level among the invited group and its ancestors.
 */
export function levelThroughShares(
  shares: readonly GroupShare[],
  groupLevels: ReadonlyMap<number, number>,
  now: Date = new Date(),
): number {
  let highest = 0;
  for (const share of shares) {
    if (!isMembershipActive(share.expires_at, now)) continue;
    const own = share.group_ids.reduce((level, id) => Math.max(level, groupLevels.get(id) ?? 0), 0);
    highest = Math.max(highest, Math.min(own, share.group_access_level));
  }
  return highest;
}

/** The groups whose members a share invites (the invited group and its ancestors). */
export const invitedGroupIds = (shares: readonly GroupShare[]) => [
  ...new Set(shares.flatMap((share) => share.group_ids)),
];

/** GitLab's SharedGroupWithGroup entity, in a group's `shared_with_groups`. */
export const sharedWithGroupEntity = (share: GroupShare) => ({
  group_id: share.group_id,
  group_name: share.group_name,
  group_full_path: share.group_full_path,
  group_access_level: share.group_access_level,
  expires_at: share.expires_at,
});

/** The share service's refusal when the caller may not manage the group's members (`Not Found`). */
export const shareRefused = () => new ApiError(404, { message: 'Not Found' });

/** Who shares a group, or ends its shares: those who manage its members (owners, admins). */
export const mayShareGroup = ({ caller, access }: { caller: Caller; access: number }) =>
  canAdminGroup(caller, access);

/** The link's uniqueness validation, as GitLab's full message says it. */
export const alreadyShared = () => conflict('Shared group The group has already been shared with this group');

/** GitLab's basic group entity (GET /projects/:id/groups). */
export function basicGroupEntity(group: Group, baseUrl: string) {
  const { id, web_url, name, avatar_url, full_name, full_path } = groupEntity(group, { baseUrl });
  return { id, web_url, name, avatar_url, full_name, full_path };
}
