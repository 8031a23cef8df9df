/**
 * Creating, changing and deleting groups. A group's place (full path and name) follows its
 * parent's, so every write that places a group is guarded by its parent's path and name as read,
 * and a lost race is applied again to a fresh read; a rename then settles the whole subtree.
 */
import type { Visibility } from '#domain/access.ts';
import { badRequest, notFound } from '#domain/errors.ts';
import {
  changedGroup,
  type Group,
  type NewGroup,
  rubyErrorHash,
  updatedGroupErrors,
} from '#domain/groups.ts';
import { groupSearchTextChanged } from '#domain/search.ts';
import { groupOwnerItem } from '../access/members.ts';
import { placementCondition } from '../projects/project-items.ts';
import { namespaceProjectsRaw } from '../projects/project-lists.ts';
import { groupSearchPendingPut } from '../search/search-index.ts';
import { nextId } from '../table/ids.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChange, listCountChanges } from '../table/lists.ts';
import { listPartitionAttributes, treeIndex } from '../table/table.ts';
import {
  check,
  commit,
  commitUnlessDone,
  EXISTING_ITEM,
  LIVE_ITEM,
  lockLost,
  NEW_ITEM,
  put,
  refusedWith,
  releaseOwned,
  remove,
  retrying,
  type Step,
  type TransactItem,
  unique,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { decodeGroup, getGroup, groupItem, groupRouteItem } from './group-items.ts';
import { childrenOf } from './group-lists.ts';
import { followGroupChange } from './group-projects.ts';
import { descendantsOf } from './group-tree.ts';

type Place = Pick<Group, 'full_path' | 'full_name'>;

/** The parent changed its path or name after it was read: the subgroup is placed again. */
class ParentMoved extends Error {}
/** The parent is being moved with its subtree: the subgroup waits for the move to end. */
class ParentBusy extends ParentMoved {}
/** The group changed (or its parent moved) after it was read: the save is applied again. */
class GroupChanged extends Error {}

/** Renames racing one subgroup's creation: more than this many in a row are reported, not chased. */
const MAX_PLACEMENTS = 20;
/** Saves lost to a concurrent change before the save is reported as 409. */
const MAX_SAVE_ATTEMPTS = 10;

/** The group's place under its parent (or at the top). */
const placeUnder = (group: Pick<Group, 'path' | 'name'>, parent: Place | undefined): Place => ({
  full_path: parent ? `${parent.full_path}/${group.path}` : group.path,
  full_name: parent ? `${parent.full_name} / ${group.name}` : group.name,
});

/** A check that the group is still at the place it was read at (and not being deleted). */
const stillAt = (group: Pick<Group, 'id'> & Place) =>
  check(keys.group(group.id), placementCondition, { ':path': group.full_path, ':name': group.full_name });

/**
 * Creates a group with its creator as owner; fails with GitLab's message when the path is taken.
 * A subgroup's transaction checks the parent's path and name as read, so a rename committed in
 * between makes it read the parent again and place the subgroup under the new path.
 */
export async function createGroup(
  fields: NewGroup,
  parent: Group | undefined,
  creatorId: number,
): Promise<Group> {
  const id = await nextId('namespace');
  const freshParent = async () => {
    const current = parent && (await getGroup(parent.id));
    if (!current) throw notFound('Group');
    return current;
  };
  return retrying(
    {
      times: MAX_PLACEMENTS,
      retry: (error) => error instanceof ParentMoved && parent !== undefined,
      backoff: true,
    },
    parent,
    (current) => writeNewGroup(id, fields, current, creatorId),
    freshParent,
  ).catch((error: unknown) => {
    // A move that outlasts the attempts is reported as the lock it is, never as a server error.
    throw error instanceof ParentMoved ? lockLost() : error;
  });
}

const pathTaken = () =>
  badRequest(`Failed to save group ${rubyErrorHash({ path: ['has already been taken'] })}`);

async function writeNewGroup(
  id: number,
  fields: NewGroup,
  parent: Group | undefined,
  creatorId: number,
): Promise<Group> {
  const now = new Date().toISOString();
  const group: Group = {
    ...fields,
    id,
    ...placeUnder(fields, parent),
    ancestor_ids: parent ? [...parent.ancestor_ids, parent.id] : [],
    created_at: now,
    updated_at: now,
  };
  const owner = groupOwnerItem(group, creatorId, now);
  const steps: (TransactItem | Step)[] = [
    refusedWith(put(groupItem(group), NEW_ITEM), pathTaken),
    refusedWith(put(groupRouteItem(group), NEW_ITEM), pathTaken),
    put(owner),
    ...listCountChanges(groupItem(group), 1),
    ...listCountChanges(owner, 1),
    // Keeps the group a search candidate until the search-index worker has written its postings.
    groupSearchPendingPut(id),
  ];
  if (parent) {
    steps.push(
      refusedWith(stillAt(parent), (stored) =>
        stored?.moving !== undefined
          ? new ParentBusy()
          : stored && !stored.deleting
            ? new ParentMoved()
            : notFound('Group'),
      ),
    );
  }
  await commit(steps, notFound('Group'));
  return group;
}

/** Attributes a group takes from its parent, never from the change being saved. */
const PLACEMENT = new Set(['full_path', 'full_name', 'updated_at']);

/** The changes from `previous` to `next` applied to the group as it is now, under its parent as it is. */
function rebased(previous: Group, next: Group, current: Group, parent: Group | undefined): Group {
  const merged: Group = { ...current, updated_at: next.updated_at };
  for (const [key, value] of Object.entries(next)) {
    if (!PLACEMENT.has(key) && value !== previous[key as keyof Group])
      Object.assign(merged, { [key]: value });
  }
  return { ...merged, ...placeUnder(merged, parent) };
}

/**
 * Writes a changed group, guarded by its `updated_at`, path and name as read and by its parent's
 * path and name, so neither its own concurrent change nor a rename above it is lost: a lost race
 * applies the same change to a fresh read. A new path or name then settles every descendant.
 */
export async function saveGroup(previous: Group, next: Group, parent?: Group): Promise<Group> {
  type Attempt = { base: Group; wanted: Group; above: Group | undefined };
  const rebase = async (): Promise<Attempt> => {
    const current = await getGroup(previous.id);
    if (!current) throw notFound('Group');
    const above = current.parent_id === null ? undefined : await getGroup(current.parent_id);
    return { base: current, wanted: rebased(previous, next, current, above), above };
  };
  const saved = await retrying(
    { times: MAX_SAVE_ATTEMPTS, retry: (error) => error instanceof GroupChanged },
    { base: previous, wanted: next, above: parent } as Attempt,
    async (attempt) => {
      await writeGroup(attempt.base, attempt.wanted, attempt.above);
      return attempt;
    },
    rebase,
  ).catch((error: unknown) => {
    throw error instanceof GroupChanged ? lockLost() : error;
  });
  const { base, wanted } = saved;
  if (wanted.full_path !== base.full_path || wanted.full_name !== base.full_name) {
    await settleDescendantPaths(wanted);
  }
  return wanted;
}

async function writeGroup(previous: Group, next: Group, parent: Group | undefined): Promise<void> {
  const steps: (TransactItem | Step)[] = [
    put(
      groupItem(next),
      'updated_at = :previous AND full_path = :path AND full_name = :name AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND (attribute_not_exists(moves_below) OR moves_below = :zero)',
      {
        ':previous': previous.updated_at,
        ':path': previous.full_path,
        ':name': previous.full_name,
        ':zero': 0,
      },
    ),
  ];
  if (parent) {
    // Only the parent's place: a parent being deleted still refuses the save through the group.
    steps.push(
      check(keys.group(parent.id), 'full_path = :path AND full_name = :name', {
        ':path': parent.full_path,
        ':name': parent.full_name,
      }),
    );
  }
  if (next.full_path !== previous.full_path) {
    if (next.full_path.toLowerCase() !== previous.full_path.toLowerCase()) {
      steps.push(unique(put(groupRouteItem(next), NEW_ITEM), 'path'), remove(keys.route(previous.full_path)));
    } else {
      steps.push(put(groupRouteItem(next)));
    }
  }
  if (next.visibility !== previous.visibility) {
    steps.push(listCountChange(lists.groupsWithVisibility(previous.visibility), -1));
    steps.push(listCountChange(lists.groupsWithVisibility(next.visibility), 1));
  }
  if (groupSearchTextChanged(previous, next)) steps.push(groupSearchPendingPut(next.id));
  await commit(steps, new GroupChanged());
}

/** Changes that the group's projects must follow (their paths, names and namespace rules). */
const NAMESPACE_FIELDS = [
  'full_path',
  'full_name',
  'visibility',
  'share_with_group_lock',
  'membership_lock',
] as const;

/**
 * Applies a change to a group (a new path or name moves every subgroup and project under it); 400
 * when GitLab's model would refuse the result, such as a visibility above a parent's or below a
 * child's.
 */
export async function updateGroup(group: Group, changes: Partial<Group>): Promise<Group> {
  const [parent, children, projects] = await Promise.all([
    group.parent_id === null ? undefined : getGroup(group.parent_id),
    changes.visibility === undefined ? [] : childrenOf(group.id),
    changes.visibility === undefined ? [] : namespaceProjectsRaw(group.id),
  ]);
  const next = changedGroup(group, changes, parent, new Date().toISOString());
  updatedGroupErrors(next, parent, {
    subgroups: children.map((child) => child.visibility),
    projects: projects.map((project) => project.visibility as Visibility),
  });
  const saved = await saveGroup(group, next, parent);
  if (NAMESPACE_FIELDS.some((field) => saved[field] !== group[field])) await followGroupChange(saved);
  return saved;
}

/** Rounds of re-reading a renamed group's subtree before giving up on a tree that keeps changing. */
const MAX_SETTLE_ROUNDS = 20;
/** Descendants moved in one transaction (each: the group's update, its old and new route). */
const SETTLED_PER_TRANSACTION = 30;

/** Where each group of a subtree belongs under its (settled) parent, from the root's place. */
function placesUnder(root: Group, groups: Group[]): (group: Group) => Place | undefined {
  const byId = new Map<number, Group>([root, ...groups].map((group) => [group.id, group]));
  const places = new Map<number, Place>([
    [root.id, { full_path: root.full_path, full_name: root.full_name }],
  ]);
  const placeOf = (group: Group): Place | undefined => {
    const known = places.get(group.id);
    if (known) return known;
    const parent = group.parent_id === null ? undefined : byId.get(group.parent_id);
    const above = parent && placeOf(parent);
    if (!above) return undefined;
    const place = placeUnder(group, above);
    places.set(group.id, place);
    return place;
  };
  return placeOf;
}

/** Moves one descendant to its new place, unless it changed since it was read. */
const moveGroup = (group: Group, place: Place): TransactItem[] => [
  update(keys.group(group.id), 'SET full_path = :newPath, full_name = :newName', {
    condition:
      'attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name AND #path = :segment',
    names: { '#path': 'path' },
    values: {
      ':newPath': place.full_path,
      ':newName': place.full_name,
      ':path': group.full_path,
      ':name': group.full_name,
      ':segment': group.path,
    },
  }),
  ...(place.full_path === group.full_path
    ? []
    : [releaseOwned(keys.route(group.full_path), group.id), put(groupRouteItem({ ...group, ...place }))]),
];

/**
 * Makes every descendant of a renamed group follow its parent: reads the subtree, moves each
 * group whose full path or name does not follow its parent's (an update conditioned on its own
 * path and name as read, so a concurrent rename of it is never undone), and reads again until
 * all follow. Subgroups created under a descendant before it moved are caught by the next read.
 */
async function settleDescendantPaths(root: Group): Promise<void> {
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    const fresh = await getGroup(root.id);
    if (!fresh) return;
    const groups = (await descendantsOf([fresh])).map(decodeGroup);
    const placeOf = placesUnder(fresh, groups);
    const moves = groups.flatMap((group) => {
      const place = placeOf(group);
      return place && (place.full_path !== group.full_path || place.full_name !== group.full_name)
        ? [moveGroup(group, place)]
        : [];
    });
    if (moves.length === 0) return;
    for (let start = 0; start < moves.length; start += SETTLED_PER_TRANSACTION) {
      // A group that changed since it was read is left to the next round's fresh read.
      await commitUnlessDone(moves.slice(start, start + SETTLED_PER_TRANSACTION).flat());
    }
  }
}

