/**
 * Steps 2 and 3 of a group transfer (see group-transfer.ts for the protocol): rounds move what is
 * still at the old tree place, parents first, each guarded by its state as read and its parent's
 * mark, with the members' and the shares' copies of the groups' places following; then the marks
 * go, the descendants' first, then the group's with the ancestors' `moves_below`.
 */

import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { cappedVisibility, type Group } from '#domain/groups.ts';
import { type Project, placedIn } from '#domain/projects.ts';
import { groupNamespace } from '../projects/namespace-lookup.ts';
import {
  decodeProject,
  projectItem,
  projectRouteItem,
  unchangedSince,
  writeProjectItem,
} from '../projects/project-items.ts';
import { sharedLinksOfGroup } from '../projects/project-shares.ts';
import { withFreshProject } from '../projects/project-writes.ts';
import { getItem, readPartition } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { readListCount, readListCounts, readSubtreeUpTo } from '../table/lists.ts';
import { treeIndex } from '../table/table.ts';
import {
  check,
  commit,
  commitUnlessDone,
  lockLost,
  put,
  releaseOwned,
  type TransactItem,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup, getGroupsRaw, groupItem, groupRouteItem } from './group-items.ts';
import { followGroupShares } from './group-shares.ts';
import { listMoves, MAX_START_ATTEMPTS, MOVABLE, type Move, placedUnder } from './group-transfer-move.ts';

/** Rounds of reading the old place that move nothing before the rest is left (orphans of deletions). */
const MAX_IDLE_ROUNDS = 3;
/** Rounds of settling before a subtree that keeps changing is left as it is (a bound, never reached in practice). */
const MAX_ROUNDS = 200;
/** Moves sent side by side while settling. */
const PARALLEL_MOVES = 8;

/** Steps 2 and 3: the subtree follows, the shares of its groups follow, the marks go. */
export async function completeMove(move: Move): Promise<void> {
  await settle(move);
  await runAll(
    [...move.settled.values()].map(
      (moved) => () =>
        followShares(moved)
          .then(() => followGroupShares(moved))
          .then(() => true),
    ),
  );
  await finish(move);
}

/** Runs the tasks, at most PARALLEL_MOVES at a time; the number that succeeded. */
export async function runAll(tasks: (() => Promise<boolean>)[]): Promise<number> {
  let done = 0;
  for (let start = 0; start < tasks.length; start += PARALLEL_MOVES) {
    const results = await Promise.all(tasks.slice(start, start + PARALLEL_MOVES).map((task) => task()));
    done += results.filter(Boolean).length;
  }
  return done;
}

