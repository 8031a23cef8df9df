/**
 * Groups shared with groups. A link item in the shared group's partition (`SHARE#<group>`, listed
 * under the invited group, so removing that group finds it) and the shared group's denormalised
 * `shared_with_groups`, which the access check reads with the group: both change in one
 * transaction. A new share appends to the list atomically; a removal rewrites it on the condition
 * that the group is as read, so concurrent shares and saves never lose each other.
 */

import { ApiError, notFound } from '#domain/errors.ts';
import { alreadyShared, type GroupShare, sharedWithGroupEntity, sharesOf } from '#domain/group-shares.ts';
import { type Group, groupMatchesSearch } from '#domain/groups.ts';
import type { Project } from '#domain/projects.ts';
import { type ReadScope, readsGroup, seesOpenly } from '#domain/read-scope.ts';
import { levelsFrom } from '../access/access.ts';
import { batchGetItems } from '../table/batch.ts';
import { getLiveItems } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { listCountChange, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { treeIndex } from '../table/table.ts';
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
  retrying,
  update,
} from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup, getRawGroup } from './group-items.ts';

export interface ShareInput {
  group_id: number;
  group_access: number;
  expires_at?: string;
}

/** A live group at the path it was read with, no transfer under way (its place is copied). */
const PLACED_AS_READ = `${LIVE_ITEM} AND attribute_not_exists(moving) AND full_path = :path`;
/** Why a group was no longer as read: gone (404), or moved or moving (409, try again). */
const movedOrGone = (stored: Raw | undefined) =>
  !stored || stored.deleting ? notFound('Group') : lockLost();

/**
 * Shares `group` with `invited` (the group `input` names, as read), once per pair (409). Whether
 * the actor may see the invited group and manage the group's members is decided before. Returns
 * the group with its shares.
 */
export async function shareGroupWith(group: Group, invited: Group, input: ShareInput): Promise<Group> {
  if (sharesOf(group).some((share) => share.group_id === invited.id)) throw alreadyShared();
  const share: GroupShare = {
    group_id: invited.id,
    group_name: invited.name,
    group_full_path: invited.full_path,
    group_access_level: input.group_access,
    expires_at: input.expires_at ?? null,
    group_ids: [...invited.ancestor_ids, invited.id],
  };
  const now = new Date().toISOString();
  const link = {
    ...keys.groupShare(group.id, invited.id),
    kind: 'group_share',
    shared_group_id: group.id,
    shared_with_group_id: invited.id,
    // The shared group's place, whose projects the invited group's members reach (project lists).
    shared_group_ids: [...group.ancestor_ids, group.id],
    group_access: share.group_access_level,
    expires_at: share.expires_at,
    created_at: now,
    ...inLists(lists.groupsSharedWithGroup(invited.id)),
    ...sortAttributes({ id: group.id }),
    ...tree.groupShare(share.group_ids, group.id),
  };
  await commit([
    refusedWith(put(link, NEW_ITEM), alreadyShared()),
    // Appending is atomic, and the new updated_at makes a concurrent save of the group read it again.
    // Both groups must be where they were read (the copies of their places are written here).
    refusedReading(
      update(
        keys.group(group.id),
        'SET shared_with_groups = list_append(if_not_exists(shared_with_groups, :none), :share), updated_at = :now',
        {
          condition: PLACED_AS_READ,
          values: { ':none': [], ':share': [share], ':now': now, ':path': group.full_path },
        },
      ),
      movedOrGone,
    ),
    refusedReading(
      check(keys.group(invited.id), PLACED_AS_READ, { ':path': invited.full_path }),
      movedOrGone,
    ),
    listCountChange(lists.groupsSharedWithGroup(invited.id), 1),
  ]);
  return { ...group, shared_with_groups: [...sharesOf(group), share], updated_at: now };
}

/**
 * Ends a share when `ends` (the actor may manage the group's members): 404 `Group Link Not Found`
 * when there is none, whoever asks. As GitLab's service, an actor who may not end it is answered
 * as if it were done, and the link stays.
 */
