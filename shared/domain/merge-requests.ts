/** Project merge requests: the stored shape, the changes a request makes and the entity GitLab presents. */
import { ACCESS } from './access.ts';
import { ApiError, badRequest, conflict, validationFailed } from './errors.ts';
import {
  carriesMatchingMilestone,
  issuableMilestone,
  type Milestone,
  type MilestoneMatch,
} from './milestones.ts';
import { atLeastOneOf } from './params.ts';
import type { Project, ProjectAccess } from './projects.ts';
import {
  branchProtectionRefusal,
  isProtected,
  type ProtectedBranch,
  protectionLevelOf,
} from './protected-branches.ts';
import { passesReaction, type ReactionMatch } from './reactions.ts';
import { canPushCode } from './repository.ts';
import { type Caller, type User, userBasicOrGhost } from './users.ts';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';
export const MERGE_REQUEST_STATES = ['opened', 'closed', 'merged', 'locked'] as const;

export interface MergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: MergeRequestState;
  source_branch: string;
  target_branch: string;
  source_project_id: number;
  target_project_id: number;
  labels: string[];
  assignee_ids: number[];
  author_id: number;
  closed_at: string | null;
  closed_by_id: number | null;
  merged_at: string | null;
  merged_by_id: number | null;
  discussion_locked: boolean | null;
  /** The `remove_source_branch` of the request (GitLab keeps it in `merge_params`). */
  force_remove_source_branch: boolean | null;
  squash: boolean;
  created_at: string;
  updated_at: string;
  /** Who changed it last (absent until a first change); the actor of its webhook events. */
  updated_by_id?: number;
  /** Counted by ADD in the same transaction as each note (see store/issuables/notes.ts). */
  user_notes_count: number;
  /** Its `thumbsup` and `thumbsdown` awards, counted with each award (store/issuables/award-emoji.ts). */
  upvotes?: number;
  downvotes?: number;
  /** The milestone it carries (its project's or a group's above it), read with it when shown. */
  milestone_id?: number | null;
  /** Set when it is merged: the commits the merge made (see repository/merge-request-code.ts). */
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  /** Its diff as merged, kept as its source branch may go: an open one's is read from the branches. */
  merged_diff?: MergedDiff;
  /** The last three-way merge check of its branches (see `knownConflicts`). */
  merge_check?: MergeCheck;
}

/**
 * Whether merging one source tip into one target tip meets conflicts. It is a fact about the pair
 * of commits, true for as long as either is anyone's tip, so it is kept on the merge request and
 * read again only for that same pair.
 */
export interface MergeCheck {
  source_sha: string;
  target_sha: string;
  conflicts: boolean;
}

/** The kept verdict when it is for these tips; undefined when the merge must be tried. */
export function knownConflicts(
  check: MergeCheck | undefined,
  sourceId: string,
  targetId: string,
): boolean | undefined {
  return check?.source_sha === sourceId && check.target_sha === targetId ? check.conflicts : undefined;
}

/** The verdict a read found that the merge request does not keep yet; undefined when none is new. */
export function mergeCheckToKeep(
  mr: Pick<MergeRequest, 'merge_check'>,
  code: MergeRequestCode | undefined,
): MergeCheck | undefined {
  const found = code?.checked;
  if (found === undefined) return undefined;
  const kept = mr.merge_check;
  const same =
    kept?.source_sha === found.source_sha &&
    kept.target_sha === found.target_sha &&
    kept.conflicts === found.conflicts;
  return same ? undefined : found;
}

/** GitLab's DiffRefs: the merge base, the source tip and the target tip a diff is made between. */
export interface DiffRefs {
  base_sha: string;
  head_sha: string;
  start_sha: string;
}

export interface MergedDiff {
  diff_refs: DiffRefs;
  changes_count: number;
}

/**
 * What the repository says of a merge request's branches, read with it: the tips of its source and
 * target (undefined where the branch is not there), their merge base, how many files the source
 * changes from it and whether merging meets conflicts.
 */
