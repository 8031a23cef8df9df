/**
 * Shares of a project with groups: a link item in the project's partition (listed under the group
 * and placed in the group's tree) and the project's denormalised `shared_with_groups`, changed in
 * one transaction guarded by the project's `updated_at`, so concurrent shares don't lose each other.
 */
import { badRequest, conflict, notFound } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import type { Project, ProjectShare } from '#domain/projects.ts';
import { getGroup } from '../groups/group-items.ts';
import { nextId } from '../table/ids.ts';
import { keys } from '../table/keys.ts';
import { inLists, lists, sortAttributes } from '../table/list-keys.ts';
import { listCountChange, readWholeList } from '../table/lists.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  lockLost,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
} from '../table/transaction.ts';
import { tree } from '../table/tree-keys.ts';
import { getProjectsRaw, unchangedSince, writeProjectItem } from './project-items.ts';
import { withFreshProject } from './project-writes.ts';

export interface ProjectGroupLink {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

/**
 * Shares a project with `group` (the group `input` names, as read; whether the actor may see it is
 * decided before), as GitLab allows: not when the namespace locks sharing (400), not with its own
 * groups, nor twice (409).
 */
export async function shareProjectWith(
  project: Project,
  group: Group,
  input: { group_id: number; group_access: number; expires_at?: string },
): Promise<ProjectGroupLink> {
  if (project.namespace.share_with_group_lock) throw badRequest('The project sharing with group is disabled');
  if (project.namespace.group_ids.includes(group.id)) {
    throw conflict('Project cannot be shared with the group it is in or one of its ancestors.');
  }
  if (project.shared_with_groups.some((share) => share.group_id === group.id)) {
    throw conflict('Group already shared with this group');
  }
  const shareOf = (invited: Group): ProjectShare => ({
    group_id: invited.id,
    group_name: invited.name,
    group_full_path: invited.full_path,
    group_access_level: input.group_access,
    expires_at: input.expires_at ?? null,
    group_ids: [...invited.ancestor_ids, invited.id],
  });
  // The share copies the group's place: a group transferred in between is read again (see writeShare).
  let attempt = 0;
  return withFreshProject(project.id, project, async (current) => {
    const invited = attempt++ === 0 ? group : await getGroup(group.id);
    if (!invited) throw notFound('Group');
    return writeShare(current, shareOf(invited));
  });
}

async function writeShare(project: Project, share: ProjectShare): Promise<ProjectGroupLink> {
  const link: ProjectGroupLink = {
    id: await nextId('project_group_link'),
    project_id: project.id,
    group_id: share.group_id,
    group_access: share.group_access_level,
    expires_at: share.expires_at,
  };
  const next: Project = {
    ...project,
    shared_with_groups: [...project.shared_with_groups, share],
    updated_at: new Date().toISOString(),
  };
  const linkItem = {
    ...keys.projectShare(project.id, share.group_id),
    ...link,
    kind: 'project_share',
    ...inLists(lists.sharedWithGroup(share.group_id)),
    ...sortAttributes({ id: project.id }),
    ...tree.project(share.group_ids, project.id),
  };
  await commit(
    [
      refusedWith(put(linkItem, NEW_ITEM), conflict('Group already shared with this group')),
      writeProjectItem(next, unchangedSince(project)),
      listCountChange(lists.sharedWithGroup(share.group_id), 1),
      // The group where it was read, no transfer under way: `group_ids` and the tree place are current.
      refusedReading(
        check(
          keys.group(share.group_id),
          `${LIVE_ITEM} AND attribute_not_exists(moving) AND full_path = :path`,
          {
            ':path': share.group_full_path,
          },
        ),
        (stored) => (!stored || stored.deleting ? notFound('Group') : lockLost()),
      ),
    ],
    lockLost(),
  );
  return link;
}

/** Ends a share; 404 `Group Link Not Found` when there is none. */
export function unshareProject(project: Project, groupId: number): Promise<void> {
  return withFreshProject(project.id, project, (current) => removeShare(current, groupId));
}

async function removeShare(project: Project, groupId: number): Promise<void> {
  const next: Project = {
    ...project,
    shared_with_groups: project.shared_with_groups.filter((share) => share.group_id !== groupId),
    updated_at: new Date().toISOString(),
  };
  await commit(
    [
      refusedWith(remove(keys.projectShare(project.id, groupId), EXISTING_ITEM), notFound('Group Link')),
      writeProjectItem(next, {
        condition: 'updated_at = :previous',
        values: { ':previous': project.updated_at },
      }),
      listCountChange(lists.sharedWithGroup(groupId), -1),
    ],
    lockLost(),
  );
}

/** The share links of the projects shared with a group (raw items). */
export async function sharedLinksOfGroup(groupId: number): Promise<Record<string, unknown>[]> {
  return (await readWholeList(lists.sharedWithGroup(groupId))).items;
}

/** Projects shared with a group (raw items). */
export async function projectsSharedWith(groupId: number): Promise<Record<string, unknown>[]> {
  const links = await sharedLinksOfGroup(groupId);
  return getProjectsRaw(links.map((item) => Number(item.project_id)));
}
