/**
 * The search API's reads: each scope through the list or index that already answers the
 * matching list endpoint (GET /projects?search, /users?search, /groups?search, a project's issues
 * and merge requests with `search`), with the same visibility rules.
 *
 * Issues and merge requests across projects have no index: they are searched in a bounded set of
 * projects, each project's list read (filtered, up to the lists' counting cap) in one parallel
 * round — at the top level the projects the caller reaches through their memberships (so neither
 * public projects they are no member of nor, for admins, every project), in a group the readable
 * projects of its subtree.
 */

import { VISIBILITIES } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import { groupMatchesSearch } from '#domain/groups.ts';
import type { IssueFilter } from '#domain/issues.ts';
import { isMembershipActive, memberMatchesQuery } from '#domain/members.ts';
import type { MergeRequestFilter } from '#domain/merge-requests.ts';
import { canReadMergeRequests, listsIssues, seesConfidentialIssues } from '#domain/noteable-policy.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import {
  canReadProject,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  projectMatchesSearch,
} from '#domain/projects.ts';
import { issueSearchState, type SearchState, searchSort } from '#domain/search.ts';
import type { Caller, User } from '#domain/users.ts';
import { userMatchesSearch } from '#domain/users.ts';
import { accessFromLevels, type CredentialBatch, membershipLevelsOf } from '../access/access.ts';
import { listGroupMembers } from '../access/members.ts';
import { memberProjectsOf } from '../access/project-reach.ts';
import { type StartedGroupSearch, visibleGroupsPage } from '../groups/group-lists.ts';
import { readSubtrees } from '../groups/group-tree.ts';
import { listIssues, type StoredIssue, usersOfPage } from '../issuables/issues.ts';
import { listMergeRequests, type StoredMergeRequest } from '../issuables/merge-requests.ts';
import { decodeProject, getProjectsRaw, withProjectCounters } from '../projects/project-items.ts';
import { type StartedProjectList, startProjectList, visibleProjectsPage } from '../projects/project-pages.ts';
import { tree } from '../table/keys.ts';
import type { ListPage } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { getUsers, listUsers } from '../users/users.ts';
import { searchProjects } from './project-search.ts';

const created = (sort: 'asc' | 'desc') => ({ order_by: 'created_at' as const, sort });

// Projects ------------------------------------------------------------------------------------------

/** Reads begun beside authentication for a project search (the index's candidates). */
export const startProjectSearch = (term: string, ahead: CredentialBatch) =>
  startProjectList({ search: term, simple: true }, ahead);

/** A group's project search begun beside authentication: the candidates' items are read as soon as known. */
export type StartedGroupProjectSearch = StartedProjectList & { candidates?: Promise<Raw[]> };

/**
 * Reads begun beside authentication for a group's project search: the index's candidates, then
 * their items at once (beside the group's access check; nothing is handed on before it).
 */
export const startGroupProjectSearch = (
  term: string,
  ahead: CredentialBatch,
): Promise<StartedGroupProjectSearch> =>
  startProjectSearch(term, ahead).then((started) => {
    if (!started.candidateIds) return started;
    const candidates = getProjectsRaw(started.candidateIds);
    candidates.catch(() => undefined);
    return { ...started, candidates };
  });

/** GET /search?scope=projects: GET /projects?search=…&simple=true, newest first unless asked. */
export const searchVisibleProjects = (
  term: string,
  sort: 'asc' | 'desc',
  caller: Caller,
  page: PageRequest,
  started: Promise<StartedProjectList>,
): Promise<ProjectPage> =>
  visibleProjectsPage({ search: term, simple: true, ...created(sort) }, caller, page, started);

/**
 * The projects of a group and its subgroups that match and that the caller may see: the index's
 * candidates kept when they sit under the group, or (a term too common for the index) the
 * subtree's projects read from the tree index. The candidates and, when this container knew the
 * caller, their membership lists come from reads started beside authentication.
 */
export async function searchGroupProjects(
  group: Group,
  term: string,
  sort: 'asc' | 'desc',
  caller: Caller,
  page: PageRequest,
  started: Promise<StartedGroupProjectSearch>,
): Promise<ListPage<Project>> {
  const { memberships, candidateIds, candidates } = await started;
  const levels = membershipLevelsOf(
    caller.id,
    memberships?.userId === caller.id ? Promise.resolve(memberships) : undefined,
  );
  const inGroup = (project: Project) =>
    project.namespace.group_ids.includes(group.id) && projectMatchesSearch(project, term);
  if (candidateIds)
    return searchProjects({
      caller,
      candidateIds,
      candidates,
      filter: inGroup,
      order: 'created_at',
      sort,
      page,
      levels,
    });
  const projects = (await readableSubtreeProjects(group, caller, levels)).filter(inGroup);
  const found = pageByCreated(projects, sort, page);
  return { ...found, items: await withProjectCounters(found.items) };
}

