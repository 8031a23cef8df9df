/**
 * The owners whose labels a group's label list adds below the group: its descendant groups the
 * reader sees (`include_descendant_groups`) and, unless only group labels are asked for, the
 * projects the reader sees of the group (of its subtree with descendants). One Query of the
 * subtree on the tree index per kind, beside the reader's memberships: the cost follows the
 * subtree, never the table, and at most `MAX_LISTED_OWNERS` of each kind are read.
 */
import type { Group } from '#domain/groups.ts';
import type { LabelOwner } from '#domain/labels.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { visibleDescendantsPage } from '../groups/group-lists.ts';
import { subtreeProjectsPage } from '../groups/group-projects.ts';

/** At most this many descendant groups, and as many projects, add their labels. */
export const MAX_LISTED_OWNERS = 1000;

const ALL = { page: 1, perPage: MAX_LISTED_OWNERS };

export async function labelOwnersBelow(
  group: Group,
  access: number,
  scope: ReadScope,
  options: { descendants: boolean; projects: boolean },
): Promise<LabelOwner[]> {
  const [descendants, projects] = await Promise.all([
    options.descendants
      ? visibleDescendantsPage(group, access, scope, { order_by: 'id' }, ALL, undefined)
      : undefined,
    options.projects
      ? subtreeProjectsPage(group, access, { order_by: 'id', sort: 'asc' }, scope, ALL)
      : undefined,
  ]);
  return [
    ...(descendants?.items ?? []).map((descendant) => ({ kind: 'group' as const, id: descendant.id })),
    ...(projects?.items ?? [])
      // Without descendants, only the group's own projects.
      .filter((project) => options.descendants || project.namespace.id === group.id)
      .map((project) => ({ kind: 'project' as const, id: project.id })),
  ];
}