export async function unshareGroup(group: Group, sharedWithId: number, decision: { ends: boolean }) {
  if (!sharesOf(group).some((share) => share.group_id === sharedWithId)) throw notFound('Group Link');
  if (!decision.ends) return;
  await removeGroupShare(group.id, sharedWithId);
}

/** The group was changed between its read and the write: read it again. */
class GroupChanged extends Error {}
const MAX_ATTEMPTS = 5;

/** Removes the share of a group (also while it is being deleted) with another; 404 when none. */
export async function removeGroupShare(groupId: number, sharedWithId: number): Promise<void> {
  const read = async () => {
    const item = await getRawGroup(groupId);
    if (!item) throw notFound('Group Link');
    return decodeGroup(item);
  };
  await retrying(
    { times: MAX_ATTEMPTS, retry: (error) => error instanceof GroupChanged, backoff: true },
    await read(),
    async (current) => {
      const now = new Date().toISOString();
      await commit([
        refusedWith(remove(keys.groupShare(groupId, sharedWithId), EXISTING_ITEM), notFound('Group Link')),
        refusedWith(
          update(keys.group(groupId), 'SET shared_with_groups = :next, updated_at = :now', {
            condition: 'updated_at = :previous',
            values: {
              ':next': sharesOf(current).filter((share) => share.group_id !== sharedWithId),
              ':now': now,
              ':previous': current.updated_at,
            },
          }),
          new GroupChanged(),
        ),
        listCountChange(lists.groupsSharedWithGroup(sharedWithId), -1),
      ]);
    },
    read,
  ).catch((error: unknown) => {
    if (error instanceof GroupChanged) throw new ApiError(409, { message: '409 Conflict' });
    throw error;
  });
}

/**
 * After `moved` moved (a transfer of it or of a group above it), its shares follow both ways. The
 * shares of other groups with it: their copy of its ancestors (whose members reach the shared group
 * through it), path and name, and the link's place in the tree, each shared group rewritten from a
 * fresh read on the condition that it is as read. Its own shares: the links' copy of its place.
 */
export async function followGroupShares(moved: Group): Promise<void> {
  const groupIds = [...moved.ancestor_ids, moved.id];
  for (const link of (await readWholeList(lists.groupsSharedWithGroup(moved.id))).items) {
    const sharedId = Number(link.shared_group_id);
    const read = async () => {
      const item = await getRawGroup(sharedId);
      return item ? decodeGroup(item) : undefined;
    };
    await retrying(
      { times: MAX_ATTEMPTS, retry: (error) => error instanceof GroupChanged, backoff: true },
      await read(),
      async (current) => {
        if (!current || !sharesOf(current).some((share) => share.group_id === moved.id)) return;
        const place = tree.groupShare(groupIds, sharedId);
        await commit([
          refusedWith(
            update(keys.group(sharedId), 'SET shared_with_groups = :next, updated_at = :now', {
              condition: 'updated_at = :previous',
              values: {
                ':next': sharesOf(current).map((share) =>
                  share.group_id === moved.id
                    ? {
                        ...share,
                        group_name: moved.name,
                        group_full_path: moved.full_path,
                        group_ids: groupIds,
                      }
                    : share,
                ),
                ':now': new Date().toISOString(),
                ':previous': current.updated_at,
              },
            }),
            new GroupChanged(),
          ),
          update(keys.groupShare(sharedId, moved.id), 'SET #tree = :tree, #path = :path', {
            condition: EXISTING_ITEM,
            names: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
            values: { ':tree': place[treeIndex.partitionKey], ':path': place[treeIndex.sortKey] },
          }),
        ]);
      },
      read,
    ).catch((error: unknown) => {
      throw error instanceof GroupChanged ? new ApiError(409, { message: '409 Conflict' }) : error;
    });
  }
  for (const share of sharesOf(moved)) {
    await commitUnlessDone([
      update(keys.groupShare(moved.id, share.group_id), 'SET shared_group_ids = :ids', {
        condition: EXISTING_ITEM,
        values: { ':ids': groupIds },
      }),
    ]);
  }
}

