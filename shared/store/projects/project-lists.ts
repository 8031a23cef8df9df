/** Pages of projects: the visibility lists and a namespace's lists, as a reader may see them. */

import { VISIBILITIES, type Visibility } from '#domain/access.ts';
import { isMembershipActive, memberMatchesQuery } from '#domain/members.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { NO_ACCESS, type Project } from '#domain/projects.ts';
import { openlySeen, type ReadScope, readsProject, seenThroughMembership } from '#domain/read-scope.ts';
import type { User } from '#domain/users.ts';
import { accessFromLevels, type KnownLevels } from '../access/access.ts';
import { lists } from '../table/list-keys.ts';
import { type ListPage, listMerged, readListCount, readWholeList } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers } from '../users/users.ts';
import { decodeProject } from './project-items.ts';

export type ProjectOrder = 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';

/** Every project of a namespace (raw items). */
export async function namespaceProjectsRaw(
  namespaceId: number,
  visibilities: readonly Visibility[] = VISIBILITIES,
): Promise<Raw[]> {
  const parts = await Promise.all(
    visibilities.map((visibility) => readWholeList(lists.namespaceProjects(namespaceId, visibility))),
  );
  return parts.flatMap((part) => part.items).filter((item) => !item.deleting);
}

export interface NamespaceProjectsQuery {
  namespaceId: number;
  order: ProjectOrder;
  sort: 'asc' | 'desc';
  page: PageRequest;
  filter?: (project: Project) => boolean;
  /** Who reads: with `seesAll` every project, otherwise the ones the scope reads (see below). */
  scope: ReadScope;
  seesAll: boolean;
  /** The reader's membership levels when already being read (see membershipLevelsOf). */
  levels?: Promise<KnownLevels>;
}

/**
 * One page of a namespace's projects. The namespace's lists are split by visibility, so a reader
 * reads only the lists they may see, to the end of the page: everything for members and admins,
 * those seen openly for others, plus the hidden projects a signed-in non-member reaches through a
 * project membership or a share, read beside those lists.
 */
export async function listNamespaceProjects(query: NamespaceProjectsQuery): Promise<ListPage<Project>> {
  const { scope, namespaceId } = query;
  const memberId = scope.memberId;
  let visibilities: Visibility[] = [...VISIBILITIES];
  let extra: Promise<Raw[]> | Raw[] = [];
  if (!query.seesAll) {
    visibilities = openlySeen(scope);
    if (memberId !== undefined) {
      extra = (async () => {
        const hidden = await namespaceProjectsRaw(namespaceId, seenThroughMembership(scope));
        const projects = hidden.map(decodeProject);
        const access = await accessFromLevels(memberId, projects, query.levels);
        return hidden.filter((_, index) => {
          const project = projects[index] as Project;
          return readsProject(scope, project, access.get(project.id) ?? NO_ACCESS);
        });
      })();
    }
  }
  return listMerged({
    lists: visibilities.map((visibility) => lists.namespaceProjects(namespaceId, visibility)),
    extra,
    order: query.order,
    sort: query.sort,
    page: query.page,
    decode: decodeProject,
    filter: query.filter,
  });
}

/**
 * A group's projects as its members see them, read as soon as the group's item is (beside the
 * access check), before the caller is known to be one: the reader keeps it only for a caller who
 * sees all, and a non-member's request wastes it.
 */
export function startMemberView(
  group: Promise<Raw | undefined>,
  read: (namespaceId: number) => Promise<ListPage<Project>>,
): Promise<ListPage<Project> | undefined> {
  const view = group.then((found) => (found ? read(Number(found.id)) : undefined));
  view.catch(() => undefined);
  return view;
}

/** How many projects a namespace holds (for `projects_limit`). */
export async function namespaceProjectCount(namespaceId: number): Promise<number> {
  const counts = await Promise.all(
    VISIBILITIES.map((visibility) => readListCount(lists.namespaceProjects(namespaceId, visibility))),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * Every user with access, in id order: direct members, members of the namespace groups and of
 * shared groups; narrowed to those `search` matches (name or username).
 */
export async function usersWithAccess(project: Project, search?: string): Promise<User[]> {
  const users = await getUsers(await userIdsWithAccess(project));
  return [...users.values()]
    .filter((user) => !search || memberMatchesQuery(user, search))
    .sort((a, b) => a.id - b.id);
}

async function userIdsWithAccess(project: Project): Promise<number[]> {
  const shares = project.shared_with_groups.filter((share) => isMembershipActive(share.expires_at));
  const groupIds = [
    ...new Set([...project.namespace.group_ids, ...shares.flatMap((share) => share.group_ids)]),
  ];
  const [direct, ...groups] = await Promise.all([
    readWholeList(lists.projectMembers(project.id)),
    ...groupIds.map((groupId) => readWholeList(lists.groupMembers(groupId))),
  ]);
  const ids = new Set<number>();
  for (const list of [direct, ...groups]) {
    for (const item of list?.items ?? [])
      if (isMembershipActive(item.expires_at)) ids.add(Number(item.user_id));
  }
  if (project.namespace.owner_id) ids.add(project.namespace.owner_id);
  return [...ids];
}
