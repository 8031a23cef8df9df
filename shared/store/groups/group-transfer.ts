/**
 * Moving a group under another parent, or to the top level, with its whole subtree.
 *
 * A subtree is too big for one transaction, so the move is a protocol whose every step is a
 * conditional write; the database orders it against creates, renames and other moves:
 *
 * 1. **The group itself** moves in one transaction: its parent, ancestors, path, name, visibility,
 *    tree place and route (a new route item: a clash refuses the transfer), the children lists'
 *    counters, and a `moving` mark holding this transfer's token. The same transaction adds 1 to
 *    `moves_below` on every old and new ancestor, each checked not `moving`, and checks the new
 *    parent and its ancestors still at the place they were read. The group itself must not be
 *    `moving` nor have `moves_below`. So two moves of overlapping subtrees never both start (the
 *    later one finds a mark above it, a count on itself, or a changed ancestor of its new parent —
 *    which is what a cycle such as A into B while B into A needs), and a rename of the group or of
 *    an ancestor is refused while a move is under way (see writeGroup).
 * 2. **Settling.** The descendants still at the old tree place are read (one Query per tree
 *    partition); each group whose parent has already moved is moved in its own transaction (guarded
 *    by its path and name as read and by its parent still carrying this token) and marked; each
 *    project of a moved group likewise (item, route, namespace; guarded by its `updated_at` and its
 *    group's mark). Rounds repeat until the old place is empty. A subgroup or project created under
 *    a group not moved yet lands at the old place and is moved by a later round; a create under a
 *    moved group is refused (`placementCondition` refuses a `moving` group), so nothing lands at the
 *    new place before everything it could clash with has arrived, and every route stays unique.
 * 3. **The marks** are removed: the descendants' first, then the group's with the ancestors'
 *    `moves_below` (one transaction: a move never ends with a count left behind).
 *
 * **A move cut short** (its request stopped at its time limit, its function killed) finishes by
 * itself. The group's mark records the move (`move`: token, old place, counted ancestors, `since`)
 * and whoever settles it holds it for a lease (GROUP_MOVE_LEASE_SECONDS, 60 s by default: longer
 * than a request or a group-transfer worker lives). Once the first transaction commits, the route
 * sends a `group-transfer` message naming the group and the token, then settles in the request.
 * The worker does nothing when the group no longer carries that token (the move is finished:
 * redeliveries are harmless), defers the message to the lease's end while the mark is younger,
 * and after it takes the move up: it claims it (a conditional write of `since`, so two takers
 * never both settle), finds what already carries the token at the new place, and runs steps 2
 * and 3 again, which move only what is still at the old place. A transfer that meets a mark older
 * than the lease takes it up the same way first. Were the message never sent, a move cut short
 * would wait for such a transfer (of the group, into it or of a group above it); until then the
 * subtree refuses creates and renames with 409.
 */

