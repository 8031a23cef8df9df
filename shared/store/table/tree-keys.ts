/** Where groups, projects and shares sit in the group tree: the `tree` index's attributes. */
import { padId } from './keys.ts';
import { treeIndex } from './table.ts';

/**
 * Places in the group tree (the `tree` index). A group's traversal path is its ancestors' ids and
 * its own, root first, each padded and followed by `/`, so the path of every descendant begins
 * with it. Groups sit in their root's group partition; projects of group namespaces in the root's
 * partition for their visibility (a list of hidden projects reads only those), and the records of
 * projects shared with a group in the root's share partition, under the group's path.
 */
export const tree = {
  path: (groupIds: readonly number[]) => groupIds.map((id) => `${padId(id)}/`).join(''),
  groups: (rootId: number) => `TREE#${rootId}#GROUPS`,
  projects: (visibility: string) => (rootId: number) => `TREE#${rootId}#PROJECTS#${visibility}`,
  shares: (rootId: number) => `TREE#${rootId}#SHARES`,
  /** Tree attributes of a group whose traversal ids (root first, itself last) are given. */
  group(traversalIds: readonly number[]): Record<string, string> {
    return {
      [treeIndex.partitionKey]: tree.groups(traversalIds[0] as number),
      [treeIndex.sortKey]: tree.path(traversalIds),
    };
  },
  /**
   * Tree attributes of a project of a group namespace (under its visibility), or of a share
   * with a group (`visibility` undefined); undefined (removed on update) for personal namespaces.
   */
  project(
    traversalIds: readonly number[],
    projectId: number,
    visibility?: string,
  ): Record<string, string | undefined> {
    if (traversalIds.length === 0)
      return { [treeIndex.partitionKey]: undefined, [treeIndex.sortKey]: undefined };
    const root = traversalIds[0] as number;
    return {
      [treeIndex.partitionKey]:
        visibility === undefined ? tree.shares(root) : tree.projects(visibility)(root),
      [treeIndex.sortKey]: `${tree.path(traversalIds)}${visibility === undefined ? 'S' : 'P'}${padId(projectId)}`,
    };
  },
  /**
   * Tree attributes of a group's share with another group: in the share partition of the invited
   * group's root, under the invited group's path (beside the projects shared with it).
   */
  groupShare(invitedTraversalIds: readonly number[], sharedGroupId: number): Record<string, string> {
    return {
      [treeIndex.partitionKey]: tree.shares(invitedTraversalIds[0] as number),
      [treeIndex.sortKey]: `${tree.path(invitedTraversalIds)}G${padId(sharedGroupId)}`,
    };
  },
};
