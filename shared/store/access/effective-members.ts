/**
 * Members with their effective level (GET …/members/all): the direct members of a group or project
 * and those it inherits from its ancestor groups and reaches through shares, each user once at
 * their highest level. What is read is bounded by the tree, not the table: the member lists of the
 * group's lineage (its depth), of the groups shared with it or its ancestors and of their
 * ancestors, read side by side; the ancestors' items (for their shares) are read with the first lists.
 */

import { type GroupShare, invitedGroupIds, sharesOf } from '#domain/group-shares.ts';
import type { Group } from '#domain/groups.ts';
import {
  effectiveMembers,
  isMembershipActive,
  type MemberSource,
  type Membership,
  memberMatchesQuery,
} from '#domain/members.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import { decodeGroup } from '../groups/group-items.ts';
import { decodeProject } from '../projects/project-items.ts';
import { getLiveItems } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers } from '../users/users.ts';
import { listGroupMembers, listProjectMembers, type MemberWithUser } from './members.ts';

/** The active shares kept by these groups, read in one batch. */
async function sharesKeptBy(groupIds: readonly number[]): Promise<GroupShare[]> {
  if (!groupIds.length) return [];
  const items = await getLiveItems(groupIds.map((id) => keys.group(id)));
  return items.flatMap((item) => sharesOf(item as { shared_with_groups?: GroupShare[] }));
}

/** The member lists of these groups, side by side, each group read once. */
async function groupMemberLists(groupIds: readonly number[]): Promise<Map<number, Membership[]>> {
  const unique = [...new Set(groupIds)];
  const read = await Promise.all(unique.map((id) => listGroupMembers(id)));
  return new Map(unique.map((id, index) => [id, read[index] ?? []]));
}

/** The sources a share brings: its invited group and that group's ancestors, capped by the share. */
const shareSources = (shares: readonly GroupShare[], lists: Map<number, Membership[]>): MemberSource[] =>
  shares
    .filter((share) => isMembershipActive(share.expires_at))
    .flatMap((share) =>
      share.group_ids.map((id) => ({ members: lists.get(id) ?? [], cap: share.group_access_level })),
    );

/**
 * The sources of `direct` plus a lineage of groups (`lineage`, inherited uncapped) and shares:
 * `known` are shares known without a read; the lineage's `holders` are read for theirs, beside the
 * first lists.
 */
async function collect(
  direct: Promise<Membership[]> | undefined,
  lineage: readonly number[],
  known: readonly GroupShare[],
  holders: readonly number[],
): Promise<Membership[]> {
  const [directMembers, firstLists, heldShares] = await Promise.all([
    direct,
    groupMemberLists([...lineage, ...invitedGroupIds(known)]),
    sharesKeptBy(holders),
  ]);
  const missing = invitedGroupIds(heldShares).filter((id) => !firstLists.has(id));
  const lists = new Map([...firstLists, ...(await groupMemberLists(missing))]);
  return effectiveMembers([
    ...(directMembers ? [{ members: directMembers }] : []),
    ...lineage.map((id) => ({ members: lists.get(id) ?? [] })),
    ...shareSources([...known, ...heldShares], lists),
  ]);
}

/** A group's members with their effective levels: direct, inherited, and through shares of it or its ancestors. */
export const effectiveGroupMembers = (group: Group) =>
  collect(undefined, [group.id, ...[...group.ancestor_ids].reverse()], sharesOf(group), group.ancestor_ids);

/**
 * A project's members with their effective levels: direct, of its namespace's groups, through the
 * groups it is shared with, and through shares of its namespace's groups. `direct` is the read of
 * its direct members when begun already.
 */
export const effectiveProjectMembers = (
  project: Project,
  direct: Promise<Membership[]> = listProjectMembers(project.id),
) =>
  collect(
    direct,
    [...project.namespace.group_ids].reverse(),
    project.shared_with_groups,
    project.namespace.group_ids,
  );

/** A read begun before its caller awaits it: a rejection is reported where it is awaited. */
function begun<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}

/**
 * The effective members of the group whose item is being read, begun as soon as the item is
 * there (beside the access check, whose result decides whether they are shown).
 */
export const effectiveMembersOfGroupItem = (item: Promise<Raw | undefined>) =>
  begun(item.then((raw) => (raw ? effectiveGroupMembers(decodeGroup(raw)) : [])));

/**
 * The effective members of the project `projectId`, whose item is being read: its direct members
 * at once, the rest as soon as the item is there (both beside the access check).
 */
export function effectiveMembersOfProjectItem(projectId: number, item: Promise<Raw | undefined>) {
  const direct = begun(listProjectMembers(projectId));
  return begun(item.then((raw) => (raw ? effectiveProjectMembers(decodeProject(raw), direct) : [])));
}

/**
 * The page of effective members with their users. Without a query only the page's users are read;
 * a query matches names and usernames, so it reads every member's user.
 */
export async function effectiveMembersPage(
  members: Membership[],
  options: { userIds?: number[]; query?: string },
  page: (all: Membership[]) => { items: Membership[]; total: number },
): Promise<{ items: MemberWithUser[]; total: number }> {
  const wanted = options.userIds ? new Set(options.userIds) : undefined;
  const chosen = members.filter((member) => !wanted || wanted.has(member.user_id));
  const withUser = (list: Membership[], users: Map<number, User>) =>
    list.flatMap((member) => {
      const user = users.get(member.user_id);
      return user ? [{ user, member }] : [];
    });
  if (!options.query) {
    const { items, total } = page(chosen);
    return { items: withUser(items, await getUsers(items.map((member) => member.user_id))), total };
  }
  const query = options.query;
  const users = await getUsers(chosen.map((member) => member.user_id));
  const matching = withUser(chosen, users).filter(({ user }) => memberMatchesQuery(user, query));
  const { items, total } = page(matching.map(({ member }) => member));
  return { items: withUser(items, users), total };
}

/** One user's effective membership; undefined when they are no member in any way. */
export async function effectiveMember(members: Promise<Membership[]>, userId: number) {
  return (await members).find((member) => member.user_id === userId);
}