export interface MergeRequestCode {
  sourceId: string | undefined;
  targetId: string | undefined;
  baseId: string | undefined;
  changesCount: number;
  conflicts: boolean;
  /** The verdict of a three-way merge this read made (none when it was known or not needed). */
  checked?: MergeCheck;
}

/** GitLab's Issuable validates titles to 255 characters; descriptions are held to 1,000,000. */
export const MERGE_REQUEST_TITLE_MAX_LENGTH = 255;
export const MERGE_REQUEST_DESCRIPTION_MAX_LENGTH = 1_000_000;

/** What a create or update request may set. */
export interface MergeRequestFields {
  title?: string;
  description?: string;
  target_branch?: string;
  labels?: string[];
  /** `0` unassigns (GitLab's "set to 0 or provide an empty value to unassign"). */
  assignee_id?: number;
  /** Used instead of `assignee_id` when sent; `[]` or `[0]` unassigns. */
  assignee_ids?: number[];
  remove_source_branch?: boolean;
  squash?: boolean;
  discussion_locked?: boolean;
  /** A milestone the project may use, or null to remove it (resolved before the fields are set). */
  milestone_id?: number | null;
}

/** The assignees a request names (nobody for 0), or undefined when it names none. */
export function assigneesOf(input: MergeRequestFields): number[] | undefined {
  const ids =
    input.assignee_ids !== undefined
      ? input.assignee_ids
      : input.assignee_id !== undefined
        ? [input.assignee_id]
        : undefined;
  return ids === undefined ? undefined : [...new Set(ids.filter((id) => id > 0))];
}

/** Labels as GitLab keeps them: trimmed, no blanks, each once. */
export const uniqueLabels = (labels: readonly string[]) => [
  ...new Set(labels.map((label) => label.trim()).filter((label) => label.length > 0)),
];

/** MergeRequest#validate_branches: source and target may not be the same branch of one project. */
export const SAME_BRANCH_MESSAGE = "You can't use same project/branch for source and target";

/**
 * Merge request validation of branches the repository lacks: 400 `{"message": {"source_branch":
 * ["does not exist"]}}` (each missing one named); undefined when both are there.
 */
export function missingBranchRefusal(source: boolean, target: boolean): ApiError | undefined {
  const errors: Record<string, string[]> = {
    ...(source ? {} : { source_branch: ['does not exist'] }),
    ...(target ? {} : { target_branch: ['does not exist'] }),
  };
  return Object.keys(errors).length ? validationFailed(errors) : undefined;
}

export function checkedBranches(source: string, target: string): void {
  if (source === target) throw conflict([SAME_BRANCH_MESSAGE]);
}

/** validate_branches for an open merge request whose branches another open one already has. */
export const branchesTaken = (otherIid: number) =>
  conflict([`Another open merge request already exists for this source branch: !${otherIid}`]);

/**
 * MergeRequest#validate_fork: a merge request between two projects needs them in one fork network
 * (422 `{"error": [...]}`).
 */
export const notAFork = () =>
  new ApiError(422, { error: ['Source project is not a fork of the target project'] });

export type NewMergeRequest = Omit<MergeRequest, 'id' | 'iid' | 'created_at' | 'updated_at'>;

/**
 * A new merge request of the project it targets (`projectId`), its source branch in
 * `sourceProjectId` (a fork's, or the project's own).
 */
