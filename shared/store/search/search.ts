/**
 * The search API's reads: each scope through the list or index that already answers the
 * matching list endpoint (GET /projects?search, /users?search, /groups?search, a project's issues
 * and merge requests with `search`), with the same visibility rules.
 *
 * Issues and merge requests across projects have no index: they are searched in a bounded set of
 * projects, each project's list read (filtered, up to the lists' counting cap) in one parallel
 * round — at the top level the projects the reader reaches through their memberships (so neither
 * public projects they are no member of nor, for admins, every project), in a group the readable
 * projects of its subtree.
 */

import { VISIBILITIES } from '#domain/access.ts';
import type { Group } from '#domain/groups.ts';
import { groupMatchesSearch } from '#domain/groups.ts';
import type { IssueFilter } from '#domain/issues.ts';
import { isMembershipActive, memberMatchesQuery } from '#domain/members.ts';
import type { MergeRequestFilter } from '#domain/merge-requests.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import { NO_ACCESS, type Project, type ProjectAccess, projectMatchesSearch } from '#domain/projects.ts';
import { type ReadScope, readsProject } from '#domain/read-scope.ts';
import { issueSearchState, type SearchState, searchSort } from '#domain/search.ts';
import { type IssuableSearchRules, matchesPrivateEmails } from '#domain/search-policy.ts';
import type { User } from '#domain/users.ts';
import { userMatchesSearch } from '#domain/users.ts';
import {
  accessFromLevels,
  type CredentialBatch,
  type KnownLevels,
  type MembershipLists,
  membershipLevelsOf,
} from '../access/access.ts';
import { listGroupMembers } from '../access/members.ts';
import { memberProjectsOf } from '../access/project-reach.ts';
import { type StartedGroupSearch, visibleGroupsPage } from '../groups/group-lists.ts';
import { readSubtrees } from '../groups/group-tree.ts';
import { listIssues, type StoredIssue, usersOfPage } from '../issuables/issues.ts';
import { listMergeRequests, type StoredMergeRequest } from '../issuables/merge-request-items.ts';
import { decodeProject, getProjectsRaw, withProjectCounters } from '../projects/project-items.ts';
import { type StartedProjectList, startProjectList, visibleProjectsPage } from '../projects/project-pages.ts';
import type { ListPage } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { tree } from '../table/tree-keys.ts';
import { getUsers, listUsers } from '../users/users.ts';
import { searchProjects } from './project-search.ts';

const created = (sort: 'asc' | 'desc') => ({ order_by: 'created_at' as const, sort });

/** The reader's access to each project, from their membership levels; an anonymous reader has none. */
const accessOf = (
  scope: ReadScope,
  projects: Project[],
  levels: Promise<KnownLevels> | undefined,
): Promise<Map<number, ProjectAccess>> =>
  scope.memberId === undefined
    ? Promise.resolve(new Map())
    : accessFromLevels(scope.memberId, projects, levels);

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
  scope: ReadScope,
  page: PageRequest,
  started: Promise<StartedProjectList>,
): Promise<ProjectPage> =>
  visibleProjectsPage({ search: term, simple: true, ...created(sort) }, scope, page, started);

/**
 * The projects of a group and its subgroups that match and that the reader may see: the index's
 * candidates kept when they sit under the group, or (a term too common for the index) the
 * subtree's projects read from the tree index. The candidates and, when this container knew the
 * reader, their membership lists come from reads started beside authentication.
 */
export async function searchGroupProjects(
  group: Group,
  term: string,
  sort: 'asc' | 'desc',
  scope: ReadScope,
  page: PageRequest,
  started: Promise<StartedGroupProjectSearch>,
): Promise<ListPage<Project>> {
  const { memberships, candidateIds, candidates } = await started;
  const levels = levelsOf(scope, memberships?.userId === scope.memberId ? memberships : undefined);
  const inGroup = (project: Project) =>
    project.namespace.group_ids.includes(group.id) && projectMatchesSearch(project, term);
  if (candidateIds)
    return searchProjects({
      scope,
      candidateIds,
      candidates,
      filter: inGroup,
      order: 'created_at',
      sort,
      page,
      levels,
    });
  const projects = (await readableSubtreeProjects(group, scope, levels)).filter(inGroup);
  const found = pageByCreated(projects, sort, page);
  return { ...found, items: await withProjectCounters(found.items) };
}

/** The reader's membership levels, being read (from `known` when read already); none when anonymous. */
const levelsOf = (scope: ReadScope, known?: MembershipLists): Promise<KnownLevels> | undefined =>
  scope.memberId === undefined
    ? undefined
    : membershipLevelsOf(scope.memberId, known ? Promise.resolve(known) : undefined);

