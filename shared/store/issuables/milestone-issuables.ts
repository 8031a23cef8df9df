/**
 * The issues and merge requests carrying a group milestone: those of the projects of the group and
 * of its subgroups that the reader may read. No index names an issuable's milestone, so the read is
 * bounded by the group's subtree: its readable projects come from the tree index (one Query per
 * visibility, as a group search reads them), then each project's list is read, filtered on the
 * milestone, up to the lists' counting cap, in one parallel round; one page of the matches is kept.
 */
import type { Group } from '#domain/groups.ts';
import type { MergeRequestFilter } from '#domain/merge-requests.ts';
import type { Milestone } from '#domain/milestones.ts';
import { offsetOf, type PageRequest } from '#domain/pagination.ts';
import { NO_ACCESS, type Project } from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import type { IssuableSearchRules } from '#domain/search-policy.ts';
import type { User } from '#domain/users.ts';
import { groupProjectsForSearch } from '../search/search.ts';
import { listIssues, type StoredIssue, usersOfPage } from './issues.ts';
import { listMergeRequests, type StoredMergeRequest } from './merge-request-items.ts';

/** Each project's matches are read whole (up to the lists' cap), then one page of them all is kept. */
const WHOLE: PageRequest = { page: 1, perPage: Number.MAX_SAFE_INTEGER };

/** One issue or merge request of a group milestone's page, with its project. */
export interface InProjectOf<T> {
  item: T;
  project: Project;
}

export interface MilestoneIssuablesPage<T> {
  entries: InProjectOf<T>[];
  /** Undefined when a project's list was too long to count. */
  total: number | undefined;
  users: Map<number, User>;
}

/** Newest first (ties by id), as the milestone's lists show them; one page of them. */
function newestFirst<T extends { id: number; created_at: string }>(
  parts: { items: T[]; total: number | undefined; project: Project }[],
  page: PageRequest,
) {
  const all = parts.flatMap((part) => part.items.map((item) => ({ item, project: part.project })));
  all.sort((a, b) => b.item.created_at.localeCompare(a.item.created_at) || b.item.id - a.item.id);
  const offset = offsetOf(page);
  return {
    entries: all.slice(offset, offset + page.perPage),
    total: parts.some((part) => part.total === undefined) ? undefined : all.length,
  };
}

const carrying = (milestone: Milestone) => ({ ids: new Set([milestone.id]), negate: false });

/** A page of the issues of the group's subtree carrying the milestone, as each project's issue list shows them. */
export async function listGroupMilestoneIssues(
  group: Group,
  milestone: Milestone,
  rules: IssuableSearchRules,
  scope: ReadScope,
  page: PageRequest,
): Promise<MilestoneIssuablesPage<StoredIssue>> {
  const searched = await groupProjectsForSearch(group, scope);
  const parts = await Promise.all(
    searched.projects.map(async (project) => {
      const issues = rules.issuesIn(project, searched.access.get(project.id) ?? NO_ACCESS);
      if (!issues) return { items: [] as StoredIssue[], total: 0, project };
      const found = await listIssues(project.id, {
        filter: { milestones: carrying(milestone) },
        order: 'created_at',
        sort: 'desc',
        page: WHOLE,
        hidesConfidentialFrom: issues.hidesConfidentialFrom,
      });
      return { ...found, project };
    }),
  );
  const result = newestFirst(parts, page);
  const users = await usersOfPage().users(result.entries.map((entry) => entry.item));
  return { ...result, users };
}

/** A page of the merge requests of the group's subtree carrying the milestone, where the reader reads merge requests. */
export async function listGroupMilestoneMergeRequests(
  group: Group,
  milestone: Milestone,
  rules: IssuableSearchRules,
  scope: ReadScope,
  page: PageRequest,
): Promise<MilestoneIssuablesPage<StoredMergeRequest>> {
  const searched = await groupProjectsForSearch(group, scope);
  const filter: MergeRequestFilter = { milestones: carrying(milestone) };
  const parts = await Promise.all(
    searched.projects.map(async (project) => {
      if (!rules.mergeRequestsIn(project, searched.access.get(project.id) ?? NO_ACCESS))
        return { items: [] as StoredMergeRequest[], total: 0, users: new Map<number, User>(), project };
      const found = await listMergeRequests(project.id, {
        filter,
        order: 'created_at',
        sort: 'desc',
        page: WHOLE,
        viewerId: rules.viewerId,
      });
      return { ...found, project };
    }),
  );
  // Each project's list came with the users its matches show.
  const users = new Map(parts.flatMap((part) => [...part.users]));
  return { ...newestFirst(parts, page), users };
}