export function newMergeRequestFrom(
  input: MergeRequestFields & { title: string; source_branch: string; target_branch: string },
  projectId: number,
  authorId: number,
  sourceProjectId = projectId,
): NewMergeRequest {
  // The same branch name is two branches in two projects.
  if (sourceProjectId === projectId) checkedBranches(input.source_branch, input.target_branch);
  return {
    project_id: projectId,
    title: input.title,
    description: input.description ?? null,
    state: 'opened',
    source_branch: input.source_branch,
    target_branch: input.target_branch,
    source_project_id: sourceProjectId,
    target_project_id: projectId,
    labels: uniqueLabels(input.labels ?? []),
    assignee_ids: assigneesOf(input) ?? [],
    author_id: authorId,
    closed_at: null,
    closed_by_id: null,
    merged_at: null,
    merged_by_id: null,
    discussion_locked: input.discussion_locked ?? null,
    force_remove_source_branch: input.remove_source_branch ?? null,
    squash: input.squash ?? false,
    user_notes_count: 0,
    // Kept only when set, as a merge request without one has never carried the attribute.
    ...(typeof input.milestone_id === 'number' && { milestone_id: input.milestone_id }),
  };
}

/**
 * A create's parameters without what only the target's developers set (labels, milestone,
 * assignees): GitLab drops them, unannounced, for a contributor from a fork who is not one.
 */
export function withoutMetadata<
  T extends MergeRequestFields & { add_labels?: unknown; remove_labels?: unknown },
>(input: T): T {
  const {
    labels: _l,
    add_labels: _a,
    remove_labels: _r,
    milestone_id: _m,
    assignee_id: _i,
    assignee_ids: _s,
    ...rest
  } = input;
  return rest as T;
}

/** The fields a PUT changes (only those sent); 409 when the new target is the source branch. */
export function mergeRequestChanges(
  mergeRequest: MergeRequest,
  input: MergeRequestFields,
): Partial<MergeRequest> {
  const changes: Partial<MergeRequest> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.target_branch !== undefined) {
    checkedBranches(mergeRequest.source_branch, input.target_branch);
    changes.target_branch = input.target_branch;
  }
  if (input.labels !== undefined) changes.labels = uniqueLabels(input.labels);
  const assignees = assigneesOf(input);
  if (assignees !== undefined) changes.assignee_ids = assignees;
  if (input.remove_source_branch !== undefined)
    changes.force_remove_source_branch = input.remove_source_branch;
  if (input.squash !== undefined) changes.squash = input.squash;
  if (input.discussion_locked !== undefined) changes.discussion_locked = input.discussion_locked;
  if (input.milestone_id !== undefined) changes.milestone_id = input.milestone_id;
  return changes;
}

/** The parameters of which a PUT needs one (Grape's `at_least_one_of`), in GitLab's order. */
const UPDATE_PARAMS = [
  'assignee_id',
  'description',
  'labels',
  'milestone_id',
  'remove_source_branch',
  'state_event',
  'target_branch',
  'title',
  'discussion_locked',
  'squash',
] as const;

/**
 * Grape's refusal of a PUT's parameters its schema cannot state: a blank `title` or
 * `target_branch` (`allow_blank: false`: "title is empty"), or none of the parameters sent
 * (`assignee_ids`, which later versions list, counts too); undefined when they pass.
 */
export function updateParamsError(input: {
  title?: string;
  target_branch?: string;
  assignee_ids?: unknown;
  milestone_id?: number | null;
}): string | undefined {
  const empty = (['title', 'target_branch'] as const)
    .filter((name) => input[name] !== undefined && input[name].trim() === '')
    .map((name) => `${name} is empty`);
  if (empty.length) return empty.join(', ');
  // `milestone_id=0` (read as null, no milestone) is a parameter sent.
  if (input.assignee_ids !== undefined || input.milestone_id !== undefined) return undefined;
  return atLeastOneOf(input, UPDATE_PARAMS);
}

// Lists --------------------------------------------------------------------------------------------

/** `none`/`any` as GitLab's finders take them for assignees, labels and milestones. */
export type NoneOrAny = 'none' | 'any';

export interface MergeRequestFilter {
  state?: MergeRequestState | 'all';
  labels?: string[];
  /** The `milestone` filter, resolved among the milestones the project may use. */
  milestones?: MilestoneMatch;
  search?: string;
  author_id?: number;
  assignee_id?: number | NoneOrAny;
  source_branch?: string;
  target_branch?: string;
  iids?: number[];
  wip?: 'yes' | 'no';
  /** The `my_reaction_emoji` filter, resolved among the caller's awards. */
  reaction?: ReactionMatch;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  scope?: 'created_by_me' | 'created-by-me' | 'assigned_to_me' | 'assigned-to-me' | 'all';
}