/** Rounds of moving what is still at the old place, until it is empty. */
async function settle(move: Move): Promise<void> {
  for (let idle = 0, round = 0; idle < MAX_IDLE_ROUNDS && round < MAX_ROUNDS; round++) {
    const [groupsPart, ...projectParts] = await Promise.all([
      readSubtreeUpTo(tree.groups(move.from.rootId), move.from.prefix, Number.POSITIVE_INFINITY),
      ...VISIBILITIES.map((visibility) =>
        readSubtreeUpTo(
          tree.projects(visibility)(move.from.rootId),
          move.from.prefix,
          Number.POSITIVE_INFINITY,
        ),
      ),
    ]);
    // What has moved may still show at the old place for a moment (the index follows the table).
    const groups = (groupsPart?.items ?? []).map(decodeGroup).filter((group) => !move.settled.has(group.id));
    const projects = projectParts
      .flatMap((part) => part.items)
      .map(decodeProject)
      .filter((project) => !move.movedProjects.has(project.id));
    if (groups.length === 0 && projects.length === 0) {
      if (await allArrived(move)) return;
      // The index has yet to show an item its list counter already counts: read again shortly.
      idle++;
      await sleep(100 * 2 ** idle);
      continue;
    }
    await adoptMovedParents(move, groups, projects);
    // Parents first: a level's moves are done before the next level's are computed.
    const depths = [...new Set(groups.map((group) => group.ancestor_ids.length))].sort((a, b) => a - b);
    let moved = 0;
    for (const depth of depths) {
      const level = groups.filter((group) => group.ancestor_ids.length === depth);
      moved += await runAll(
        level.flatMap((group) => {
          const parent = group.parent_id === null ? undefined : move.settled.get(group.parent_id);
          return parent ? [() => moveDescendant(move, group, parent)] : [];
        }),
      );
    }
    moved += await runAll(
      projects.flatMap((project) => {
        const namespace = move.settled.get(project.namespace.id);
        return namespace ? [() => moveProject(move, project, namespace)] : [];
      }),
    );
    idle = moved === 0 ? idle + 1 : 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Groups already moved under this token that the settler does not know (a move taken up after its
 * holder stopped, before the index showed them at the new place): read consistently as the
 * parents of what is still at the old place, they join the moved groups with their members.
 */
async function adoptMovedParents(move: Move, groups: Group[], projects: Project[]): Promise<void> {
  const unknown = [
    ...new Set([
      ...groups.map((group) => group.parent_id),
      ...projects.map((project) => project.namespace.id),
    ]),
  ].filter((id): id is number => id !== null && !move.settled.has(id));
  if (unknown.length === 0) return;
  const adopted = (await getGroupsRaw(unknown)).filter((item) => item.moving === move.token).map(decodeGroup);
  for (const group of adopted) move.settled.set(group.id, group);
  await Promise.all(adopted.map(followMembers));
}

/**
 * Whether every subgroup and project the moved groups' list counters count has been moved: the
 * tree index is eventually consistent, so an empty old place alone does not prove that a child
 * created just before its parent moved was seen; the counters, changed in the child's own
 * transaction and read consistently, do. A counter below what was moved is a deletion since.
 */
async function allArrived(move: Move): Promise<boolean> {
  const moved = new Map<string, number>();
  const count = (partition: string) => moved.set(partition, (moved.get(partition) ?? 0) + 1);
  const [root, ...descendants] = [...move.settled.values()];
  for (const group of [root, ...descendants]) {
    if (!group) continue;
    moved.set(lists.groupChildren(group.id).partition, 0);
    for (const visibility of VISIBILITIES)
      moved.set(lists.namespaceProjects(group.id, visibility).partition, 0);
  }
  for (const group of descendants) count(lists.groupChildren(group.parent_id).partition);
  for (const partition of move.movedProjects.values()) count(partition);
  const partitions = [...moved.keys()];
  const counts = await readListCounts(
    partitions.map((partition) => ({ attribute: 'l2' as const, partition })),
  );
  return counts.every((count, index) => count <= (moved.get(partitions[index] as string) ?? 0));
}

/** The group check that a child's new place is still right: the parent carries this move's mark. */
const stillMoving = (move: Move, group: Group): TransactItem =>
  check(keys.group(group.id), 'moving = :token AND full_path = :path AND full_name = :name', {
    ':token': move.token,
    ':path': group.full_path,
    ':name': group.full_name,
  });

/** Moves one subgroup under its moved parent, with its route and members; false when it changed. */
async function moveDescendant(move: Move, group: Group, parent: Group): Promise<boolean> {
  const moved = placedUnder(group, parent, move.cap);
  const before = groupItem(group);
  const after = groupItem(moved);
  const written = await commitUnlessDone([
    put({ ...after, moving: move.token }, MOVABLE, { ':path': group.full_path, ':name': group.full_name }),
    stillMoving(move, parent),
    releaseOwned(keys.route(group.full_path), group.id),
    // No live item can hold the new path: creates under a moved group wait for the marks to go.
    put(groupRouteItem(moved)),
    ...listMoves(before, after),
  ]);
  if (!written) return false;
  move.settled.set(moved.id, moved);
  await followMembers(moved);
  return true;
}

/**
 * The group members' copies of the group's ancestors (they place the group in a member's tree).
 * Read consistently from the group's partition: a member added before the group's move committed
 * is seen; one added after is refused while the group is marked (see addGroupMember).
 */
export async function followMembers(group: Group): Promise<void> {
  const items = await readPartition(keys.group(group.id).pk, {
    skPrefix: 'MEMBER#',
    projection: 'user_id',
    consistent: true,
  });
  await Promise.all(
    items.map((item) =>
      writeAlone(
        update(keys.groupMember(group.id, Number(item.user_id)), 'SET group_ancestor_ids = :ids', {
          condition: 'attribute_exists(pk)',
          values: { ':ids': group.ancestor_ids },
        }),
      ),
    ),
  );
}

/**
 * Projects shared with a moved group: the share's copy of the group's path and ancestors (whose
 * members reach the project through it) and the share's place in the tree follow, in one
 * transaction guarded by the project's `updated_at` (a lost race reads again).
 */
async function followShares(group: Group): Promise<void> {
  const groupIds = [...group.ancestor_ids, group.id];
  for (const link of await everySharedLink(group.id)) {
    const projectId = Number(link.project_id);
    await withFreshProject(projectId, undefined, async (project) => {
      if (!project.shared_with_groups.some((share) => share.group_id === group.id)) return;
      const next: Project = {
        ...project,
        shared_with_groups: project.shared_with_groups.map((share) =>
          share.group_id === group.id
            ? { ...share, group_name: group.name, group_full_path: group.full_path, group_ids: groupIds }
            : share,
        ),
        updated_at: new Date().toISOString(),
      };
      const place = tree.project(groupIds, projectId);
      await commit(
        [
          writeProjectItem(next, unchangedSince(project)),
          update(keys.projectShare(projectId, group.id), 'SET #tree = :tree, #path = :path', {
            condition: 'attribute_exists(pk)',
            names: { '#tree': treeIndex.partitionKey, '#path': treeIndex.sortKey },
            values: { ':tree': place[treeIndex.partitionKey], ':path': place[treeIndex.sortKey] },
          }),
        ],
        lockLost(),
      );
    });
  }
}

/**
 * The share links of the projects shared with a group, read until they are as many as the list's
 * counter says (the index follows the table; a share committed just before the group's move must
 * be seen). More is a share ended since; the project's own list decides.
 */
async function everySharedLink(groupId: number): Promise<Record<string, unknown>[]> {
  for (let attempt = 1; ; attempt++) {
    const [links, counter] = await Promise.all([
      sharedLinksOfGroup(groupId),
      readListCount(lists.sharedWithGroup(groupId)),
    ]);
    if (links.length >= counter || attempt >= MAX_IDLE_ROUNDS + 2) return links;
    await sleep(100 * 2 ** attempt);
  }
}

/** The groups above a moved group, root first (for the namespace's inherited locks). */
const ancestorsOf = (move: Move, group: Group): Group[] =>
  group.ancestor_ids.flatMap((id) => {
    const found = move.settled.get(id) ?? move.above.find((ancestor) => ancestor.id === id);
    return found ? [found] : [];
  });

/** Moves one project into its moved group's new place; false when it changed since it was read. */
async function moveProject(move: Move, project: Project, group: Group): Promise<boolean> {
  const visibility = cappedVisibility(project.visibility, move.cap) as Visibility;
  const moved: Project = {
    ...project,
    ...placedIn(groupNamespace(group, ancestorsOf(move, group)), project),
    visibility,
    updated_at: new Date().toISOString(),
  };
  const written = await commitUnlessDone([
    writeProjectItem(moved, {
      condition: 'updated_at = :previous AND attribute_not_exists(deleting)',
      values: { ':previous': project.updated_at },
    }),
    stillMoving(move, group),
    releaseOwned(keys.route(project.path_with_namespace), project.id),
    put(projectRouteItem(moved)),
    ...listMoves(projectItem(project), projectItem(moved)),
  ]);
  if (written) move.movedProjects.set(moved.id, lists.namespaceProjects(group.id, visibility).partition);
  return written;
}

/** Removes the marks: the descendants' first, then the group's with the ancestors' counts. */
async function finish(move: Move): Promise<void> {
  const [root, ...descendants] = [...move.settled.values()];
  await runAll(
    descendants.map(
      (group) => () =>
        writeAlone(
          update(keys.group(group.id), 'REMOVE moving', {
            condition: 'moving = :token',
            values: { ':token': move.token },
          }),
        ),
    ),
  );
  if (!root) return;
  // After the descendants' marks: an ancestor's move may start only once nothing below is marked.
  // The group's mark and the ancestors' counts go together, once (another taker's finish fails
  // the token check); an ancestor deleted since counts nothing any more.
  for (let attempt = 1; ; attempt++) {
    const counted = (await getGroupsRaw(move.counted)).map((item) => Number(item.id));
    const done = await commitUnlessDone([
      update(keys.group(root.id), 'REMOVE moving, #move', {
        condition: 'moving = :token',
        names: { '#move': 'move' },
        values: { ':token': move.token },
      }),
      ...counted.map((id) =>
        update(keys.group(id), 'ADD moves_below :minus', {
          condition: 'attribute_exists(pk)',
          values: { ':minus': -1 },
        }),
      ),
    ]);
    if (done || (await getItem(keys.group(root.id)))?.moving !== move.token) return;
    if (attempt >= MAX_START_ATTEMPTS) throw lockLost();
  }
}