import { randomUUID } from 'node:crypto';
import { config } from '#config/env.ts';
import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { notFound } from '#domain/errors.ts';
import { cappedVisibility, type Group, TRANSFER_ERRORS, transferFailed } from '#domain/groups.ts';
import { type Project, placedIn } from '#domain/projects.ts';
import { groupNamespace } from '../projects/namespaces.ts';
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
import { keys, lists, listsOfItem, tree } from '../table/keys.ts';
import { listCountChange, readListCount, readListCounts, readSubtreeUpTo } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { treeIndex } from '../table/table.ts';
import {
  check,
  commit,
  commitUnlessDone,
  lockLost,
  NEW_ITEM,
  put,
  refusedWith,
  releaseOwned,
  retrying,
  type Step,
  type TransactItem,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { decodeGroup, getGroup, getGroupsRaw, groupItem, groupRouteItem } from './group-items.ts';
import { followGroupShares } from './group-shares.ts';

/** Attempts at the first transaction when a concurrent change of the groups it reads wins. */
const MAX_START_ATTEMPTS = 5;
/** Rounds of reading the old place that move nothing before the rest is left (orphans of deletions). */
const MAX_IDLE_ROUNDS = 3;
/** Rounds of settling before a subtree that keeps changing is left as it is (a bound, never reached in practice). */
const MAX_ROUNDS = 200;
/** Moves sent side by side while settling. */
const PARALLEL_MOVES = 8;

/** The list counters that change when an item's list attributes change (never one item twice). */
function listMoves(before: Raw, after: Raw): TransactItem[] {
  const was = listsOfItem(before);
  const is = listsOfItem(after);
  const same = (a: { attribute: string; partition: string }, b: { attribute: string; partition: string }) =>
    a.attribute === b.attribute && a.partition === b.partition;
  return [
    ...was.filter((list) => !is.some((other) => same(list, other))).map((list) => listCountChange(list, -1)),
    ...is.filter((list) => !was.some((other) => same(list, other))).map((list) => listCountChange(list, 1)),
  ];
}

/** The group placed under `parent` (the top level for undefined), visibility capped by `cap`. */
function placedUnder(group: Group, parent: Group | undefined, cap: Group | undefined): Group {
  return {
    ...group,
    parent_id: parent?.id ?? null,
    ancestor_ids: parent ? [...parent.ancestor_ids, parent.id] : [],
    full_path: parent ? `${parent.full_path}/${group.path}` : group.path,
    full_name: parent ? `${parent.full_name} / ${group.name}` : group.name,
    visibility: cappedVisibility(group.visibility, cap),
  };
}

/** Where the subtree was: its root's tree partition id and the traversal path prefix. */
interface OldPlace {
  rootId: number;
  prefix: string;
}

/** One transfer under way: its token, the new parent (the visibility cap) and the moved groups. */
interface Move {
  token: string;
  from: OldPlace;
  cap: Group | undefined;
  /** New parent and its ancestors, root first: the groups above the moved subtree. */
  above: Group[];
  settled: Map<number, Group>;
  /** Each moved project's namespace list (its namespace and visibility after the move). */
  movedProjects: Map<number, string>;
  /** The old and new ancestors, each counting this move in `moves_below`. */
  counted: number[];
}

/** The new parent and its ancestors as stored now; 409 while they are being moved themselves. */
async function chainOf(parent: Group | undefined): Promise<Group[]> {
  if (!parent) return [];
  const fresh = await getGroup(parent.id);
  if (!fresh) throw notFound('Group');
  const raw = await getGroupsRaw(fresh.ancestor_ids);
  const byId = new Map(raw.map((item) => [Number(item.id), decodeGroup(item)]));
  const chain = [...fresh.ancestor_ids.map((id) => byId.get(id)), fresh];
  if (chain.some((group) => !group)) throw notFound('Group');
  const groups = chain as Group[];
  // A chain whose stored ancestors disagree is in the middle of a move: not a place to move to.
  groups.forEach((group, index) => {
    const ids = groups.slice(0, index).map((above) => above.id);
    if (group.ancestor_ids.join('/') !== ids.join('/')) throw lockLost();
  });
  return groups;
}

/** A transfer whose first transaction committed (step 1), to be settled (steps 2 and 3). */
export interface StartedTransfer {
  groupId: number;
  /** The move's token, carried by its marks until they are removed. */
  token: string;
  move: Move;
}

/**
 * Step 1 of moving `group` under `parent` (the top level when undefined); 400 `Transfer failed: …`
 * as GitLab refuses, 409 while an overlapping move or a rename is under way.
 */
export async function startGroupTransfer(group: Group, parent: Group | undefined): Promise<StartedTransfer> {
  await finishStaleMoves(group);
  if (parent) await finishStaleMoves(parent);
  const move = await retrying(
    { times: MAX_START_ATTEMPTS, retry: (error) => error instanceof StartRaced, backoff: true },
    undefined,
    () => startMove(group.id, parent?.id),
    async () => undefined,
  ).catch((error: unknown) => {
    throw error instanceof StartRaced ? lockLost() : error;
  });
  return { groupId: group.id, token: move.token, move };
}

/** Steps 2 and 3 of a started transfer: the moved group as it now is. */
export async function settleGroupTransfer({ groupId, move }: StartedTransfer): Promise<Group> {
  await followMembers(move.settled.get(groupId) as Group);
  await completeMove(move);
  return move.settled.get(groupId) as Group;
}

/** Steps 2 and 3: the subtree follows, the shares of its groups follow, the marks go. */
async function completeMove(move: Move): Promise<void> {
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

/** The first transaction lost to a concurrent change of what it read: read again and retry. */
class StartRaced extends Error {}

const MOVABLE =
  'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name';

async function startMove(groupId: number, parentId: number | undefined): Promise<Move> {
  const [current, above] = await Promise.all([
    getGroup(groupId),
    parentId === undefined ? [] : getGroup(parentId).then((parent) => chainOf(parent)),
  ]);
  if (!current) throw notFound('Group');
  const parent = above.at(-1);
  if (parent && (parent.id === current.id || parent.ancestor_ids.includes(current.id)))
    throw transferFailed(TRANSFER_ERRORS.intoSubgroup);
  if (!parent && current.parent_id === null) throw transferFailed(TRANSFER_ERRORS.alreadyRoot);
  if (parent && parent.id === current.parent_id) throw transferFailed(TRANSFER_ERRORS.sameParent);
  const raw = await getItem(keys.group(current.id));
  if (raw?.moving !== undefined || Number(raw?.moves_below ?? 0) > 0) throw lockLost();

  const token = randomUUID();
  const moved: Group = { ...placedUnder(current, parent, parent), updated_at: new Date().toISOString() };
  const before = groupItem(current);
  const after = groupItem(moved);
  const samePath = () => transferFailed(TRANSFER_ERRORS.samePath);
  // Every group above the old and the new place counts the move below it; the new place's groups
  // are also checked where they were read (a move of one of them in between could make a cycle).
  const placed = new Map(above.map((ancestor) => [ancestor.id, ancestor]));
  const aboveIds = [...new Set([...current.ancestor_ids, ...placed.keys()])];
  const steps: (TransactItem | Step)[] = [
    put(
      { ...after, moving: token, move: describe(current, token, aboveIds) },
      `${MOVABLE} AND updated_at = :updated AND (attribute_not_exists(moves_below) OR moves_below = :zero)`,
      {
        ':path': current.full_path,
        ':name': current.full_name,
        ':updated': current.updated_at,
        ':zero': 0,
      },
    ),
    refusedWith(put(groupRouteItem(moved), NEW_ITEM), samePath),
    releaseOwned(keys.route(current.full_path), current.id),
    ...listMoves(before, after),
  ];
  for (const id of aboveIds) {
    const at = placed.get(id);
    steps.push(
      update(keys.group(id), 'ADD moves_below :one', {
        condition: at
          ? MOVABLE
          : 'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving)',
        values: { ':one': 1, ...(at ? { ':path': at.full_path, ':name': at.full_name } : {}) },
      }),
    );
  }
  await commit(steps, new StartRaced());
  const record = describe(current, token, aboveIds);
  return {
    token,
    from: { rootId: record.from_root, prefix: record.from_prefix },
    cap: parent,
    above,
    settled: new Map([[moved.id, moved]]),
    movedProjects: new Map(),
    counted: aboveIds,
  };
}

/** What the moved group's mark records, so that another request can finish a move cut short. */
interface MoveRecord {
  token: string;
  since: number;
  from_root: number;
  from_prefix: string;
  counted: number[];
}

function describe(group: Group, token: string, counted: number[]): MoveRecord {
  const traversal = [...group.ancestor_ids, group.id];
  return {
    token,
    since: Date.now(),
    from_root: traversal[0] as number,
    from_prefix: tree.path(traversal),
    counted,
  };
}

/** How long a settler holds a move (from the mark's `since`) before another may take it up. */
const leaseMs = () => config.groupMoveLeaseSeconds * 1000;

/** Milliseconds until the move's holder lets it go (0 or less: it may be taken up). */
const leaseLeft = (record: MoveRecord) => Number(record.since) + leaseMs() - Date.now();

/** Finishes the moves cut short on the group or above it (see leaseMs). */
async function finishStaleMoves(group: Group): Promise<void> {
  const raw = await getGroupsRaw([...group.ancestor_ids, group.id]);
  for (const item of raw) {
    const record = item.move as MoveRecord | undefined;
    if (item.moving === undefined || !record || leaseLeft(record) > 0) continue;
    await resume(decodeGroup(item), record);
  }
}

/** Where a move named by its group and token stands, for the group-transfer worker. */
export type CutShortTransfer =
  | { state: 'finished' }
  /** Someone holds the move: look again after this many seconds. */
  | { state: 'held'; retryInSeconds: number };

/**
 * Finishes the move of `groupId` with `token` if it is still unfinished and nobody holds it: a
 * finished move (the group carries no such mark) is left alone, a held one is reported with the
 * time its lease has left.
 */
export async function finishCutShortTransfer(groupId: number, token: string): Promise<CutShortTransfer> {
  const item = await getItem(keys.group(groupId));
  const record = item?.move as MoveRecord | undefined;
  if (!item || item.moving !== token || !record) return { state: 'finished' };
  const left = leaseLeft(record);
  if (left > 0) return { state: 'held', retryInSeconds: left / 1000 };
  if (!(await resume(decodeGroup(item), record))) return { state: 'held', retryInSeconds: leaseMs() / 1000 };
  return { state: 'finished' };
}

/**
 * Takes the move over from a holder whose lease ran out, by moving its `since` to now on the
 * condition that it is still the one read: of two takers only one wins (false for the other).
 */
const claim = (groupId: number, record: MoveRecord) =>
  writeAlone(
    update(keys.group(groupId), 'SET #move.#since = :now', {
      condition: 'moving = :token AND #move.#since = :seen',
      names: { '#move': 'move', '#since': 'since' },
      values: { ':now': Date.now(), ':token': record.token, ':seen': record.since },
    }),
  );

/**
 * Takes up a move cut short, once claimed (false when another taker claimed it first): what
 * already carries its token at the new place counts as moved.
 */
async function resume(root: Group, record: MoveRecord): Promise<boolean> {
  if (!(await claim(root.id, record))) return false;
  const above = await chainOf(root.parent_id === null ? undefined : await getGroup(root.parent_id));
  const move: Move = {
    token: record.token,
    from: { rootId: Number(record.from_root), prefix: record.from_prefix },
    cap: above.at(-1),
    above,
    settled: new Map([[root.id, root]]),
    movedProjects: new Map(),
    counted: record.counted.map(Number),
  };
  const traversal = [...root.ancestor_ids, root.id];
  const newRoot = traversal[0] as number;
  const [groupsPart, ...projectParts] = await Promise.all([
    readSubtreeUpTo(tree.groups(newRoot), tree.path(traversal), Number.POSITIVE_INFINITY),
    ...VISIBILITIES.map((visibility) =>
      readSubtreeUpTo(tree.projects(visibility)(newRoot), tree.path(traversal), Number.POSITIVE_INFINITY),
    ),
  ]);
  for (const item of groupsPart?.items ?? []) {
    if (item.moving === move.token) move.settled.set(Number(item.id), decodeGroup(item));
  }
  for (const project of projectParts.flatMap((part) => part.items).map(decodeProject)) {
    if (move.settled.has(project.namespace.id))
      move.movedProjects.set(
        project.id,
        lists.namespaceProjects(project.namespace.id, project.visibility).partition,
      );
  }
  await runAll([...move.settled.values()].map((moved) => () => followMembers(moved).then(() => true)));
  await completeMove(move);
  return true;
}

/** Runs the tasks, at most PARALLEL_MOVES at a time; the number that succeeded. */
async function runAll(tasks: (() => Promise<boolean>)[]): Promise<number> {
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
async function followMembers(group: Group): Promise<void> {
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