/** GitLab's WIP_REGEX: a title that begins with `WIP:`, `[WIP]` or `WIP `. */
const WIP_TITLE = /^\s*(\[WIP\]\s*|WIP:\s*|WIP\s+)+\s*/i;
export const isWorkInProgress = (title: string) => WIP_TITLE.test(title);

function labelsMatch(labels: readonly string[], wanted: readonly string[] | undefined): boolean {
  if (!wanted?.length) return true;
  if (wanted.length === 1) {
    const only = (wanted[0] as string).toLowerCase();
    if (only === 'none') return labels.length === 0;
    if (only === 'any') return labels.length > 0;
  }
  return wanted.every((label) => labels.includes(label));
}

function assigneeMatches(assignees: readonly number[], wanted: MergeRequestFilter['assignee_id']): boolean {
  if (wanted === undefined) return true;
  if (wanted === 'none') return assignees.length === 0;
  if (wanted === 'any') return assignees.length > 0;
  return assignees.includes(wanted);
}

/** Whether a merge request passes the list filters other than state (state picks the list read). */
export function mergeRequestMatches(
  mr: MergeRequest,
  filter: MergeRequestFilter,
  viewerId: number | undefined,
): boolean {
  if (!labelsMatch(mr.labels, filter.labels)) return false;
  if (filter.milestones && !carriesMatchingMilestone(mr.milestone_id, filter.milestones)) return false;
  if (!passesReaction(mr.id, filter.reaction)) return false;
  if (filter.author_id !== undefined && mr.author_id !== filter.author_id) return false;
  if (!assigneeMatches(mr.assignee_ids, filter.assignee_id)) return false;
  if (filter.source_branch !== undefined && mr.source_branch !== filter.source_branch) return false;
  if (filter.target_branch !== undefined && mr.target_branch !== filter.target_branch) return false;
  if (filter.iids?.length && !filter.iids.includes(mr.iid)) return false;
  if (filter.wip !== undefined && isWorkInProgress(mr.title) !== (filter.wip === 'yes')) return false;
  if (filter.created_after !== undefined && mr.created_at < filter.created_after) return false;
  if (filter.created_before !== undefined && mr.created_at > filter.created_before) return false;
  if (filter.updated_after !== undefined && mr.updated_at < filter.updated_after) return false;
  if (filter.updated_before !== undefined && mr.updated_at > filter.updated_before) return false;
  const scope = filter.scope?.replace(/-/g, '_');
  if (scope === 'created_by_me' && mr.author_id !== viewerId) return false;
  if (scope === 'assigned_to_me' && !mr.assignee_ids.some((id) => id === viewerId)) return false;
  if (filter.search) {
    const term = filter.search.toLowerCase();
    const text = `${mr.title}\n${mr.description ?? ''}`.toLowerCase();
    if (!text.includes(term)) return false;
  }
  return true;
}

/** Whether the list needs filtering beyond the state's list. */
export const filtersMergeRequests = (filter: MergeRequestFilter) =>
  Boolean(
    filter.labels?.length ||
      filter.milestones ||
      filter.reaction ||
      filter.search ||
      filter.author_id !== undefined ||
      filter.assignee_id !== undefined ||
      filter.source_branch !== undefined ||
      filter.target_branch !== undefined ||
      filter.iids?.length ||
      filter.wip !== undefined ||
      filter.created_after !== undefined ||
      filter.created_before !== undefined ||
      filter.updated_after !== undefined ||
      filter.updated_before !== undefined ||
      (filter.scope !== undefined && filter.scope !== 'all'),
  );

// Entities -----------------------------------------------------------------------------------------

