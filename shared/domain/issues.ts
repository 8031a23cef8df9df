/** Project issues: the stored shape, the changes a request makes and the entity GitLab presents. */
import { validationFailed } from './errors.ts';
import { labelsMatch } from './labels.ts';
import {
  carriesMatchingMilestone,
  issuableMilestone,
  type Milestone,
  type MilestoneMatch,
} from './milestones.ts';
import type { Project } from './projects.ts';
import { passesReaction, type ReactionMatch } from './reactions.ts';
import { type User, userBasicOrGhost } from './users.ts';

export type IssueState = 'opened' | 'closed';
export const ISSUE_STATES = ['opened', 'closed'] as const;

export interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: IssueState;
  confidential: boolean;
  labels: string[];
  assignee_ids: number[];
  author_id: number;
  closed_at: string | null;
  closed_by_id: number | null;
  due_date: string | null;
  discussion_locked: boolean | null;
  created_at: string;
  updated_at: string;
  /** Who changed it last (absent until a first change); the actor of its webhook events. */
  updated_by_id?: number;
  /** Counted by ADD in the same transaction as each note (see store/issuables/notes.ts). */
  user_notes_count: number;
  /** Its `thumbsup` and `thumbsdown` awards, counted with each award (store/issuables/award-emoji.ts). */
  upvotes?: number;
  downvotes?: number;
  /** The milestone it carries (its project's or a group's above it), read with the issue when shown. */
  milestone_id?: number | null;
}

/** GitLab's Issue validates its title to 255 characters and its description to 1,000,000. */
export const ISSUE_TITLE_MAX_LENGTH = 255;
export const ISSUE_DESCRIPTION_MAX_LENGTH = 1_000_000;

export interface IssueFields {
  title?: string;
  description?: string;
  confidential?: boolean;
  labels?: string[];
  assignee_ids?: number[];
  /** The older single-assignee parameter, used when `assignee_ids` is not sent. */
  assignee_id?: number;
  due_date?: string;
  discussion_locked?: boolean;
  /** A milestone the project may use, or null to remove it (resolved before the fields are set). */
  milestone_id?: number | null;
}

/** GitLab's cap on an issue's assignees, and its sentence (`{"message": {"assignees": [...]}}`). */
export const MAX_ISSUE_ASSIGNEES = 200;

function assigneesOf(input: IssueFields): number[] | undefined {
  const ids =
    input.assignee_ids !== undefined
      ? [...new Set(input.assignee_ids)]
      : input.assignee_id !== undefined
        ? [input.assignee_id]
        : undefined;
  if (ids && ids.length > MAX_ISSUE_ASSIGNEES)
    throw validationFailed({ assignees: [`total must be less than or equal to ${MAX_ISSUE_ASSIGNEES}`] });
  return ids;
}

export type NewIssue = Omit<Issue, 'id' | 'iid' | 'created_at' | 'updated_at'>;

export function newIssueFrom(
  input: IssueFields & { title: string },
  projectId: number,
  authorId: number,
): NewIssue {
  return {
    project_id: projectId,
    title: input.title,
    description: input.description ?? null,
    state: 'opened',
    confidential: input.confidential ?? false,
    labels: uniqueLabels(input.labels ?? []),
    assignee_ids: assigneesOf(input) ?? [],
    author_id: authorId,
    closed_at: null,
    closed_by_id: null,
    due_date: input.due_date ?? null,
    discussion_locked: input.discussion_locked ?? null,
    user_notes_count: 0,
    // Kept only when set, as an issue without one has never carried the attribute.
    ...(typeof input.milestone_id === 'number' && { milestone_id: input.milestone_id }),
  };
}

/** Labels as GitLab keeps them: trimmed, no blanks, each once. */
export const uniqueLabels = (labels: readonly string[]) => [
  ...new Set(labels.map((label) => label.trim()).filter((label) => label.length > 0)),
];

/** Parameters only reporters and up set (others' are dropped, as GitLab's services do). */
const METADATA = [
  'labels',
  'assignee_ids',
  'assignee_id',
  'due_date',
  'discussion_locked',
  'milestone_id',
] as const;

/** The fields a caller may set: without the metadata unless they may set it. */
export function settableIssueFields<T extends IssueFields>(input: T, setsMetadata: boolean): T {
  if (setsMetadata) return input;
  const kept = { ...input };
  for (const name of METADATA) delete kept[name];
  return kept;
}

