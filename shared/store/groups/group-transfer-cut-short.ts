/**
 * Group transfers cut short (see group-transfer.ts for the protocol): a moved group's mark records
 * its move, and once the holder's lease on it has run out, whoever claims it (a transfer meeting
 * the mark, or the group-transfer worker) settles it from what already carries its token.
 */

import { config } from '#config/env.ts';
import { VISIBILITIES } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import { decodeProject } from '../projects/project-items.ts';
import { getItem } from '../table/items.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { readSubtreeUpTo } from '../table/lists.ts';
import { update, writeAlone } from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup, getGroup, getGroupsRaw } from './group-items.ts';
import { chainOf, type Move, type MoveRecord } from './group-transfer-move.ts';
import { completeMove, followMembers, runAll } from './group-transfer-settling.ts';

/** How long a settler holds a move (from the mark's `since`) before another may take it up. */
const leaseMs = () => config.groupMoveLeaseSeconds * 1000;

/** Milliseconds until the move's holder lets it go (0 or less: it may be taken up). */
const leaseLeft = (record: MoveRecord) => Number(record.since) + leaseMs() - Date.now();

/** Finishes the moves cut short on the group or above it (see leaseMs). */
export async function finishStaleMoves(group: Group): Promise<void> {
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