/** The users a merge request shows: its author, assignees and who closed or merged it. */
export const mergeRequestUserIds = (mr: MergeRequest) => [
  ...new Set([
    mr.author_id,
    ...mr.assignee_ids,
    ...(mr.closed_by_id === null ? [] : [mr.closed_by_id]),
    ...(mr.merged_by_id === null ? [] : [mr.merged_by_id]),
  ]),
];

const userOrNull = (users: ReadonlyMap<number, User>, id: number | null, baseUrl: string) =>
  id === null ? null : userBasicOrGhost(users, id, baseUrl);

const webUrl = (mr: MergeRequest, project: Project, baseUrl: string) =>
  `${baseUrl}/${project.path_with_namespace}/merge_requests/${mr.iid}`;

/** GitLab's MergeRequestSimple (`view=simple`). */
export const mergeRequestSimple = (mr: MergeRequest, project: Project, baseUrl: string) => ({
  id: mr.id,
  iid: mr.iid,
  project_id: mr.project_id,
  title: mr.title,
  description: mr.description,
  state: mr.state,
  created_at: mr.created_at,
  updated_at: mr.updated_at,
  web_url: webUrl(mr, project, baseUrl),
});

/**
 * The `sha` a list shows from the refs of its project's committed state: the head it was merged
 * with once merged, else its source branch's tip, else (the branch gone) what its head ref keeps;
 * null without a repository.
 */
export function listedSha(
  mr: MergeRequest,
  refs: Readonly<Record<string, string>> | undefined,
): string | null {
  if (mr.merged_diff) return mr.merged_diff.diff_refs.head_sha;
  return refs?.[`refs/heads/${mr.source_branch}`] ?? refs?.[`refs/merge-requests/${mr.iid}/head`] ?? null;
}

/**
 * GitLab's MergeRequestBasic: what lists show. `sha` is the source tip (`listedSha`), read once
 * per project of the page; null where no repository was read.
 */
export function mergeRequestBasic(
  mr: MergeRequest,
  project: Project,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
  milestones: ReadonlyMap<number, Milestone> = new Map(),
  sha: string | null = null,
) {
  const assignees = mr.assignee_ids.map((id) => userBasicOrGhost(users, id, baseUrl));
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_by: userOrNull(users, mr.merged_by_id, baseUrl),
    merged_at: mr.merged_at,
    closed_by: userOrNull(users, mr.closed_by_id, baseUrl),
    closed_at: mr.closed_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: mr.user_notes_count,
    upvotes: mr.upvotes ?? 0,
    downvotes: mr.downvotes ?? 0,
    author: userBasicOrGhost(users, mr.author_id, baseUrl),
    assignee: assignees[0] ?? null,
    assignees,
    source_project_id: mr.source_project_id,
    target_project_id: mr.target_project_id,
    labels: [...mr.labels].sort(),
    work_in_progress: isWorkInProgress(mr.title),
    milestone: issuableMilestone(mr.milestone_id, project, milestones, baseUrl),
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    sha,
    merge_commit_sha: mr.merge_commit_sha ?? null,
    discussion_locked: mr.discussion_locked,
    should_remove_source_branch: null,
    force_remove_source_branch: mr.force_remove_source_branch,
    web_url: webUrl(mr, project, baseUrl),
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: mr.squash,
    approvals_before_merge: null,
  };
}

/**
 * GitLab's MergeRequest: the single read and the answer to writes. `subscribed` is true for the
 * participants GitLab subscribes without asking (the author and the assignees). `code` is what the
 * repository says of its branches (undefined when the project has no repository).
 */
