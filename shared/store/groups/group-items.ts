/**
 * Group items. A group joins the list of its visibility and its parent's children; its full path is
 * a route item written in the same transaction, so path uniqueness is the database's job; its
 * traversal path places it in the tree index.
 */

import { DEFAULT_CREATION_LEVELS, type Group } from '#domain/groups.ts';
import { getItem, getLiveItem, getLiveItems } from '../table/items.ts';
import { keys, stripStorage } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import type { Raw } from '../table/raw.ts';
import { tree } from '../table/tree-keys.ts';

export function decodeGroup(item: Raw): Group {
  const {
    kind: _kind,
    deleting: _deleting,
    moving: _moving,
    moves_below: _movesBelow,
    move: _move,
    ...group
  } = stripStorage<
    Group & { kind: string; deleting?: boolean; moving?: string; moves_below?: number; move?: unknown }
  >(item);
  // Groups stored before the creation levels existed have GitLab's defaults.
  return { ...DEFAULT_CREATION_LEVELS, ...group, custom_attributes: group.custom_attributes ?? {} };
}

export function groupItem(group: Group): Raw {
  return {
    ...keys.group(group.id),
    ...group,
    kind: 'group',
    ...inLists(lists.groupsWithVisibility(group.visibility), lists.groupChildren(group.parent_id)),
    ...sortAttributes({ id: group.id, name: group.name, path: group.path, created_at: group.created_at }),
    ...tree.group([...group.ancestor_ids, group.id]),
  };
}

export const groupRouteItem = (group: Pick<Group, 'id' | 'full_path'>): Raw => ({
  ...keys.route(group.full_path),
  kind: 'group',
  id: group.id,
  full_path: group.full_path,
});

/** The group item as stored, also while it is being deleted. */
export const getRawGroup = (id: number) => getItem(keys.group(id));

export async function getGroup(id: number): Promise<Group | undefined> {
  const item = await getLiveItem(keys.group(id));
  return item && decodeGroup(item);
}

export const getGroupsRaw = (ids: number[]) => getLiveItems(ids.map((id) => keys.group(id)));
