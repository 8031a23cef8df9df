/**
 * Members of groups and projects. A member item lives in its source's partition and joins the
 * source's member list (`l1`) and the user's membership list (`l2`), whose counters move in the
 * same transaction. A group member also carries the group's ancestors, so a user's memberships
 * place them in the tree without reading the groups.
 */

import { conflict, forbidden, notFound, recordNotFound } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import { checkMemberChange, type MemberActor } from '#domain/member-policy.ts';
import { checkMemberLevel, type Membership, memberMatchesQuery, removesLastOwner } from '#domain/members.ts';
import type { Project } from '#domain/projects.ts';
import type { User } from '#domain/users.ts';
import type { Key } from '../table/batch.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, type ListName, lists, sortAttributes } from '../table/list-keys.ts';
import { listCountChange, listCountChanges, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  commitUnlessDone,
  EXISTING_ITEM,
  LIVE_ITEM,
  lockLost,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  type Step,
} from '../table/transaction.ts';
import { getUser, getUsers } from '../users/users.ts';

export interface GroupMember extends Membership {
  group_id: number;
  /** Added by the LDAP group sync, which may change or remove it (members added by hand it never touches). */
  ldap?: boolean;
}

export interface ProjectMember extends Membership {
  project_id: number;
}

const membershipOf = (item: Raw): Membership => ({
  user_id: Number(item.user_id),
  access_level: Number(item.access_level),
  expires_at: (item.expires_at as string | null) ?? null,
  created_at: String(item.created_at),
  created_by_id: (item.created_by_id as number | null) ?? null,
});

export const decodeGroupMember = (item: Raw): GroupMember => ({
  group_id: Number(item.group_id),
  ...membershipOf(item),
  ...(item.ldap === true ? { ldap: true } : {}),
});

const decodeProjectMember = (item: Raw): ProjectMember => ({
  project_id: Number(item.project_id),
  ...membershipOf(item),
});

const groupMemberItem = (member: GroupMember, ancestorIds: number[]): Raw => ({
  ...keys.groupMember(member.group_id, member.user_id),
  ...member,
  kind: 'group_member',
  group_ancestor_ids: ancestorIds,
  ...inLists(lists.groupMembers(member.group_id), lists.groupMembershipsOfUser(member.user_id)),
  ...sortAttributes({ id: member.user_id, created_at: member.created_at }),
});

export const projectMemberItem = (member: ProjectMember): Raw => ({
  ...keys.projectMember(member.project_id, member.user_id),
  ...member,
  kind: 'project_member',
  ...inLists(lists.projectMembers(member.project_id), lists.projectMembershipsOfUser(member.user_id)),
  ...sortAttributes({ id: member.user_id, created_at: member.created_at }),
});

/** Adds a member: 409 `Member already exists`, 404 `User Not Found` when the user is gone. */
async function insertMember(item: Raw, userId: number, ...guards: Step[]): Promise<void> {
  await commit([
    refusedWith(put(item, NEW_ITEM), conflict('Member already exists')),
    refusedWith(check(keys.user(userId), EXISTING_ITEM), notFound('User')),
    ...listCountChanges(item, 1),
    ...guards,
  ]);
}

/** Rewrites an existing member (level, expiry); 404 when it is not a member. */
const replaceMember = (item: Raw, ...guards: Step[]) =>
  commit([put(item, EXISTING_ITEM), ...guards], recordNotFound());

/**
 * The group still at the path it was read with and not being transferred, so the ancestors a
 * group member copies are current: a transfer marks the group before it changes them and rewrites
 * the members it then reads. 409 while it moves or once it has moved (read again), 404 when gone.
 */
const groupAsRead = (group: Group): Step =>
  refusedReading(
    check(keys.group(group.id), `${LIVE_ITEM} AND attribute_not_exists(moving) AND full_path = :path`, {
      ':path': group.full_path,
    }),
    (stored) => (!stored || stored.deleting ? notFound('Group') : lockLost()),
  );

/** Removes a member and moves both counters; 404 when it is not a member. */
const deleteMember = (key: Key, ...memberLists: ListName[]) =>
  commit(
    [remove(key, EXISTING_ITEM), ...memberLists.map((list) => listCountChange(list, -1))],
    recordNotFound(),
  );

// Groups ------------------------------------------------------------------------------------------