export function mergeRequestEntity(
  mr: MergeRequest,
  project: Project,
  users: ReadonlyMap<number, User>,
  baseUrl: string,
  viewerId: number | undefined,
  milestones: ReadonlyMap<number, Milestone> = new Map(),
  code?: MergeRequestCode,
) {
  const diff = mergeRequestDiff(mr, code);
  return {
    ...mergeRequestBasic(mr, project, users, baseUrl, milestones),
    merge_status: mergeStatusOf(mr, code),
    detailed_merge_status: detailedMergeStatusOf(mr, code, project.merge_method),
    has_conflicts: mr.state === 'opened' && code?.conflicts === true,
    sha: diff?.diff_refs.head_sha ?? code?.sourceId ?? null,
    squash_commit_sha: mr.squash_commit_sha ?? null,
    subscribed: mr.author_id === viewerId || mr.assignee_ids.some((id) => id === viewerId),
    changes_count: diff === undefined ? null : changesCountText(diff.changes_count),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    diff_refs: diff?.diff_refs ?? null,
  };
}

// Code: diffs, statuses, merging -------------------------------------------------------------------

/**
 * The diff a merge request shows: as merged once merged, else from the merge base to the source
 * tip as the branches stand; undefined without both branches (or a merge base).
 */
export function mergeRequestDiff(
  mr: MergeRequest,
  code: MergeRequestCode | undefined,
): MergedDiff | undefined {
  if (mr.merged_diff) return mr.merged_diff;
  if (code?.sourceId === undefined || code.targetId === undefined || code.baseId === undefined)
    return undefined;
  return {
    diff_refs: { base_sha: code.baseId, head_sha: code.sourceId, start_sha: code.targetId },
    changes_count: code.changesCount,
  };
}

/** Most files a merge request's diff lists (GitLab's diff limit); past it the count reads `1000+`. */
export const MERGE_REQUEST_MAX_FILES = 1_000;

/** changes_count as GitLab gives it: a string, `1000+` past the files a diff lists. */
export const changesCountText = (count: number) =>
  count > MERGE_REQUEST_MAX_FILES ? `${MERGE_REQUEST_MAX_FILES}+` : String(count);

/**
 * Whether a merge request can merge as its branches stand: open, both branches there, the source
 * holding commits the target lacks, no conflicts.
 */
const mergeable = (mr: MergeRequest, code: MergeRequestCode) =>
  mr.state === 'opened' &&
  code.sourceId !== undefined &&
  code.targetId !== undefined &&
  code.baseId !== undefined &&
  code.baseId !== code.sourceId &&
  !code.conflicts;

/** merge_status: worked out on every read, so never `unchecked` or `checking`. */
export function mergeStatusOf(mr: MergeRequest, code: MergeRequestCode | undefined) {
  if (code === undefined || mr.state !== 'opened') return 'can_be_merged';
  return mergeable(mr, code) ? 'can_be_merged' : 'cannot_be_merged';
}

/** detailed_merge_status: the first thing that stops the merge, else `mergeable`. */
export function detailedMergeStatusOf(
  mr: MergeRequest,
  code: MergeRequestCode | undefined,
  method: MergeMethod = 'merge',
) {
  if (mr.state !== 'opened') return 'not_open';
  if (isWorkInProgress(mr.title) || /^\s*(\[draft\]|\(draft\)|draft:|draft\s)/i.test(mr.title))
    return 'draft_status';
  if (code === undefined) return 'mergeable';
  if (code.sourceId === undefined || code.targetId === undefined || code.baseId === code.sourceId)
    return 'commits_status';
  if (code.baseId === undefined || code.conflicts) return 'conflict';
  if (mergeWay(method, code.baseId === code.targetId) === 'refused') return 'need_rebase';
  return 'mergeable';
}

/** GitLab's merge methods: a merge commit always, one only on a fast-forward, or fast-forward only. */
export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

/**
 * How a merge is made: a merge commit (`merge` always; `rebase_merge` only when the target could
 * fast-forward), a fast-forward (`ff`), or refused (406) when the method needs a fast-forward the
 * branches do not allow.
 */
export function mergeWay(
  method: MergeMethod,
  fastForward: boolean,
): 'merge-commit' | 'fast-forward' | 'refused' {
  if (method === 'merge') return 'merge-commit';
  if (!fastForward) return 'refused';
  return method === 'ff' ? 'fast-forward' : 'merge-commit';
}