/** The fields a PUT changes (only those sent). */
export function issueChanges(input: IssueFields): Partial<Issue> {
  const changes: Partial<Issue> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.confidential !== undefined) changes.confidential = input.confidential;
  if (input.labels !== undefined) changes.labels = uniqueLabels(input.labels);
  const assignees = assigneesOf(input);
  if (assignees !== undefined) changes.assignee_ids = assignees;
  if (input.due_date !== undefined) changes.due_date = input.due_date;
  if (input.discussion_locked !== undefined) changes.discussion_locked = input.discussion_locked;
  if (input.milestone_id !== undefined) changes.milestone_id = input.milestone_id;
  return changes;
}

export interface IssueFilter {
  state?: 'opened' | 'closed' | 'all';
  labels?: string[];
  search?: string;
  confidential?: boolean;
  author_id?: number;
  assignee_id?: number;
  iids?: number[];
  /** The `milestone` filter, resolved among the milestones the project may use. */
  milestones?: MilestoneMatch;
  /** The `my_reaction_emoji` filter, resolved among the caller's awards. */
  reaction?: ReactionMatch;
}

/** Whether an issue passes the list filters other than state (state picks the list read). */
export function issueMatches(issue: Issue, filter: IssueFilter): boolean {
  if (!labelsMatch(issue.labels, filter.labels)) return false;
  if (filter.confidential !== undefined && issue.confidential !== filter.confidential) return false;
  if (filter.author_id !== undefined && issue.author_id !== filter.author_id) return false;
  if (filter.assignee_id !== undefined && !issue.assignee_ids.includes(filter.assignee_id)) return false;
  if (filter.iids?.length && !filter.iids.includes(issue.iid)) return false;
  if (filter.milestones && !carriesMatchingMilestone(issue.milestone_id, filter.milestones)) return false;
  if (!passesReaction(issue.id, filter.reaction)) return false;
  if (filter.search) {
    const term = filter.search.toLowerCase();
    const text = `${issue.title}\n${issue.description ?? ''}`.toLowerCase();
    if (!text.includes(term)) return false;
  }
  return true;
}

/** Whether the list needs filtering beyond the state's list. */
export const filtersIssues = (filter: IssueFilter) =>
  Boolean(
    filter.labels?.length ||
      filter.search ||
      filter.confidential !== undefined ||
      filter.author_id !== undefined ||
      filter.assignee_id !== undefined ||
      filter.iids?.length ||
      filter.milestones ||
      filter.reaction,
  );

/** The users an issue shows: its author, assignees and who closed it. */
export const issueUserIds = (issue: Issue) => [
  issue.author_id,
  ...issue.assignee_ids,
  ...(issue.closed_by_id === null ? [] : [issue.closed_by_id]),
];

export function issueEntity(
  issue: Issue,
  project: Project,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
  milestones: ReadonlyMap<number, Milestone> = new Map(),
) {
  const self = `${baseUrl}/api/v4/projects/${project.id}/issues/${issue.iid}`;
  const assignees = issue.assignee_ids.map((id) => userBasicOrGhost(users, id, baseUrl));
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    closed_by: issue.closed_by_id === null ? null : userBasicOrGhost(users, issue.closed_by_id, baseUrl),
    labels: issue.labels,
    milestone: issuableMilestone(issue.milestone_id, project, milestones, baseUrl),
    assignees,
    author: userBasicOrGhost(users, issue.author_id, baseUrl),
    assignee: assignees[0] ?? null,
    user_notes_count: issue.user_notes_count,
    merge_requests_count: 0,
    upvotes: issue.upvotes ?? 0,
    downvotes: issue.downvotes ?? 0,
    due_date: issue.due_date,
    confidential: issue.confidential,
    discussion_locked: issue.discussion_locked,
    web_url: `${baseUrl}/${project.path_with_namespace}/issues/${issue.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    weight: null,
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${baseUrl}/api/v4/projects/${project.id}`,
    },
    subscribed: false,
  };
}

/** GitLab's IssueBasic (lists that are not the issues API's own, such as a milestone's): the Issue entity but `subscribed`. */
export function issueBasicEntity(...presented: Parameters<typeof issueEntity>) {
  const { subscribed, ...basic } = issueEntity(...presented);
  return basic;
}
