/**
 * One group transfer's state and the pieces its steps share (see group-transfer.ts for the
 * protocol): the groups placed under their new parent, the list counters that follow them, the
 * chain of groups above the new place, and the record a moved group's mark keeps of the move.
 */

import { notFound } from '#domain/errors.ts';
import { cappedVisibility, type Group } from '#domain/groups.ts';
import { listsOfItem } from '../table/list-keys.ts';
import { listCountChange } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { lockLost, type TransactItem } from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup, getGroup, getGroupsRaw } from './group-items.ts';

/** Attempts at the first transaction when a concurrent change of the groups it reads wins. */
export const MAX_START_ATTEMPTS = 5;

/** The list counters that change when an item's list attributes change (never one item twice). */
export function listMoves(before: Raw, after: Raw): TransactItem[] {
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
export function placedUnder(group: Group, parent: Group | undefined, cap: Group | undefined): Group {
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
export interface Move {
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
export async function chainOf(parent: Group | undefined): Promise<Group[]> {
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

/** A group that may move: there, neither being deleted nor moved, at the path and name read. */
export const MOVABLE =
  'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name';

/** What the moved group's mark records, so that another request can finish a move cut short. */
export interface MoveRecord {
  token: string;
  since: number;
  from_root: number;
  from_prefix: string;
  counted: number[];
}

/** The record of a move of `group` that its mark keeps, with the ancestors counting it. */
export function moveRecordOf(group: Group, token: string, counted: number[]): MoveRecord {
  const traversal = [...group.ancestor_ids, group.id];
  return {
    token,
    since: Date.now(),
    from_root: traversal[0] as number,
    from_prefix: tree.path(traversal),
    counted,
  };
}