/**
 * The merge's refusals, as GitLab's merge endpoint answers them: 405 for a merge request that
 * cannot merge now (not open, a draft, branches gone or holding nothing new, conflicts, or a
 * fast-forward the method needs and the branches do not allow: GitLab's `mergeable?`), 409 for a
 * sha other than the source tip.
 */
export const mergeRefusals = {
  notMergeable: () => new ApiError(405, { message: '405 Method Not Allowed' }),
  /** The merge ref's answer to a merge request that cannot merge. */
  notMergeableForRef: () => badRequest('Merge request is not mergeable'),
  shaMismatch: () => new ApiError(409, { message: 'SHA does not match HEAD of source branch' }),
  /** A fork's source branch is rebased in the fork: only by one who may push to it there. */
  /** A rebase runs in the request here, so its failure (GitLab's merge_error) is the answer. */
  rebaseConflict: () =>
    new ApiError(409, {
      message: 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.',
    }),
};

/**
 * Whether a merge request may be merged as its branches stand; the refusal otherwise (the sha,
 * when sent, must be the source tip).
 */
export function mergeRefusal(
  mr: MergeRequest,
  code: MergeRequestCode,
  method: MergeMethod,
  sha: string | undefined,
): ApiError | undefined {
  if (detailedMergeStatusOf(mr, code, method) !== 'mergeable' || !mergeable(mr, code))
    return mergeRefusals.notMergeable();
  if (sha !== undefined && sha !== code.sourceId) return mergeRefusals.shaMismatch();
  return undefined;
}

/**
 * The merge ref's refusal (GitLab's mergeability check, 400): a merge request that is not open,
 * lacks a branch, holds nothing its target lacks or conflicts with it has no merge ref.
 */
export function mergeRefRefusal(mr: MergeRequest, code: MergeRequestCode | undefined): ApiError | undefined {
  return code !== undefined && mergeable(mr, code) ? undefined : mergeRefusals.notMergeableForRef();
}

/**
 * Whether a merge ref's commit merges exactly these tips (its parents: the target's, then the
 * source's), so it is the merge ref of the branches as they stand and need not be made again.
 */
export const mergesTips = (parents: readonly string[], targetId: string, sourceId: string) =>
  parents.length === 2 && parents[0] === targetId && parents[1] === sourceId;

/**
 * Whether a merge may remove a fork's source branch (when asked): only by one who may push code to
 * the fork, and never a protected branch. `fork` is undefined when the caller does not see it.
 */
export function mayRemoveForkSource(
  fork: { project: Project; access: ProjectAccess; caller: Caller } | undefined,
  protections: readonly ProtectedBranch[],
  branch: string,
): boolean {
  return fork !== undefined && canPushCode(fork) && !isProtected(protections, branch);
}

/**
 * Whether the caller may push to a fork's source branch (GitLab's can_push_to_branch in the source
 * project): who may push code there, unless a protection of the branch keeps them out. `fork` is
 * undefined when the caller does not see the fork (or it is gone).
 */
export function maySetForkSource(
  fork: { project: Project; access: ProjectAccess; caller: Caller } | undefined,
  protections: readonly ProtectedBranch[],
  branch: string,
): boolean {
  if (fork === undefined || fork.project.archived) return false;
  const level = protectionLevelOf(fork.caller, fork.access);
  if (!fork.caller.admin && level < ACCESS.developer) return false;
  return branchProtectionRefusal(protections, branch, level, 'push') === undefined;
}

/** The default merge commit message: the branches, the title, the issues it closes and the reference. */
export function defaultMergeCommitMessage(
  mr: MergeRequest,
  projectPath: string,
  closes: readonly string[],
): string {
  const closing = closes.length ? `${closes.map((ref) => `Closes ${ref}`).join(', ')}\n\n` : '';
  return `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\n${mr.title}\n\n${closing}See merge request ${projectPath}!${mr.iid}`;
}

