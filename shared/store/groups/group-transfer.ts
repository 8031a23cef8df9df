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
 *
 * Step 1 is here; steps 2 and 3 are in group-transfer-settling.ts, the taking up of a move cut
 * short in group-transfer-cut-short.ts, and the move's state they share in group-transfer-move.ts.
 */

import { randomUUID } from 'node:crypto';
import { notFound } from '#domain/errors.ts';
import { type Group, TRANSFER_ERRORS, transferFailed } from '#domain/groups.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import {
  commit,
  lockLost,
  NEW_ITEM,
  put,
  refusedWith,
  releaseOwned,
  retrying,
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { getGroup, groupItem, groupRouteItem } from './group-items.ts';
import { finishStaleMoves } from './group-transfer-cut-short.ts';
import {
  chainOf,
  listMoves,
  MAX_START_ATTEMPTS,
  MOVABLE,
  type Move,
  moveRecordOf,
  placedUnder,
} from './group-transfer-move.ts';
import { completeMove, followMembers } from './group-transfer-settling.ts';

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

/** The first transaction lost to a concurrent change of what it read: read again and retry. */
class StartRaced extends Error {}

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
      { ...after, moving: token, move: moveRecordOf(current, token, aboveIds) },
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
  const record = moveRecordOf(current, token, aboveIds);
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