/** Done by an earlier delivery of the same job. */
const alreadyGone = (error: unknown) => {
  if (!(error instanceof ApiError && error.status === 404)) throw error;
};

/**
 * A deleted group's shares both ways (the group-delete worker): its own links (the item goes with
 * the group) and the shares of other groups with it. Idempotent.
 */
export async function purgeGroupShares(group: Group): Promise<void> {
  for (const share of sharesOf(group)) {
    await commitUnlessDone([
      remove(keys.groupShare(group.id, share.group_id), EXISTING_ITEM),
      listCountChange(lists.groupsSharedWithGroup(share.group_id), -1),
    ]);
  }
  for (const link of (await readWholeList(lists.groupsSharedWithGroup(group.id))).items) {
    await removeGroupShare(Number(link.shared_group_id), group.id).catch(alreadyGone);
  }
}

/**
 * A group's `shared_with_groups` as a reader sees it: the invited groups that still exist and that
 * the reader can see (GitLab's links visible to the user), with their current names. One batch
 * read: the invited groups and the reader's memberships of them and their ancestors (none for
 * who sees all).
 */
export async function sharedWithGroupsSeenBy(group: Group, scope: ReadScope) {
  const shares = sharesOf(group);
  if (!shares.length) return [];
  const memberId = scope.seesAll ? undefined : scope.memberId;
  const memberKeys =
    memberId === undefined
      ? []
      : [...new Set(shares.flatMap((share) => share.group_ids))].map((id) => keys.groupMember(id, memberId));
  const items = await batchGetItems([...shares.map((share) => keys.group(share.group_id)), ...memberKeys]);
  const invited = new Map(
    items
      .filter((item) => item.kind === 'group' && !item.deleting)
      .map((item) => [Number(item.id), decodeGroup(item as Raw)] as const),
  );
  const levels = levelsFrom(items).groups;
  return shares.flatMap((share) => {
    const current = invited.get(share.group_id);
    if (!current) return [];
    const level = Math.max(0, ...share.group_ids.map((id) => levels.get(id) ?? 0));
    if (!readsGroup(scope, current, level)) return [];
    return [
      sharedWithGroupEntity({ ...share, group_name: current.name, group_full_path: current.full_path }),
    ];
  });
}

/** What GET /projects/:id/groups asks for. */
export interface ProjectGroupsQuery {
  search?: string;
  skip_groups?: number[];
  with_shared?: boolean;
  shared_min_access_level?: number;
  shared_visible_only?: boolean;
}

/**
 * The groups a project's members may come from (GitLab's Projects::GroupsFinder): its namespace's
 * group and ancestors and, `with_shared`, the groups it is shared with at `shared_min_access_level`
 * or above; newest id first. One batch read of at most the tree's depth plus the project's shares.
 */
export async function projectGroups(
  project: Project,
  scope: ReadScope,
  query: ProjectGroupsQuery,
): Promise<Group[]> {
  const shared = query.with_shared
    ? project.shared_with_groups.filter(
        (share) => share.group_access_level >= (query.shared_min_access_level ?? 0),
      )
    : [];
  const sharedIds = new Set(shared.map((share) => share.group_id));
  const skipped = new Set(query.skip_groups ?? []);
  const ids = [...new Set([...project.namespace.group_ids, ...sharedIds])].filter((id) => !skipped.has(id));
  const groups = (await getLiveItems(ids.map((id) => keys.group(id)))).map(decodeGroup);
  return groups
    .filter(
      (found) =>
        !query.shared_visible_only ||
        !sharedIds.has(found.id) ||
        project.namespace.group_ids.includes(found.id) ||
        seesOpenly(scope, found.visibility),
    )
    .filter((found) => !query.search || groupMatchesSearch(found, query.search))
    .sort((a, b) => b.id - a.id);
}
