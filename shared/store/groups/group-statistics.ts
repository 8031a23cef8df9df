/**
 * Group statistics: the sums of the statistics of the projects in a group's subtree (its
 * subgroups' projects included, as GitLab's namespace statistics are), read from the tree index:
 * one Query per visibility partition of each outermost group asked about, side by side.
 */

import { VISIBILITIES } from '#domain/access.ts';
import { type GroupStatistics, groupStatistics } from '#domain/groups.ts';
import { decodeProject } from '../projects/project-items.ts';
import { withCounters } from '../table/batch.ts';
import type { Raw } from '../table/raw.ts';
import { treeIndex } from '../table/table.ts';
import { tree } from '../table/tree-keys.ts';
import { readSubtrees, type TreePlace } from './group-tree.ts';

/** The statistics of each of the given groups (a page of a list, or one group's detail). */
export async function statisticsOfGroups(
  groups: readonly TreePlace[],
): Promise<Map<number, GroupStatistics>> {
  // Groups nested in one another share the reads: each outermost subtree is read once (readSubtrees).
  const partitions = await Promise.all(
    VISIBILITIES.map((visibility) => readSubtrees([...groups], tree.projects(visibility))),
  );
  // Statistics are recorded beside each project (store/table/counters.ts): read with them.
  const projects = await withCounters(partitions.flat());
  return new Map(
    groups.map((group) => {
      const path = tree.path([...group.ancestor_ids, group.id]);
      const inSubtree = projects.filter((item) => String(item[treeIndex.sortKey]).startsWith(path));
      return [group.id, groupStatistics(inSubtree.map(decodeProject))];
    }),
  );
}

/**
 * Starts one group's statistics as soon as its item is read (beside the access check), when they
 * are to be shown; undefined otherwise.
 */
export function startGroupStatistics(
  item: Promise<Raw | undefined>,
  wanted: boolean,
): Promise<GroupStatistics | undefined> | undefined {
  if (!wanted) return undefined;
  const statistics = item.then(async (found) => {
    if (!found) return undefined;
    const place: TreePlace = {
      id: Number(found.id),
      ancestor_ids: (found.ancestor_ids as number[]).map(Number),
    };
    return (await statisticsOfGroups([place])).get(place.id);
  });
  // Read beside the access check: a refused caller never awaits it.
  statistics.catch(() => undefined);
  return statistics;
}
