/**
 * The projects of a group's detail, and what a group's change means for its projects: their
 * paths, names and namespace rules follow it, and so do the shares of it.
 */

import { ACCESS, VISIBILITIES } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import { NO_ACCESS, type Project, type ProjectAccess } from '#domain/projects.ts';
import { type ReadScope, readsProject, seesAllOfGroup } from '#domain/read-scope.ts';
import {
  accessFromLevels,
  type KnownLevels,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from '../access/access.ts';
import { memberProjectsOf } from '../access/project-reach.ts';
import { namespaceOfGroup } from '../projects/namespace-lookup.ts';
import { decodeProject, getProjectsRaw, withProjectCounters } from '../projects/project-items.ts';
import { listNamespaceProjects, startMemberView } from '../projects/project-lists.ts';
import type { ProjectListRequest } from '../projects/project-pages.ts';
import { projectsSharedWith, sharedLinksOfGroup } from '../projects/project-shares.ts';
import { starredProjectIds } from '../projects/project-stars.ts';
import { moveNamespaceProjects, updateProject } from '../projects/project-writes.ts';
import { type ListPage, mergeSorted, pageOfSorted } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { tree } from '../table/tree-keys.ts';
import { decodeGroup } from './group-items.ts';
import { descendantsOf, readSubtrees } from './group-tree.ts';

/** GitLab caps the projects embedded in a group's detail at 100. */
const DETAIL_PROJECTS = 100;

/** Reads a group's detail needs, started as soon as the group is read (beside the access check). */
export interface GroupDetailReads {
  sharedLinks: Promise<Raw[]>;
  memberships: Promise<MembershipLists> | undefined;
  /** The group's projects as its members see them (startMemberView), for a signed-in reader. */
  memberView: Promise<ListPage<Project> | undefined> | undefined;
}

/** The projects of a group's detail: by name, the first DETAIL_PROJECTS. */
const detailProjects = (
  namespaceId: number,
  scope: ReadScope,
  seesAll: boolean,
  levels?: Promise<KnownLevels>,
) =>
  listNamespaceProjects({
    namespaceId,
    order: 'name',
    sort: 'asc',
    page: { page: 1, perPage: DETAIL_PROJECTS },
    scope,
    seesAll,
    levels,
  });

/**
 * Starts a group's detail reads once its item is read: its share links, the reader's lists and,
 * for a signed-in reader, the projects as members see them.
 */
export function startGroupDetail(item: Promise<Raw | undefined>, scope: ReadScope): GroupDetailReads {
  const sharedLinks = item.then((found) => (found ? sharedLinksOfGroup(Number(found.id)) : []));
  sharedLinks.catch(() => undefined);
  const memberId = scope.memberId;
  const memberships = memberId !== undefined ? item.then(() => readMembershipLists(memberId)) : undefined;
  memberships?.catch(() => undefined);
  const memberView =
    memberId !== undefined ? startMemberView(item, (id) => detailProjects(id, scope, true)) : undefined;
  return { sharedLinks, memberships, memberView };
}

/**
 * Projects shared with the group that the reader can read (the first DETAIL_PROJECTS), with the
 * reader's access to each: read once, for deciding and for `permissions`.
 */
async function sharedProjectsOf(
  links: Promise<Raw[]>,
  scope: ReadScope,
  levels?: Promise<KnownLevels>,
): Promise<ProjectPage> {
  const projects = (await getProjectsRaw((await links).map((link) => Number(link.project_id)))).map(
    decodeProject,
  );
  const access =
    scope.memberId !== undefined
      ? await accessFromLevels(scope.memberId, projects, levels)
      : new Map<number, ProjectAccess>();
  const readable = scope.seesAll
    ? projects
    : projects.filter((project) => readsProject(scope, project, access.get(project.id) ?? NO_ACCESS));
  const items = readable.slice(0, DETAIL_PROJECTS);
  return { items, total: items.length, access };
}

/**
 * The projects and shared projects shown inside a group's detail, as the reader may see them:
 * the namespace's lists and the shared projects read side by side, permissions from the levels.
 */
export async function groupDetailProjects(
  group: Group,
  groupAccess: number,
  scope: ReadScope,
  reads?: GroupDetailReads,
): Promise<{ projects: ProjectPage; shared: ProjectPage }> {
  const memberId = scope.memberId;
  const levels = memberId !== undefined ? membershipLevelsOf(memberId, reads?.memberships) : undefined;
  const links = reads?.sharedLinks ?? sharedLinksOfGroup(group.id);
  const seesAll = seesAllOfGroup(scope, groupAccess);
  const begun = seesAll ? reads?.memberView : undefined;
  const [own, shared] = await Promise.all([
    Promise.resolve(begun).then((page) => page ?? detailProjects(group.id, scope, seesAll, levels)),
    sharedProjectsOf(links, scope, levels),
  ]);
  const ownAccess = memberId !== undefined ? await accessFromLevels(memberId, own.items, levels) : new Map();
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

/**
 * One page of the projects of a group and of every subgroup below it (`include_subgroups`) that
 * the reader can see: one Query of the subtree per visibility on the tree index (for an anonymous
 * reader only those seen openly), beside the reader's membership lists; the cost follows the
 * subtree, never the table. Sorted, filtered and counted in memory.
 */
export async function subtreeProjectsPage(
  group: Group,
  groupAccess: number,
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
  memberships?: Promise<MembershipLists>,
): Promise<ProjectPage> {
  const seesAll = seesAllOfGroup(scope, groupAccess);
  const memberId = scope.memberId;
  const levels = memberId !== undefined ? membershipLevelsOf(memberId, memberships) : undefined;
  const visibilities = seesAll || memberId !== undefined ? VISIBILITIES : scope.open;
  const place = [{ id: group.id, ancestor_ids: group.ancestor_ids }];
  const [parts, starred, owned] = await Promise.all([
    Promise.all(visibilities.map((visibility) => readSubtrees(place, tree.projects(visibility)))),
    memberId !== undefined && input.starred ? starredProjectIds(memberId) : undefined,
    memberId !== undefined && input.owned ? memberProjectsOf(memberId) : undefined,
  ]);
  const order = input.order_by ?? 'created_at';
  const sort = input.sort ?? 'desc';
  const raw = mergeSorted(parts, order, sort);
  const sorted = raw.map(decodeProject);
  const access =
    memberId !== undefined
      ? await accessFromLevels(memberId, sorted, levels)
      : new Map<number, ProjectAccess>();
  const narrowing: ((project: Project) => boolean)[] = [];
  if (starred) {
    const ids = new Set(starred);
    narrowing.push((project) => ids.has(project.id));
  }
  if (owned) narrowing.push((project) => (owned.levels.get(project.id) ?? 0) >= ACCESS.owner);
  const filter = projectListFilter(input, scope, narrowing) ?? (() => true);
  const visible = raw.filter((_, index) => {
    const project = sorted[index] as Project;
    return filter(project) && (seesAll || readsProject(scope, project, access.get(project.id) ?? NO_ACCESS));
  });
  const shown = pageOfSorted(visible, order, sort, page);
  const items = await withProjectCounters(shown.items.map(decodeProject));
  return { items, total: shown.total, access };
}
