/**
 * The project lists as endpoints ask for them: one call per list that reads the page and the
 * reader's access to each project on it (for `permissions`), each read started as soon as what
 * it needs is known, so a page costs the round trips of its longest chain and no more.
 */

import { ACCESS } from '#domain/access.ts';
import { notFound } from '#domain/errors.ts';
import type { Group } from '#domain/groups.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { type ProjectListParams, projectListFilter } from '#domain/project-lists.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import type { Project, ProjectAccess } from '#domain/projects.ts';
import { type ReadScope, seesAllOfGroup, seesAllOfUser } from '#domain/read-scope.ts';
import { searchKeysForTerm } from '#domain/search.ts';
import type { User } from '#domain/users.ts';
import {
  accessFromLevels,
  type CredentialBatch,
  type KnownLevels,
  type MembershipLists,
  membershipLevelsOf,
  readMembershipLists,
} from '../access/access.ts';
import {
  listReachableProjects,
  memberProjectsOf,
  membershipLevelsWithShares,
} from '../access/project-reach.ts';
import { searchProjects } from '../search/project-search.ts';
import { searchCandidateIds } from '../search/search-index.ts';
import { padId } from '../table/keys.ts';
import { lists } from '../table/list-keys.ts';
import { type ListPage, listMerged, type SortRange } from '../table/lists.ts';
import type { Raw } from '../table/raw.ts';
import { decodeProject } from './project-items.ts';
import { listNamespaceProjects, type ProjectOrder, startMemberView } from './project-lists.ts';
import { projectListScope } from './project-scope.ts';
import { starredProjectIds } from './project-stars.ts';

/** What a project list request asks for, beside the filters. */
export interface ProjectListRequest extends ProjectListParams {
  order_by?: ProjectOrder;
  sort?: 'asc' | 'desc';
  simple?: boolean;
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  min_access_level?: number;
}

/** Reads begun beside authentication (see startProjectList). */
export interface StartedProjectList {
  memberships: MembershipLists | undefined;
  candidateIds: number[] | undefined;
}

/** The page with the reader's access to each project, read from `levels` where known. */
async function withAccess(
  page: ListPage<Project>,
  scope: ReadScope,
  levels: Promise<KnownLevels> | undefined,
): Promise<ProjectPage> {
  const memberId = scope.memberId;
  const access =
    levels && memberId !== undefined ? await accessFromLevels(memberId, page.items, levels) : new Map();
  return { ...page, access: access as Map<number, ProjectAccess> };
}

/** Lists narrowed to the reader's own sets (read from those sets, not from the whole lists). */
const narrowed = (input: ProjectListRequest) =>
  Boolean(input.owned || input.membership || input.starred || input.min_access_level !== undefined);

/**
 * GET /projects' reads that need no reader: the likely reader's membership lists when this
 * container knows whose credential it is, and a search's candidates from the index.
 */
export async function startProjectList(
  input: ProjectListRequest,
  ahead: CredentialBatch,
): Promise<StartedProjectList> {
  const searchKeys = input.search && !narrowed(input) ? searchKeysForTerm(input.search) : [];
  const [memberships, candidateIds] = await Promise.all([
    ahead.likelyUserId === undefined ? undefined : readMembershipLists(ahead.likelyUserId),
    searchKeys.length ? searchCandidateIds(searchKeys) : undefined,
  ]);
  return { memberships, candidateIds };
}

/**
 * One page of GET /projects: the projects the reader may see (see projectListScope), through the
 * search index when a search narrows, or the lists read to the end of the page.
 */
export async function visibleProjectsPage(
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
  started: Promise<StartedProjectList>,
): Promise<ProjectPage> {
  const { memberships: guessed, candidateIds } = await started;
  const memberId = scope.memberId;
  const readAhead =
    memberId !== undefined && guessed?.userId === memberId ? Promise.resolve(guessed) : undefined;
  const order = input.order_by ?? 'created_at';
  const sort = input.sort ?? 'desc';
  const filter = projectListFilter(input, scope);
  const full = memberId !== undefined && !input.simple;
  if (candidateIds && filter) {
    // A search the index narrows: read only its candidates.
    const levels =
      memberId !== undefined && !(scope.seesAll && input.simple)
        ? membershipLevelsWithShares(memberId, readAhead)
        : undefined;
    const result = await searchProjects({ scope, candidateIds, filter, order, sort, page, levels });
    return withAccess(result, scope, full ? levels : undefined);
  }
  if (memberId !== undefined && !scope.seesAll && !narrowed(input) && !filter) {
    // The common case reads every list only to the end of the page.
    const result = await listReachableProjects({
      scope: { ...scope, memberId },
      order,
      sort,
      page,
      memberships: readAhead,
    });
    return withAccess(result, scope, full ? Promise.resolve(result.levels) : undefined);
  }
  // Read beside the list so `permissions` cost no extra round trip.
  const levels = full ? membershipLevelsWithShares(memberId, readAhead) : undefined;
  const covered = projectListScope(scope, {
    owned: input.owned,
    membership: input.membership,
    starred: input.starred,
    minAccessLevel: input.min_access_level,
  });
  const range = boundsOf(input, order);
  if (range === 'empty') return { items: [], total: 0, access: new Map() };
  const result = await listMerged({
    lists: covered.visibilities.map(lists.projectsWithVisibility),
    extra: covered.extra,
    decode: decodeProject,
    order,
    sort,
    page,
    filter: projectListFilter(input, scope, covered.narrowing),
    range,
  });
  return withAccess(result, scope, levels);
}

