/**
 * The projects of a group's detail, and what a group's change means for its projects: their
 * paths, names and namespace rules follow it, and so do the shares of it.
 */

import { ACCESS, VISIBILITIES, type Visibility } from '#domain/access.ts';
import { seesAllGroupProjects } from '#domain/group-policy.ts';
import type { Group } from '#domain/groups.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import { canReadProject, NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import {
  accessFromLevels,
  type KnownLevels,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from '../access/access.ts';
import { memberProjectsOf } from '../access/project-reach.ts';
import { namespaceOfGroup } from '../projects/namespaces.ts';
import { decodeProject, getProjectsRaw, withProjectCounters } from '../projects/project-items.ts';
import { listNamespaceProjects, startMemberView } from '../projects/project-lists.ts';
import type { ProjectListRequest } from '../projects/project-pages.ts';
import { projectsSharedWith, sharedLinksOfGroup } from '../projects/project-shares.ts';
import { starredProjectIds } from '../projects/project-stars.ts';
import { moveNamespaceProjects, updateProject } from '../projects/project-writes.ts';
import { tree } from '../table/keys.ts';
import { type ListPage, mergeSorted } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { decodeGroup } from './group-items.ts';
import { descendantsOf, readSubtrees } from './group-tree.ts';

/** GitLab caps the projects embedded in a group's detail at 100. */
const DETAIL_PROJECTS = 100;

/** Reads a group's detail needs, started as soon as the group is read (beside the access check). */
export interface GroupDetailReads {
  sharedLinks: Promise<Raw[]>;
  memberships: Promise<MembershipLists> | undefined;
  /** The group's projects as its members see them (startMemberView), for a signed-in caller. */
  memberView: Promise<ListPage<Project> | undefined> | undefined;
}

/** The projects of a group's detail: by name, the first DETAIL_PROJECTS. */
const detailProjects = (
  namespaceId: number,
  caller: Caller | undefined,
  seesAll: boolean,
  levels?: Promise<KnownLevels>,
) =>
  listNamespaceProjects({
    namespaceId,
    order: 'name',
    sort: 'asc',
    page: { page: 1, perPage: DETAIL_PROJECTS },
    caller,
    seesAll,
    levels,
  });

/**
 * Starts a group's detail reads once its item is read: its share links, the caller's lists and,
 * for a signed-in caller, the projects as members see them.
 */
export function startGroupDetail(
  item: Promise<Raw | undefined>,
  caller: Caller | undefined,
): GroupDetailReads {
  const sharedLinks = item.then((found) => (found ? sharedLinksOfGroup(Number(found.id)) : []));
  sharedLinks.catch(() => undefined);
  const memberships = caller ? item.then(() => readMembershipLists(caller.id)) : undefined;
  memberships?.catch(() => undefined);
  const memberView = caller ? startMemberView(item, (id) => detailProjects(id, caller, true)) : undefined;
  return { sharedLinks, memberships, memberView };
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
  const seesAll = seesAllGroupProjects(caller, groupAccess);
  const begun = seesAll ? reads?.memberView : undefined;
  const [own, shared] = await Promise.all([
    Promise.resolve(begun).then((page) => page ?? detailProjects(group.id, caller, seesAll, levels)),
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

/** The visibilities of a subtree's projects a caller may see without any membership. */
const openVisibilities = (caller: Caller | undefined): Visibility[] =>
  !caller ? ['public'] : caller.external ? ['public'] : ['public', 'internal'];

/**
 * One page of the projects of a group and of every subgroup below it (`include_subgroups`) that
 * the caller can see: one Query of the subtree per visibility on the tree index (only the private
 * one for callers who may see private projects there), beside the caller's membership lists; the
 * cost follows the subtree, never the table. Sorted, filtered and counted in memory.
 */
export async function subtreeProjectsPage(
  group: Group,
  groupAccess: number,
  input: ProjectListRequest,
  caller: Caller | undefined,
  page: PageRequest,
  memberships?: Promise<MembershipLists>,
): Promise<ProjectPage> {
  const seesAll = seesAllGroupProjects(caller, groupAccess);
  const levels = caller ? membershipLevelsOf(caller.id, memberships) : undefined;
  const visibilities = seesAll || caller ? VISIBILITIES : openVisibilities(caller);
  const place = [{ id: group.id, ancestor_ids: group.ancestor_ids }];
  const [parts, starred, owned] = await Promise.all([
    Promise.all(visibilities.map((visibility) => readSubtrees(place, tree.projects(visibility)))),
    caller && input.starred ? starredProjectIds(caller.id) : undefined,
    caller && input.owned ? memberProjectsOf(caller.id) : undefined,
  ]);
  const order = input.order_by ?? 'created_at';
  const sorted = mergeSorted(parts, order, input.sort ?? 'desc').map(decodeProject);
  const access = caller
    ? await accessFromLevels(caller.id, sorted, levels)
    : new Map<number, ProjectAccess>();
  const narrowing: ((project: Project) => boolean)[] = [];
  if (starred) {
    const ids = new Set(starred);
    narrowing.push((project) => ids.has(project.id));
  }
  if (owned) narrowing.push((project) => (owned.levels.get(project.id) ?? 0) >= ACCESS.owner);
  const filter = projectListFilter(input, caller, narrowing) ?? (() => true);
  const visible = sorted.filter(
    (project) =>
      filter(project) && (seesAll || canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS)),
  );
  const offset = offsetOf(page);
  const items = await withProjectCounters(visible.slice(offset, offset + page.perPage));
  return { items, total: visible.length, access };
}