/** Every project of the group's subtree the caller may read. */
async function readableSubtreeProjects(
  group: Group,
  caller: Caller,
  levels: ReturnType<typeof membershipLevelsOf>,
): Promise<Project[]> {
  const place = { id: group.id, ancestor_ids: group.ancestor_ids };
  const raw = (
    await Promise.all(VISIBILITIES.map((visibility) => readSubtrees([place], tree.projects(visibility))))
  ).flat();
  const projects = raw.filter((item) => item.kind === 'project' && !item.deleting).map(decodeProject);
  const access = await accessFromLevels(caller.id, projects, levels);
  return projects.filter((project) => canReadProject(project, caller, access.get(project.id) ?? NO_ACCESS));
}

function pageByCreated<T extends { id: number; created_at: string }>(
  items: T[],
  sort: 'asc' | 'desc',
  page: PageRequest,
): ListPage<T> {
  const direction = sort === 'asc' ? 1 : -1;
  const sorted = [...items].sort(
    (a, b) => direction * (a.created_at.localeCompare(b.created_at) || a.id - b.id),
  );
  const offset = offsetOf(page);
  return { items: sorted.slice(offset, offset + page.perPage), total: sorted.length };
}

// Users and groups ------------------------------------------------------------------------------------

/** GET /search?scope=users: GET /users?search=…, newest first. */
export const searchUsers = (term: string, caller: Caller, page: PageRequest) =>
  listUsers({ page, filter: (user) => userMatchesSearch(user, term, caller.admin) });

/**
 * A group's member ids, its ancestors' included (GitLab's inherited members), read as soon as the
 * group's item is, beside the caller's access check; handed on only once the group is authorized.
 */
export function startGroupUserSearch(item: Promise<Raw | undefined>): Promise<number[]> {
  const read = item.then(async (found) => {
    if (!found) return [];
    const lineage = [...((found.ancestor_ids as number[] | undefined) ?? []), Number(found.id)];
    return (await Promise.all(lineage.map(readMemberIds))).flat();
  });
  read.catch(() => undefined);
  return read;
}

/** The users among the group's members matching `term`, newest first (GitLab's UsersFinder order). */
export async function searchGroupUsers(memberIds: Promise<number[]>, term: string): Promise<User[]> {
  const users = await getUsers([...new Set(await memberIds)]);
  return [...users.values()].filter((user) => memberMatchesQuery(user, term)).sort((a, b) => b.id - a.id);
}

async function readMemberIds(groupId: number): Promise<number[]> {
  const members = await listGroupMembers(groupId);
  return members.filter((member) => isMembershipActive(member.expires_at)).map((member) => member.user_id);
}

/**
 * GET /search?scope=groups: every group the caller may see (GET /groups?all_available=true&search=…),
 * through the index's candidates when the search begun by startGroupSearch (`started`) has them.
 */
export const searchVisibleGroups = (
  term: string,
  caller: Caller,
  page: PageRequest,
  started?: Promise<StartedGroupSearch | undefined>,
) =>
  visibleGroupsPage(
    { all_available: true },
    caller,
    page,
    (group) => groupMatchesSearch(group, term),
    started,
  );

// Issues and merge requests ---------------------------------------------------------------------------

/** The projects an issue or merge request search covers, with the caller's access to each. */
export interface SearchedProjects {
  projects: Project[];
  access: Map<number, ProjectAccess>;
}

/** Top level: the projects the caller reaches through their memberships. */
export async function memberProjectsForSearch(caller: Caller): Promise<SearchedProjects> {
  const reached = await memberProjectsOf(caller.id);
  const projects = reached.raw.filter((item: Raw) => !item.deleting).map(decodeProject);
  const access = await accessFromLevels(caller.id, projects, Promise.resolve(reached.memberships));
  return { projects, access };
}

/** In a group: the readable projects of its subtree. */
export async function groupProjectsForSearch(group: Group, caller: Caller): Promise<SearchedProjects> {
  const levels = membershipLevelsOf(caller.id);
  const projects = await readableSubtreeProjects(group, caller, levels);
  return { projects, access: await accessFromLevels(caller.id, projects, levels) };
}

export interface IssueSearch {
  term: string;
  state: 'opened' | 'closed' | 'all';
  confidential?: boolean;
  sort: 'asc' | 'desc';
  page: PageRequest;
}