/** Ids past this have more digits than the stored sort form: no key bound is drawn from them. */
const LARGEST_PADDED_ID = 999_999_999_999;

/**
 * The key range of the id and activity bounds where the list's order is the bounded attribute
 * (`order_by=id` with id_after/id_before, `order_by=last_activity_at` with last_activity_*), so
 * only the items inside are read; 'empty' when no item can be inside, whatever the order. The
 * filter holds the same bounds (see projectListFilter), so any other order is still right, only
 * read whole.
 */
export function boundsOf(input: ProjectListRequest, order: ProjectOrder): SortRange | undefined | 'empty' {
  const lowest = input.id_after === undefined ? undefined : Math.max(input.id_after + 1, 0);
  const highest = input.id_before === undefined ? undefined : input.id_before - 1;
  if (highest !== undefined && (highest < 1 || (lowest !== undefined && lowest > highest))) return 'empty';
  if (lowest !== undefined && lowest > LARGEST_PADDED_ID) return 'empty';
  const { last_activity_after: after, last_activity_before: before } = input;
  // Stored values are the timestamp, U+0000 and the id: past `after` begins above `after` + U+0001;
  // every value of an earlier timestamp sorts below `before` itself.
  const activityFrom = after === undefined ? undefined : `${after}\u0001`;
  if (activityFrom !== undefined && before !== undefined && activityFrom > before) return 'empty';
  if (order === 'id') {
    const from = lowest === undefined ? undefined : padId(lowest);
    const to = highest === undefined || highest > LARGEST_PADDED_ID ? undefined : padId(highest);
    return from === undefined && to === undefined ? undefined : { from, to };
  }
  if (order === 'last_activity_at') {
    return activityFrom === undefined && before === undefined
      ? undefined
      : { from: activityFrom, to: before };
  }
  return undefined;
}

/** Reads of a group's project page started as soon as the group is read, beside the access check. */
export interface GroupProjectsPageReads {
  /** The reader's membership lists, for `permissions`. */
  memberships: Promise<MembershipLists> | undefined;
  /** The page as the group's members see it (startMemberView), for a signed-in reader. */
  memberView: Promise<ListPage<Project> | undefined> | undefined;
}

/** One page of a namespace's projects, in the order and with the filters the request asks for. */
const namespacePage = (
  namespaceId: number,
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
  view: { seesAll: boolean; levels?: Promise<KnownLevels>; narrowing?: ((project: Project) => boolean)[] },
) =>
  listNamespaceProjects({
    namespaceId,
    order: input.order_by ?? 'created_at',
    sort: input.sort ?? 'desc',
    page,
    filter: projectListFilter(input, scope, view.narrowing),
    scope,
    seesAll: view.seesAll,
    levels: view.levels,
  });

/**
 * Starts a group's project page once the group is read: the reader's membership lists and, for a
 * signed-in reader, the page as members see it, so a member's page costs no round trip after the
 * access check (a non-member's wastes that read: per visibility a Query and its total's
 * shards, and the page's rollups).
 */
export function startGroupProjectsPage(
  item: Promise<Raw | undefined>,
  scope: ReadScope,
  input: ProjectListRequest & { include_subgroups?: boolean },
  page: PageRequest,
): GroupProjectsPageReads {
  const memberId = scope.memberId;
  const memberships =
    memberId !== undefined && !input.simple ? item.then(() => readMembershipLists(memberId)) : undefined;
  memberships?.catch(() => undefined);
  const speculate = memberId !== undefined && !input.include_subgroups && !input.starred && !input.owned;
  const memberView = speculate
    ? startMemberView(item, (id) => namespacePage(id, input, scope, page, { seesAll: true }))
    : undefined;
  return { memberships, memberView };
}

/**
 * One page of a group's own projects the reader can see; members read them as one key range
 * (begun beside the access check when `reads` has it).
 */
export async function groupProjectsPage(
  group: Group,
  groupAccess: number,
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
  reads?: GroupProjectsPageReads,
): Promise<ProjectPage> {
  const memberId = scope.memberId;
  const levels =
    memberId !== undefined && !input.simple ? membershipLevelsOf(memberId, reads?.memberships) : undefined;
  const seesAll = seesAllOfGroup(scope, groupAccess);
  const begun = seesAll ? await reads?.memberView : undefined;
  if (begun) return withAccess(begun, scope, levels);
  const narrowing: ((project: Project) => boolean)[] = [];
  if (memberId !== undefined && input.starred) {
    const starred = new Set(await starredProjectIds(memberId));
    narrowing.push((project) => starred.has(project.id));
  }
  if (memberId !== undefined && input.owned) {
    const mine = await memberProjectsOf(memberId);
    narrowing.push((project) => (mine.levels.get(project.id) ?? 0) >= ACCESS.owner);
  }
  const result = await namespacePage(group.id, input, scope, page, { seesAll, levels, narrowing });
  return withAccess(result, scope, levels);
}

/** One page of a user's personal projects that the reader can see. */
export async function userProjectsPage(
  user: Promise<User | undefined>,
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
): Promise<ProjectPage> {
  // Read beside the user so `permissions` cost no extra round trip.
  const memberId = scope.memberId;
  const levels = memberId !== undefined && !input.simple ? membershipLevelsOf(memberId) : undefined;
  const owner = await user;
  if (!owner) throw notFound('User');
  const namespaceId = (owner as { namespace_id?: number }).namespace_id;
  if (namespaceId === undefined) return { items: [], total: 0, access: new Map() };
  const seesAll = seesAllOfUser(scope, owner.id);
  const result = await namespacePage(namespaceId, input, scope, page, { seesAll, levels });
  return withAccess(result, scope, levels);
}