/** Sets or removes one custom attribute on the group item. */
export async function setGroupCustomAttribute(
  groupId: number,
  key: string,
  value: string | undefined,
): Promise<void> {
  const written = await writeAlone(
    update(
      keys.group(groupId),
      value === undefined ? 'REMOVE custom_attributes.#key' : 'SET custom_attributes.#key = :value',
      {
        condition: EXISTING_ITEM,
        names: { '#key': key },
        ...(value === undefined ? {} : { values: { ':value': value } }),
      },
    ),
  );
  if (!written) throw notFound('Group');
}

/**
 * Takes the group out of every list and frees its path at once; the delete worker removes the
 * rest (subgroups, projects, members). Fails with 404 when it is already being deleted.
 */
export async function markGroupDeleted(group: Group): Promise<void> {
  await commit(
    [
      // Out of every list and out of the tree; its subtree stays findable by path until purged.
      update(
        keys.group(group.id),
        `SET deleting = :true REMOVE ${listPartitionAttributes.join(', ')}, #tree, #path`,
        {
          condition: LIVE_ITEM,
          names: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
          values: { ':true': true },
        },
      ),
      releaseOwned(keys.route(group.full_path), group.id),
      ...listCountChanges(groupItem(group), -1),
    ],
    notFound('Group'),
  );
}
