/** The projects of a group as a caller may see them. */

type Raw = Record<string, unknown>;

import { deleteBlobPrefix } from '#blob/s3.ts';
import { ACCESS } from '#domain/access.ts';
import { ApiError } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import { canReadProject, NO_ACCESS, type Project } from '#domain/projects.ts';
import { uploadPrefix } from '#domain/uploads.ts';
import type { Caller } from '#domain/users.ts';
import { decodeGroup, descendantsOf } from './groups.ts';
import { lists } from './keys.ts';
import { readWholeList } from './lists.ts';
import { namespaceOfGroup } from './namespaces.ts';
import { presentProjects } from './project-views.ts';
import {
  accessFromLevels,
  decodeProject,
  getProjectsRaw,
  type KnownLevels,
  listNamespaceProjects,
  membershipLevelsOf,
  moveNamespaceProjects,
  namespaceProjectsRaw,
  projectsSharedWith,
  purgeProject,
  unshareProject,
  updateProject,
} from './projects.ts';

/** Links of the projects shared with a group (raw items), as soon as the group's id is known. */
export function sharedLinksOf(group: Promise<Raw | undefined>): Promise<Raw[]> {
  const links = group.then(async (item) =>
    item ? (await readWholeList('l1', lists.sharedWithGroup(Number(item.id)))).items : [],
  );
  links.catch(() => undefined);
  return links;
}

/** Projects shared with the group that the caller can read. */
export async function sharedProjectsOf(
  links: Promise<Raw[]>,
  caller: Caller | undefined,
  levels?: Promise<KnownLevels>,
): Promise<Project[]> {
  const projects = (await getProjectsRaw((await links).map((link) => Number(link.project_id)))).map(
    decodeProject,
  );
  if (caller?.admin) return projects;
  const access = caller ? await accessFromLevels(caller.id, projects, levels) : new Map();
  return projects.filter((project) => canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS));
}

/** GitLab caps the projects embedded in a group's detail at 100. */
const DETAIL_PROJECTS = 100;

export interface GroupDetailReads {
  /** The caller's membership levels, if already being read. */
  levels?: Promise<KnownLevels>;
  /** The group's share links, if already being read (see sharedLinksOf). */
  sharedLinks?: Promise<Raw[]>;
}

/**
 * The projects and shared projects shown inside a group's detail, as the caller may see them:
 * the namespace's lists and the shared projects read side by side, permissions from the levels.
 */
export async function groupProjects(
  group: Group,
  caller: Caller | undefined,
  groupAccess: number,
  baseUrl: string,
  reads: GroupDetailReads = {},
) {
  const levels = caller ? (reads.levels ?? membershipLevelsOf(caller.id)) : undefined;
  const links = reads.sharedLinks ?? sharedLinksOf(Promise.resolve({ id: group.id }));
  const [own, shared] = await Promise.all([
    listNamespaceProjects({
      namespaceId: group.id,
      order: 'name',
      sort: 'asc',
      page: { page: 1, perPage: DETAIL_PROJECTS },
      caller,
      seesAll: Boolean(caller?.admin || groupAccess >= ACCESS.guest),
      levels,
    }),
    sharedProjectsOf(links, caller, levels),
  ]);
  const [projects, sharedProjects] = await Promise.all([
    presentProjects(own.items, caller, { baseUrl, levels }),
    presentProjects(shared.slice(0, DETAIL_PROJECTS), caller, { baseUrl, levels }),
  ]);
  return { projects, shared_projects: sharedProjects };
}

/**
 * After a group changed its path, name, visibility or locks, re-places the projects of the group
 * and of every subgroup so their paths, names and namespace rules follow.
 */
export async function followGroupChange(group: Group): Promise<void> {
  const subtree = [group, ...(await descendantsOf([group])).map(decodeGroup)];
  for (const member of subtree) {
    await moveNamespaceProjects(await namespaceOfGroup(member));
    await renameShares(member);
  }
}

/** Projects shared with a renamed group show its new name and path. */
async function renameShares(group: Group): Promise<void> {
  for (const item of await projectsSharedWith(group.id)) {
    await updateProject(Number(item.id), (project) => ({
      ...project,
      shared_with_groups: project.shared_with_groups.map((share) =>
        share.group_id === group.id
          ? { ...share, group_name: group.name, group_full_path: group.full_path }
          : share,
      ),
    }));
  }
}

/**
 * What a deleted group takes with it besides subgroups and members (used by the delete worker):
 * its projects with their uploads, and its shares of other projects.
 */
export async function purgeGroupProjects(groupId: number): Promise<void> {
  for (const item of await namespaceProjectsRaw(groupId)) {
    await deleteBlobPrefix(uploadPrefix(Number(item.id)));
    await purgeProject(Number(item.id));
  }
  for (const item of await projectsSharedWith(groupId)) {
    const project = decodeProject(item);
    if (project.shared_with_groups.some((share) => share.group_id === groupId)) {
      await unshareProject(project, groupId).catch((error: unknown) => {
        // Unshared by an earlier delivery of the same job.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
    }
  }
}