/** Whole-list reads of the search: every match of each project, then one page of them all. */
const WHOLE: PageRequest = { page: 1, perPage: Number.MAX_SAFE_INTEGER };

/** Matching issues in the given projects, as each project's issue list shows them to the caller. */
export async function searchIssues(
  searched: SearchedProjects,
  caller: Caller,
  query: IssueSearch,
  page: PageRequest = query.page,
  onPage?: (issues: StoredIssue[]) => void,
): Promise<ListPage<StoredIssue>> {
  const filter: IssueFilter = { state: query.state, search: query.term, confidential: query.confidential };
  const parts = await Promise.all(
    searched.projects.map((project) => {
      const context = { project, caller, access: searched.access.get(project.id) ?? NO_ACCESS };
      if (!canReadProject(project, caller, context.access) || !listsIssues(context))
        return { items: [], total: 0 };
      return listIssues(project.id, {
        filter,
        order: 'created_at',
        sort: query.sort,
        page: searched.projects.length === 1 ? page : WHOLE,
        hidesConfidentialFrom: seesConfidentialIssues(context) ? undefined : caller.id,
        // One project's list is the page itself: its users are read beside its counters.
        ...(searched.projects.length === 1 ? { onPage } : {}),
      });
    }),
  );
  if (searched.projects.length === 1) return parts[0] as ListPage<StoredIssue>;
  return mergedPage(parts, query.sort, page);
}

export interface MergeRequestSearch {
  term: string;
  state?: 'opened' | 'closed' | 'merged' | 'all';
  sort: 'asc' | 'desc';
  page: PageRequest;
}

/** Matching merge requests in the given projects the caller may read merge requests of. */
export async function searchMergeRequests(
  searched: SearchedProjects,
  caller: Caller,
  query: MergeRequestSearch,
): Promise<ListPage<StoredMergeRequest> & { users: Map<number, User> }> {
  const filter: MergeRequestFilter = { state: query.state, search: query.term };
  const single = searched.projects.length === 1;
  const parts = await Promise.all(
    searched.projects.map((project) => {
      const context = { project, caller, access: searched.access.get(project.id) ?? NO_ACCESS };
      if (!canReadMergeRequests(context))
        return { items: [] as StoredMergeRequest[], total: 0, users: new Map<number, User>() };
      return listMergeRequests(project.id, {
        filter,
        order: 'created_at',
        sort: query.sort,
        page: single ? query.page : WHOLE,
        viewerId: caller.id,
      });
    }),
  );
  const users = new Map(parts.flatMap((part) => [...part.users]));
  if (single) return { ...(parts[0] as ListPage<StoredMergeRequest>), users };
  return { ...mergedPage(parts, query.sort, query.page), users };
}

/** One page of several projects' matches, newest first unless asked (ties by id). */
function mergedPage<T extends { id: number; created_at: string }>(
  parts: ListPage<T>[],
  sort: 'asc' | 'desc',
  page: PageRequest,
): ListPage<T> {
  const result = pageByCreated(
    parts.flatMap((part) => part.items),
    sort,
    page,
  );
  // A project whose list was too long to count leaves the total unknown, as the lists do.
  return parts.some((part) => part.total === undefined) ? { ...result, total: undefined } : result;
}

/** What an issue or merge request search found, with what their entities show. */
export type FoundIssuables = (
  | { kind: 'issues'; items: StoredIssue[] }
  | { kind: 'merge_requests'; items: StoredMergeRequest[] }
) & {
  total: number | undefined;
  users: Map<number, User>;
  projects: Map<number, Project>;
};

/** An issue or merge request search in the given projects, with the users their entities show. */
export async function searchIssuables(
  scope: 'issues' | 'merge_requests',
  input: { search: string; state?: SearchState; confidential?: boolean; sort?: string },
  searched: SearchedProjects,
  caller: Caller,
  page: PageRequest,
): Promise<FoundIssuables> {
  const projects = new Map(searched.projects.map((project) => [project.id, project]));
  const sort = searchSort(input.sort);
  if (scope === 'merge_requests') {
    const found = await searchMergeRequests(searched, caller, {
      term: input.search,
      state: input.state,
      sort,
      page,
    });
    return { kind: 'merge_requests', ...found, projects };
  }
  const state = issueSearchState(input.state);
  if (state === undefined) return { kind: 'issues', items: [], total: 0, users: new Map(), projects };
  const pageUsers = usersOfPage();
  const found = await searchIssues(
    searched,
    caller,
    { term: input.search, state, confidential: input.confidential, sort, page },
    page,
    pageUsers.onPage,
  );
  const users = await pageUsers.users(found.items);
  return { kind: 'issues', ...found, users, projects };
}