export async function getGroupMember(groupId: number, userId: number): Promise<GroupMember | undefined> {
  const item = await getItem(keys.groupMember(groupId, userId));
  return item ? decodeGroupMember(item) : undefined;
}

export async function listGroupMembers(groupId: number): Promise<GroupMember[]> {
  const { items } = await readWholeList(lists.groupMembers(groupId));
  return items.map(decodeGroupMember);
}

/** What a request asks of a member. */
interface MemberChange {
  user_id: number;
  access_level: number;
  expires_at?: string | null;
}

/** A new membership as asked, created now by `creatorId`. */
const newMembership = (change: MemberChange, creatorId: number, now = new Date().toISOString()) => ({
  user_id: change.user_id,
  access_level: change.access_level,
  expires_at: change.expires_at ?? null,
  created_at: now,
  created_by_id: creatorId,
});

/** The owner a group is created with (in the group's own transaction). */
export const groupOwnerItem = (group: Group, userId: number, now: string) =>
  groupMemberItem(
    { group_id: group.id, ...newMembership({ user_id: userId, access_level: 50 }, userId, now) },
    group.ancestor_ids,
  );

/** The user a new member is; 404 `User Not Found`. */
async function userOf(userId: number): Promise<User> {
  const found = await getUser(userId);
  if (!found) throw notFound('User');
  return found;
}

/** Adds a user to a group, created by `actorId` (who may manage its members); 404 for no such user. */
export async function addGroupMember(group: Group, change: MemberChange, actorId: number) {
  const user = await userOf(change.user_id);
  checkMemberLevel(change.access_level);
  const member: GroupMember = { group_id: group.id, ...newMembership(change, actorId) };
  await insertMember(groupMemberItem(member, group.ancestor_ids), member.user_id, groupAsRead(group));
  return { user, member };
}

/** Changes a group member's level or expiry; the last owner stays an owner (403). */
export async function changeGroupMember(group: Group, change: MemberChange): Promise<MemberWithUser> {
  const member = await getGroupMember(group.id, change.user_id);
  if (!member) throw recordNotFound();
  checkMemberLevel(change.access_level);
  if (removesLastOwner(member, await countGroupOwners(group.id), change.access_level)) throw forbidden();
  const user = await userOf(member.user_id);
  const changed = { ...member, access_level: change.access_level, expires_at: nextExpiry(member, change) };
  await replaceMember(groupMemberItem(changed, group.ancestor_ids), groupAsRead(group));
  return { user, member: changed };
}

/** A change without `expires_at` keeps the expiry. */
const nextExpiry = (member: Membership, change: MemberChange) =>
  change.expires_at === undefined ? member.expires_at : change.expires_at;

export const removeGroupMember = (groupId: number, userId: number) =>
  deleteMember(
    keys.groupMember(groupId, userId),
    lists.groupMembers(groupId),
    lists.groupMembershipsOfUser(userId),
  );

/** Removes a group member, unless it is the last owner (403); 404 when not a member. */
export async function removeGroupMemberKeepingOwner(groupId: number, userId: number): Promise<void> {
  const member = await getGroupMember(groupId, userId);
  if (!member) throw recordNotFound();
  if (removesLastOwner(member, await countGroupOwners(groupId))) throw forbidden();
  await removeGroupMember(groupId, userId);
}

/** How many direct owners the group has (the last one may not leave). */
async function countGroupOwners(groupId: number): Promise<number> {
  return (await listGroupMembers(groupId)).filter((member) => member.access_level === 50).length;
}

// The LDAP group sync: each change conditional on the member as read, so a concurrent change by
// hand wins; false when refused.

const groupUnmoved = (group: Group) =>
  check(keys.group(group.id), `${LIVE_ITEM} AND attribute_not_exists(moving) AND full_path = :path`, {
    ':path': group.full_path,
  });
const asSynced = { ':level': 0, ':ldap': true };
const syncedAsRead = (member: GroupMember) => ({
  condition: 'access_level = :level AND ldap = :ldap',
  values: { ...asSynced, ':level': member.access_level },
});

/** Adds a user as a member marked as the sync's, unless a member already. */
export function addSyncedGroupMember(group: Group, userId: number, level: number): Promise<boolean> {
  const member: GroupMember = {
    group_id: group.id,
    ...newMembership({ user_id: userId, access_level: level }, userId),
    ldap: true,
  };
  member.created_by_id = null;
  const item = groupMemberItem(member, group.ancestor_ids);
  return commitUnlessDone([
    put(item, NEW_ITEM),
    check(keys.user(userId), EXISTING_ITEM),
    ...listCountChanges(item, 1),
    groupUnmoved(group),
  ]);
}