/** An issue a text names to close: in the same project (`path` undefined) or in the project at `path`. */
export interface ClosedIssueReference {
  path: string | undefined;
  iid: number;
}

// A closing word (close, closes, closed, closing, fix, fixes, fixed, fixing, resolve, resolves,
// resolved, resolving, implement, implements, implemented, implementing), an optional colon, then
// one or more issue references joined by commas, spaces or "and", each optionally after "issue"
// or "issues". A reference is `#n`, `path#n` or an issue URL.
const CLOSING_WORD = '(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?)';
const ISSUE_REFERENCE = String.raw`(?:[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)*)?#\d+|https?:\/\/\S+?\/-\/issues\/\d+`;
const CLOSING = new RegExp(
  String.raw`\b${CLOSING_WORD}:? +(?:(?:issues? +)?(?:${ISSUE_REFERENCE})(?: *,? +and +| *,? *)?)+`,
  'gi',
);
const ONE_REFERENCE = new RegExp(ISSUE_REFERENCE, 'g');

/**
 * The issues a text closes (GitLab's default closing pattern), each once, in the order named.
 * URLs name the project by their path below the host; `projectBaseUrl` is the instance's base.
 */
export function closedIssueReferences(text: string, baseUrl: string): ClosedIssueReference[] {
  const found = new Map<string, ClosedIssueReference>();
  for (const match of text.matchAll(CLOSING)) {
    for (const reference of match[0].matchAll(ONE_REFERENCE)) {
      const parsed = parseIssueReference(reference[0], baseUrl);
      if (parsed) found.set(`${parsed.path ?? ''}#${parsed.iid}`, parsed);
    }
  }
  return [...found.values()];
}

/** Most issues one merge closes, and most other projects whose issues it closes: the merge's writes stay bounded. */
export const CLOSED_ISSUES_MAX = 50;
export const CLOSED_PROJECTS_MAX = 10;

/**
 * The issues a merge closes, by project: those of `project` itself, and by full path those of
 * others (`project#n` names a project of the same namespace, as GitLab reads a reference), at
 * most CLOSED_PROJECTS_MAX other projects and CLOSED_ISSUES_MAX issues in all, in the order named.
 */
export function closingTargets(
  references: readonly ClosedIssueReference[],
  project: Pick<Project, 'path_with_namespace' | 'namespace'>,
): { own: number[]; others: Map<string, number[]> } {
  const own: number[] = [];
  const others = new Map<string, number[]>();
  let count = 0;
  for (const reference of references) {
    if (count >= CLOSED_ISSUES_MAX) break;
    const path =
      reference.path === undefined || reference.path.includes('/')
        ? reference.path
        : `${project.namespace.full_path}/${reference.path}`;
    if (path === undefined || path.toLowerCase() === project.path_with_namespace.toLowerCase()) {
      if (!own.includes(reference.iid)) own.push(reference.iid);
    } else {
      const key = path.toLowerCase();
      const iids = others.get(key);
      if (iids === undefined) {
        if (others.size >= CLOSED_PROJECTS_MAX) continue;
        others.set(key, [reference.iid]);
      } else if (!iids.includes(reference.iid)) iids.push(reference.iid);
    }
    count++;
  }
  return { own, others };
}

function parseIssueReference(reference: string, baseUrl: string): ClosedIssueReference | undefined {
  if (/^https?:/.test(reference)) {
    const prefix = `${baseUrl}/`;
    if (!reference.startsWith(prefix)) return undefined;
    const url = /^(.+)\/-\/issues\/(\d+)$/.exec(reference.slice(prefix.length));
    return url ? { path: url[1], iid: Number(url[2]) } : undefined;
  }
  const at = reference.lastIndexOf('#');
  const path = reference.slice(0, at);
  return { path: path === '' ? undefined : path, iid: Number(reference.slice(at + 1)) };
}
