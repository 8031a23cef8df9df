/**
 * The projects of a group's detail, and what a group's change means for its projects: their
 * paths, names and namespace rules follow it, and so do the shares of it.
 */
import { ACCESS } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import { canReadProject, NO_ACCESS, type ProjectAccess } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import {
  accessFromLevels,
  type KnownLevels,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from './access.ts';
import { decodeGroup } from './group-items.ts';
import { descendantsOf } from './group-tree.ts';
import { namespaceOfGroup } from './namespaces.ts';
import { decodeProject, getProjectsRaw } from './project-items.ts';
import { listNamespaceProjects } from './project-lists.ts';
import { projectsSharedWith, sharedLinksOfGroup } from './project-shares.ts';
import { moveNamespaceProjects, updateProject } from './project-writes.ts';

type Raw = Record<string, unknown>;

/** GitLab caps the projects embedded in a group's detail at 100. */
const DETAIL_PROJECTS = 100;

/** Reads a group's detail needs, started as soon as the group is read (beside the access check). */
export interface GroupDetailReads {
  sharedLinks: Promise<Raw[]>;
  memberships: Promise<MembershipLists> | undefined;
}

/** Starts a group's detail reads once its item is read: its share links and the caller's lists. */
export function startGroupDetail(
  item: Promise<Raw | undefined>,
  caller: Caller | undefined,
): GroupDetailReads {
  const sharedLinks = item.then((found) => (found ? sharedLinksOfGroup(Number(found.id)) : []));
  sharedLinks.catch(() => undefined);
  const memberships = caller ? item.then(() => readMembershipLists(caller.id)) : undefined;
  memberships?.catch(() => undefined);
  return { sharedLinks, memberships };
}

/**
 * Projects shared with the group that the caller can read (the first DETAIL_PROJECTS), with the
 * caller's access to each: read once, for deciding and for `permissions`.
 */
async function sharedProjectsOf(
  links: Promise<Raw[]>,
  caller: Caller | undefined,
  levels?: Promise<KnownLevels>,
): Promise<ProjectPage> {
  const projects = (await getProjectsRaw((await links).map((link) => Number(link.project_id)))).map(
    decodeProject,
  );
  const access = caller
    ? await accessFromLevels(caller.id, projects, levels)
    : new Map<number, ProjectAccess>();
  const readable = caller?.admin
    ? projects
    : projects.filter((project) => canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS));
  const items = readable.slice(0, DETAIL_PROJECTS);
  return { items, total: items.length, access };
}

/**
 * The projects and shared projects shown inside a group's detail, as the caller may see them:
 * the namespace's lists and the shared projects read side by side, permissions from the levels.
 */
export async function groupDetailProjects(
  group: Group,
  groupAccess: number,
  caller: Caller | undefined,
  reads?: GroupDetailReads,
): Promise<{ projects: ProjectPage; shared: ProjectPage }> {
  const levels = caller ? membershipLevelsOf(caller.id, reads?.memberships) : undefined;
  const links = reads?.sharedLinks ?? sharedLinksOfGroup(group.id);
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
  const ownAccess = caller ? await accessFromLevels(caller.id, own.items, levels) : new Map();
  return { projects: { ...own, access: ownAccess }, shared };
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
