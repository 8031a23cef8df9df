/**
 * A project's issue and merge request lists as their routes read them. The filters that name things
 * (a milestone by title, the caller's reaction by emoji) are resolved against reads of their own;
 * those reads and, when labels are shown in full, the labels of the project and its groups start
 * together, and the page follows once its filters are resolved.
 */
import type { IssueFilter } from '#domain/issues.ts';
import { type Label, projectLabelOwners } from '#domain/labels.ts';
import type { MergeRequestFilter } from '#domain/merge-requests.ts';
import { type MilestoneMatch, milestoneMatch, projectMilestoneOwners } from '#domain/milestones.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import { filtersByReaction, type ReactionMatch, reactionMatch } from '#domain/reactions.ts';
import { readLabels } from '../labels/labels.ts';
import type { Raw } from '../table/raw.ts';
import { readOwnAwardsInProject } from './award-emoji.ts';
import { listIssuesWithUsers } from './issues.ts';
import { listMergeRequestsWithMilestones } from './merge-request-items.ts';
import { readMilestones } from './milestones.ts';

/** A list's filters as sent: the milestone by title and the reaction by emoji, the rest as matched. */
type SentFilter<F> = Omit<F, 'milestones' | 'reaction'> & { milestone?: string; my_reaction_emoji?: string };

/** What a project's list is asked for. */
interface ProjectListQuery<F> {
  filter: SentFilter<F>;
  order: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  page: PageRequest;
  /** The caller (none when anonymous): whose reactions the reaction filter names. */
  viewerId: number | undefined;
  /** Whether labels are shown in full: the labels available to the project are read beside the page. */
  withLabels: boolean;
}

interface ResolvedFilter {
  milestones: MilestoneMatch | undefined;
  reaction: ReactionMatch | undefined;
}

/**
 * Reads the page with the sent filters resolved: the project's usable milestones when a milestone
 * is named and the caller's awards when a reaction is, started beside the labels (when wanted).
 */
async function pageWithLabels<P>(
  project: Project,
  query: ProjectListQuery<unknown>,
  type: 'Issue' | 'MergeRequest',
  readPage: (resolved: ResolvedFilter) => Promise<P>,
): Promise<P & { labels: Label[] | undefined }> {
  const { milestone, my_reaction_emoji: reaction } = query.filter;
  const viewerId = query.viewerId;
  const filtered = async () => {
    const [usable, awards] = await Promise.all([
      milestone === undefined ? [] : readMilestones(projectMilestoneOwners(project, true)),
      viewerId !== undefined && filtersByReaction(reaction, viewerId)
        ? readOwnAwardsInProject(project.id, viewerId)
        : [],
    ]);
    return readPage({
      milestones: milestoneMatch(milestone, usable),
      reaction: reactionMatch(reaction, viewerId, awards, type),
    });
  };
  const [page, labels] = await Promise.all([
    filtered(),
    query.withLabels ? readLabels(projectLabelOwners(project, true)) : undefined,
  ]);
  return { ...page, labels };
}

/**
 * A page of a project's issues, filtered as sent, with the users and milestones they show and,
 * when asked, the labels available to the project. Confidential issues are left out as
 * `hidesConfidentialFrom` says (see IssueListQuery).
 */
export const listProjectIssues = (
  project: Project,
  query: ProjectListQuery<IssueFilter> & {
    hidesConfidentialFrom: number | 'anonymous' | undefined;
    /** The list's counter shards read ahead (`issueListCountKeys`), among other items. */
    countRead?: Raw[];
  },
) =>
  pageWithLabels(project, query, 'Issue', (resolved) =>
    listIssuesWithUsers(project, {
      filter: { ...query.filter, ...resolved },
      order: query.order,
      sort: query.sort,
      page: query.page,
      hidesConfidentialFrom: query.hidesConfidentialFrom,
      countRead: query.countRead,
    }),
  );

/**
 * A page of a project's merge requests, filtered as sent, with the users and milestones they show
 * and, when asked, the labels available to the project.
 */
export const listProjectMergeRequests = (project: Project, query: ProjectListQuery<MergeRequestFilter>) =>
  pageWithLabels(project, query, 'MergeRequest', (resolved) =>
    listMergeRequestsWithMilestones(project, {
      filter: { ...query.filter, ...resolved },
      order: query.order,
      sort: query.sort,
      page: query.page,
      viewerId: query.viewerId,
    }),
  );