/** Moves a member the sync added to another level, if still as read. */
export function changeSyncedGroupMember(group: Group, member: GroupMember, level: number): Promise<boolean> {
  const guard = syncedAsRead(member);
  return commitUnlessDone([
    put(
      groupMemberItem({ ...member, access_level: level }, group.ancestor_ids),
      guard.condition,
      guard.values,
    ),
    groupUnmoved(group),
  ]);
}

/** Removes a member the sync added, if still as read. */
export function removeSyncedGroupMember(group: Group, member: GroupMember): Promise<boolean> {
  const guard = syncedAsRead(member);
  return commitUnlessDone([
    remove(keys.groupMember(group.id, member.user_id), guard.condition, guard.values),
    listCountChange(lists.groupMembers(group.id), -1),
    listCountChange(lists.groupMembershipsOfUser(member.user_id), -1),
  ]);
}

// Projects ----------------------------------------------------------------------------------------

export async function getProjectMember(
  projectId: number,
  userId: number,
): Promise<ProjectMember | undefined> {
  const item = await getItem(keys.projectMember(projectId, userId));
  return item ? decodeProjectMember(item) : undefined;
}

export async function listProjectMembers(projectId: number): Promise<ProjectMember[]> {
  const { items } = await readWholeList(lists.projectMembers(projectId));
  return items.map(decodeProjectMember);
}

/** Adds a user to a project, as the actor may (see checkMemberChange); 404 for no such user. */
export async function addProjectMember(project: Project, actor: MemberActor, change: MemberChange) {
  checkMemberChange(project, actor, [change.access_level]);
  const user = await userOf(change.user_id);
  const member: ProjectMember = { project_id: project.id, ...newMembership(change, actor.userId) };
  await insertMember(projectMemberItem(member), member.user_id);
  return { user, member };
}

/** Changes a project member's level or expiry, as the actor may (from and to those levels). */
export async function changeProjectMember(
  project: Project,
  actor: MemberActor,
  change: MemberChange,
): Promise<MemberWithUser> {
  const member = await getProjectMember(project.id, change.user_id);
  if (!member) throw recordNotFound();
  checkMemberChange(project, actor, [change.access_level, member.access_level]);
  const user = await userOf(member.user_id);
  const changed = { ...member, access_level: change.access_level, expires_at: nextExpiry(member, change) };
  await replaceMember(projectMemberItem(changed));
  return { user, member: changed };
}

/**
 * Removes a project member: maintainers remove others (as the actor may), anyone may leave, and
 * the owner of a personal project stays.
 */
export async function removeProjectMember(project: Project, actor: MemberActor, userId: number) {
  const member = await getProjectMember(project.id, userId);
  if (!member) throw recordNotFound();
  if (member.user_id === project.namespace.owner_id) throw forbidden();
  if (member.user_id !== actor.userId) checkMemberChange(project, actor, [member.access_level]);
  await deleteMember(
    keys.projectMember(project.id, userId),
    lists.projectMembers(project.id),
    lists.projectMembershipsOfUser(userId),
  );
}

// With their users --------------------------------------------------------------------------------

/** A member and its user, for the member entities. */
export interface MemberWithUser {
  user: User;
  member: Membership;
}

/** Members with their users, narrowed to `userIds` and to users `query` matches (name or username). */
export async function withUsers(
  members: Membership[],
  options: { userIds?: number[]; query?: string } = {},
): Promise<MemberWithUser[]> {
  const wanted = options.userIds ? new Set(options.userIds) : undefined;
  const chosen = members.filter((member) => !wanted || wanted.has(member.user_id));
  const users = await getUsers(chosen.map((member) => member.user_id));
  return chosen.flatMap((member) => {
    const user = users.get(member.user_id);
    if (!user || (options.query && !memberMatchesQuery(user, options.query))) return [];
    return [{ user, member }];
  });
}

/** One member with its user; 404 `Not found` when not a member, `User Not Found` when the user is gone. */
export async function memberWithUser(read: Promise<Membership | undefined>): Promise<MemberWithUser> {
  const member = await read;
  if (!member) throw recordNotFound();
  return { user: await userOf(member.user_id), member };
}
