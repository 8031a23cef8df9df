/**
 * Removing a deleted group for good (the group-delete worker): its subgroups deepest first, their
 * projects with everything of them, members, shares, LDAP group links, routes and counters; the
 * bucket's objects (the projects' files, the groups' avatars) through the caller's `files`, since
 * the store writes no bucket. Every step is conditional, so a redelivered message finishes the job
 * without counting anything twice.
 */
import { ApiError } from '#domain/errors.ts';
import { removeGroupMember } from '../access/members.ts';
import { purgeGroupMilestones } from '../issuables/milestones.ts';
import { purgeGroupEpics } from '../issuables/noteable-purge.ts';
import { purgeGroupLabels } from '../labels/labels.ts';
import { decodeProject } from '../projects/project-items.ts';
import { namespaceProjectsRaw } from '../projects/project-lists.ts';
import { type ProjectFiles, purgeProject } from '../projects/project-purge.ts';
import { projectsSharedWith, unshareProject } from '../projects/project-shares.ts';
import { groupSearchItemKeys } from '../search/search-index.ts';
import { keys } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { listCountChanges, readWholeList } from '../table/lists.ts';
import { treeIndex } from '../table/table.ts';
import { commitUnlessDone, EXISTING_ITEM, releaseOwned, remove, writeAlone } from '../table/transaction.ts';
import { decodeGroup, getRawGroup } from './group-items.ts';
import { purgeGroupShares } from './group-shares.ts';
import { descendantsOf } from './group-tree.ts';
import { purgeLdapGroupLinks } from './ldap-group-links.ts';
import { purgeLdapSyncState } from './ldap-sync-state.ts';

/** Done by an earlier delivery of the same job. */
const alreadyGone = (error: unknown) => {
  if (!(error instanceof ApiError && error.status === 404)) throw error;
};

/**
 * What the purge removes outside the table, given by the caller (#jobs/project-removal.ts): each
 * project's files as `purgeProject` removes them, and a group's avatar objects, removed before the
 * group's item so a purge cut short still finds the group and removes them again.
 */
export interface GroupFiles extends ProjectFiles {
  removeGroupAvatars(groupId: number): Promise<void>;
}

export async function purgeGroupTree(groupId: number, files: GroupFiles): Promise<void> {
  const root = await getRawGroup(groupId);
  if (!root) return;
  // Deepest first: a traversal path sorts after its ancestors' paths.
  const descendants = await descendantsOf([decodeGroup(root)]);
  const pathOf = (item: Record<string, unknown>) => String(item[treeIndex.sortKey]);
  descendants.sort((a, b) => pathOf(a).localeCompare(pathOf(b)));
  for (const item of [root, ...descendants].reverse()) {
    const group = decodeGroup(item);
    await purgeGroupProjects(group.id, files);
    await purgeGroupEpics(group.id);
    await purgeGroupShares(group);
    await purgeLdapGroupLinks(group.id);
    await purgeLdapSyncState(group.id);
    await purgeGroupLabels(group.id);
    await purgeGroupMilestones(group.id);
    const members = await readWholeList(lists.groupMembers(group.id));
    for (const member of members.items) {
      await removeGroupMember(group.id, Number(member.user_id)).catch(alreadyGone);
    }
    // A group that ever had an avatar (the attribute stays, null, once removed) has objects to remove.
    if (item.avatar !== undefined) await files.removeGroupAvatars(group.id);
    // Its search postings and pending marker (their keys' counters only guide searches: left as they are).
    await Promise.all((await groupSearchItemKeys(group.id)).map((key) => writeAlone(remove(key))));
    await commitUnlessDone([releaseOwned(keys.route(group.full_path), group.id)]);
    await commitUnlessDone([remove(keys.group(group.id), EXISTING_ITEM), ...listCountChanges(item, -1)]);
  }
}

/** A deleted group's projects with their files, and its shares of other projects. */
async function purgeGroupProjects(groupId: number, files: ProjectFiles): Promise<void> {
  for (const item of await namespaceProjectsRaw(groupId)) {
    await purgeProject(Number(item.id), files);
  }
  for (const item of await projectsSharedWith(groupId)) {
    const project = decodeProject(item);
    if (project.shared_with_groups.some((share) => share.group_id === groupId)) {
      await unshareProject(project, groupId).catch(alreadyGone);
    }
  }
}