/** Every project of the group's subtree the reader may read. */
async function readableSubtreeProjects(
  group: Group,
  scope: ReadScope,
  levels: Promise<KnownLevels> | undefined,
): Promise<Project[]> {
  const place = { id: group.id, ancestor_ids: group.ancestor_ids };
  const raw = (
    await Promise.all(VISIBILITIES.map((visibility) => readSubtrees([place], tree.projects(visibility))))
  ).flat();
  const projects = raw.filter((item) => item.kind === 'project' && !item.deleting).map(decodeProject);
  const access = await accessOf(scope, projects, levels);
  return projects.filter((project) => readsProject(scope, project, access.get(project.id) ?? NO_ACCESS));
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
export const searchUsers = (term: string, scope: ReadScope, page: PageRequest) =>
  listUsers({ page, filter: (user) => userMatchesSearch(user, term, matchesPrivateEmails(scope)) });

/**
 * A group's member ids, its ancestors' included (GitLab's inherited members), read as soon as the
 * group's item is, beside the reader's access check; handed on only once the group is authorized.
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
 * GET /search?scope=groups: every group the reader may see (GET /groups?all_available=true&search=…),
 * through the index's candidates when the search begun by startGroupSearch (`started`) has them.
 */
export const searchVisibleGroups = (
  term: string,
  scope: ReadScope,
  page: PageRequest,
  started?: Promise<StartedGroupSearch | undefined>,
) =>
  visibleGroupsPage(
    { all_available: true },
    scope,
    page,
    (group) => groupMatchesSearch(group, term),
    started,
  );

// Issues and merge requests ---------------------------------------------------------------------------

/** The projects an issue or merge request search covers, with the reader's access to each. */
export interface SearchedProjects {
  projects: Project[];
  access: Map<number, ProjectAccess>;
}

/** Top level: the projects the reader reaches through their memberships (none when anonymous). */
export async function memberProjectsForSearch(scope: ReadScope): Promise<SearchedProjects> {
  if (scope.memberId === undefined) return { projects: [], access: new Map() };
  const reached = await memberProjectsOf(scope.memberId);
  const projects = reached.raw.filter((item: Raw) => !item.deleting).map(decodeProject);
  const access = await accessOf(scope, projects, Promise.resolve(reached.memberships));
  return { projects, access };
}

/** In a group: the readable projects of its subtree. */
export async function groupProjectsForSearch(group: Group, scope: ReadScope): Promise<SearchedProjects> {
  const levels = levelsOf(scope);
  const projects = await readableSubtreeProjects(group, scope, levels);
  return { projects, access: await accessOf(scope, projects, levels) };
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

/** Matching issues in the given projects, as each project's issue list shows them to the reader. */
export async function searchIssues(
  searched: SearchedProjects,
  rules: IssuableSearchRules,
  query: IssueSearch,
  page: PageRequest = query.page,
  onPage?: (issues: StoredIssue[]) => void,
): Promise<ListPage<StoredIssue>> {
  const filter: IssueFilter = { state: query.state, search: query.term, confidential: query.confidential };
  const parts = await Promise.all(
    searched.projects.map((project) => {
      const issues = rules.issuesIn(project, searched.access.get(project.id) ?? NO_ACCESS);
      if (!issues) return { items: [], total: 0 };
      return listIssues(project.id, {
        filter,
        order: 'created_at',
        sort: query.sort,
        page: searched.projects.length === 1 ? page : WHOLE,
        hidesConfidentialFrom: issues.hidesConfidentialFrom,
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

/** Matching merge requests in the given projects the reader may read merge requests of. */
export async function searchMergeRequests(
  searched: SearchedProjects,
  rules: IssuableSearchRules,
  query: MergeRequestSearch,
): Promise<ListPage<StoredMergeRequest> & { users: Map<number, User> }> {
  const filter: MergeRequestFilter = { state: query.state, search: query.term };
  const single = searched.projects.length === 1;
  const parts = await Promise.all(
    searched.projects.map((project) => {
      if (!rules.mergeRequestsIn(project, searched.access.get(project.id) ?? NO_ACCESS))
        return { items: [] as StoredMergeRequest[], total: 0, users: new Map<number, User>() };
      return listMergeRequests(project.id, {
        filter,
        order: 'created_at',
        sort: query.sort,
        page: single ? query.page : WHOLE,
        viewerId: rules.viewerId,
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
  rules: IssuableSearchRules,
  page: PageRequest,
): Promise<FoundIssuables> {
  const projects = new Map(searched.projects.map((project) => [project.id, project]));
  const sort = searchSort(input.sort);
  if (scope === 'merge_requests') {
    const found = await searchMergeRequests(searched, rules, {
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
    rules,
    { term: input.search, state, confidential: input.confidential, sort, page },
    page,
    pageUsers.onPage,
  );
  const users = await pageUsers.users(found.items);
  return { kind: 'issues', ...found, users, projects };
}
