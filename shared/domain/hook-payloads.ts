/**
 * Webhook payloads as GitLab sends them (its hook data builders for notes, issues, merge requests
 * and award emoji, and the `hook_attrs` of projects, users, labels and snippets), built from our domain
 * objects. Pure: no reads, no clock; the caller passes everything a payload shows.
 *
 * Where our model keeps nothing GitLab would show (time tracking, label colours, edit
 * history), the field is there with GitLab's empty value, so receivers find every key they expect.
 * Model timestamps are written as GitLab's payloads write them ("2024-01-31 09:05:00 UTC": the
 * hook data reaches the worker as JSON whose times are Ruby's `to_s`); commit times are ISO 8601
 * with an offset, as Commit#hook_attrs writes them.
 */
import { visibilityLevel } from './access.ts';
import { avatarUrl, userAvatarUrl } from './avatars.ts';
import type { AwardEmoji } from './award-emoji.ts';
import type { HookTrigger } from './hooks.ts';
import type { Issue } from './issues.ts';
import { isWorkInProgress, type MergeRequest } from './merge-requests.ts';
import { discussionIdOf, type Note } from './notes.ts';
import { type Project, projectSimpleEntity } from './projects.ts';
import type { Snippet } from './snippets.ts';
import type { User } from './users.ts';

// Values --------------------------------------------------------------------------------------------

/** A stored ISO time as GitLab's payloads write it ("2024-01-31 09:05:00 UTC"); null stays null. */
export function hookTime(iso: string | null | undefined): string | null {
  if (iso === null || iso === undefined) return null;
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A time as Commit#hook_attrs writes it (`xmlschema`: "2024-01-31T09:05:00+00:00"). */
export function commitTime(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return `${time.toISOString().slice(0, 19)}+00:00`;
}

/** GitLab's state ids (issues: opened 1, closed 2; merge requests also merged 3, locked 4). */
export const STATE_IDS = { opened: 1, closed: 2, merged: 3, locked: 4 } as const;

/** What User#webhook_email shows for a user without a public email (none of ours has one). */
export const REDACTED_EMAIL = '[REDACTED]';

/** GitLab's draft prefixes ("Draft:", "[Draft]", "(Draft)") and the older WIP ones. */
const DRAFT_TITLE = /^\s*(\[draft\]|\(draft\)|draft:)/i;
export const isDraftTitle = (title: string) => DRAFT_TITLE.test(title) || isWorkInProgress(title);

/** The web URLs GitLab's UrlBuilder gives the things a payload names. */
export const hookUrls = {
  project: (project: Project, baseUrl: string) => `${baseUrl}/${project.path_with_namespace}`,
  issue: (project: Project, iid: number, baseUrl: string) =>
    `${hookUrls.project(project, baseUrl)}/-/issues/${iid}`,
  mergeRequest: (project: Project, iid: number, baseUrl: string) =>
    `${hookUrls.project(project, baseUrl)}/-/merge_requests/${iid}`,
  snippet: (project: Project, id: number, baseUrl: string) =>
    `${hookUrls.project(project, baseUrl)}/-/snippets/${id}`,
  commit: (project: Project, sha: string, baseUrl: string) =>
    `${hookUrls.project(project, baseUrl)}/-/commit/${sha}`,
};

/** Code (fenced or inline) is left alone; a simple image with a relative URL is rewritten. */
const MARKDOWN_SIMPLE_IMAGE =
  /(```[\s\S]*?```|`[^`\n]*`)|!\[([^\n\]]*?)\]\(((?!https?:\/\/|\/\/)[^\n)]+?)\)/g;

/**
 * GitLab 11.2+: simple Markdown images with a relative URL become absolute inside payloads, so a
 * receiver can show them (`/uploads/…` is relative to the project, anything else to the instance).
 */
export function absoluteImageUrls(text: string | null, project: Project, baseUrl: string): string | null {
  if (!text) return text;
  return text.replace(MARKDOWN_SIMPLE_IMAGE, (match, code, title: string, url: string) => {
    if (code !== undefined) return match;
    const absolute = url.startsWith('/uploads/')
      ? `${hookUrls.project(project, baseUrl)}${url}`
      : `${baseUrl}/${url.replace(/^\/+/, '')}`;
    return `![${title}](${absolute})`;
  });
}

// Attributes of the things a payload shows ---------------------------------------------------------

/** Project#hook_attrs (with the backward-compatible homepage, url, ssh_url and http_url). */
export interface ProjectHookAttrs {
  id: number;
  name: string;
  description: string | null;
  web_url: string;
  avatar_url: string | null;
  git_ssh_url: string;
  git_http_url: string;
  namespace: string;
  visibility_level: number;
  path_with_namespace: string;
  default_branch: string | null;
  ci_config_path: string | null;
  homepage: string;
  url: string;
  ssh_url: string;
  http_url: string;
}

export function projectHookAttrs(project: Project, baseUrl: string): ProjectHookAttrs {
  const urls = projectSimpleEntity(project, baseUrl);
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: urls.web_url,
    avatar_url: avatarUrl(baseUrl, 'project', project.id, project.avatar),
    git_ssh_url: urls.ssh_url_to_repo,
    git_http_url: urls.http_url_to_repo,
    namespace: project.namespace.name,
    visibility_level: visibilityLevel[project.visibility],
    path_with_namespace: project.path_with_namespace,
    default_branch: project.default_branch,
    ci_config_path: project.ci_config_path,
    homepage: urls.web_url,
    url: urls.ssh_url_to_repo,
    ssh_url: urls.ssh_url_to_repo,
    http_url: urls.http_url_to_repo,
  };
}

/** The deprecated `repository` of note, issue and merge request payloads: a slice of the project's. */
export const repositoryHookAttrs = (project: ProjectHookAttrs) => ({
  name: project.name,
  url: project.url,
  description: project.description,
  homepage: project.homepage,
});

/** What a payload needs of a user (a User, or the ghost of one who is gone); email and avatar make its avatar_url. */
export type HookUser = Pick<User, 'id' | 'name' | 'username'> & Partial<Pick<User, 'email' | 'avatar'>>;

/** GitLab's stand-in for a user who no longer exists. */
export const ghostHookUser = (id: number): HookUser => ({ id, name: 'Ghost User', username: 'ghost' });

/** User#hook_attrs. The email is the public email, which no user has here: GitLab's `[REDACTED]`. */
export interface UserHookAttrs {
  id: number;
  name: string;
  username: string;
  avatar_url: string;
  email: string;
}

/** The user's avatar_url is always a URL, as in GitLab's entities (see userAvatarUrl). */
export const userHookAttrs = (user: HookUser, baseUrl: string): UserHookAttrs => ({
  id: user.id,
  name: user.name,
  username: user.username,
  avatar_url: userAvatarUrl(baseUrl, user),
  email: REDACTED_EMAIL,
});

const userHookAttrsOf = (users: ReadonlyMap<number, HookUser>, id: number, baseUrl: string) =>
  userHookAttrs(users.get(id) ?? ghostHookUser(id), baseUrl);

/**
 * Label#hook_attrs for a label kept as a name: a project label with nothing else known (labels
 * here have no id, colour, description or times).
 */
export interface LabelHookAttrs {
  id: null;
  title: string;
  color: null;
  project_id: number;
  created_at: null;
  updated_at: null;
  template: false;
  description: null;
  type: 'ProjectLabel';
  group_id: null;
}

export const labelHookAttrs = (title: string, projectId: number): LabelHookAttrs => ({
  id: null,
  title,
  color: null,
  project_id: projectId,
  created_at: null,
  updated_at: null,
  template: false,
  description: null,
  type: 'ProjectLabel',
  group_id: null,
});

/** An issuable's labels, by title, as hook attributes. */
const labelsHookAttrs = (labels: readonly string[], projectId: number) =>
  [...labels].sort().map((title) => labelHookAttrs(title, projectId));

/** Gitlab::HookData::IssueBuilder: the issue's safe attributes and what GitLab adds to them. */
export function issueHookAttrs(issue: Issue, project: Project, baseUrl: string) {
  return {
    author_id: issue.author_id,
    closed_at: hookTime(issue.closed_at),
    confidential: issue.confidential,
    created_at: hookTime(issue.created_at),
    description: absoluteImageUrls(issue.description, project, baseUrl),
    discussion_locked: issue.discussion_locked,
    due_date: issue.due_date,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: issue.milestone_id ?? null,
    moved_to_id: null,
    duplicated_to_id: null,
    project_id: issue.project_id,
    relative_position: null,
    state_id: STATE_IDS[issue.state],
    time_estimate: 0,
    title: issue.title,
    updated_at: hookTime(issue.updated_at),
    updated_by_id: issue.updated_by_id ?? null,
    weight: null,
    health_status: null,
    type: 'Issue',
    url: hookUrls.issue(project, issue.iid, baseUrl),
    total_time_spent: 0,
    time_change: 0,
    human_total_time_spent: null,
    human_time_change: null,
    human_time_estimate: null,
    assignee_ids: [...issue.assignee_ids],
    assignee_id: issue.assignee_ids[0] ?? null,
    labels: labelsHookAttrs(issue.labels, issue.project_id),
    state: issue.state,
    severity: 'unknown',
    customer_relations_contacts: [],
  };
}

export type IssueHookAttrs = ReturnType<typeof issueHookAttrs>;

/**
 * Gitlab::HookData::MergeRequestBuilder. No repository stands behind a merge request here:
 * `last_commit` is null, the merge status is the REST entity's, and the source project is the
 * target (no forks).
 */
export function mergeRequestHookAttrs(mr: MergeRequest, project: Project, baseUrl: string) {
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const draft = isDraftTitle(mr.title);
  return {
    assignee_id: mr.assignee_ids[0] ?? null,
    author_id: mr.author_id,
    blocking_discussions_resolved: true,
    created_at: hookTime(mr.created_at),
    description: absoluteImageUrls(mr.description, project, baseUrl),
    draft,
    head_pipeline_id: null,
    id: mr.id,
    iid: mr.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    merge_commit_sha: null,
    merge_error: null,
    merge_params:
      mr.force_remove_source_branch === null
        ? {}
        : { force_remove_source_branch: mr.force_remove_source_branch },
    merge_status: 'can_be_merged',
    merge_user_id: mr.merged_by_id,
    merge_when_pipeline_succeeds: false,
    milestone_id: mr.milestone_id ?? null,
    reviewer_ids: [] as number[],
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    state_id: STATE_IDS[mr.state],
    target_branch: mr.target_branch,
    target_project_id: mr.target_project_id,
    time_estimate: 0,
    title: mr.title,
    updated_at: hookTime(mr.updated_at),
    updated_by_id: mr.updated_by_id ?? null,
    prepared_at: hookTime(mr.created_at),
    assignee_ids: [...mr.assignee_ids],
    detailed_merge_status: mr.state !== 'opened' ? 'not_open' : draft ? 'draft_status' : 'mergeable',
    first_contribution: false,
    human_time_change: null,
    human_time_estimate: null,
    human_total_time_spent: null,
    labels: labelsHookAttrs(mr.labels, mr.project_id),
    last_commit: null,
    source: projectAttrs,
    state: mr.state,
    target: projectAttrs,
    time_change: 0,
    total_time_spent: 0,
    url: hookUrls.mergeRequest(project, mr.iid, baseUrl),
    work_in_progress: draft,
  };
}

export type MergeRequestHookAttrs = ReturnType<typeof mergeRequestHookAttrs>;

/**
 * Snippet#hook_attrs (the columns GitLab's examples show). `content` is what the caller read; a
 * snippet item alone may not hold it (long content lives in parts).
 */
export function snippetHookAttrs(
  snippet: Snippet,
  project: Project,
  baseUrl: string,
  content: string | null = null,
) {
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    content,
    author_id: snippet.author_id,
    project_id: snippet.project_id,
    created_at: hookTime(snippet.created_at),
    updated_at: hookTime(snippet.updated_at),
    file_name: snippet.file_name,
    type: 'ProjectSnippet',
    visibility_level: visibilityLevel[snippet.visibility],
    url: hookUrls.snippet(project, snippet.id, baseUrl),
  };
}

/**
 * What a note's payload shows of what it hangs on (built by its kind: domain/noteables.ts): its
 * hook attributes under their key, its web URL, and whether its notes' events are confidential.
 */
export interface NoteHookParent {
  key: string;
  attributes: object;
  url: string;
  confidential: boolean;
}

/** The web URL of a note: its parent's, with the note's anchor. */
export const noteUrl = (note: Pick<Note, 'id'>, parent: NoteHookParent) => `${parent.url}#note_${note.id}`;

/** A note's discussion id: its thread's, or the stable one of a note that is its own discussion. */
export const noteDiscussionId = (note: Pick<Note, 'id' | 'discussion_id'>) => discussionIdOf(note);

/**
 * Gitlab::HookData::NoteBuilder with the data builder's `action` and `url`: the note's safe
 * attributes (`note` and `description` both hold the body), none of a diff's position fields set.
 */
export function noteHookAttrs(
  note: Note,
  parent: NoteHookParent,
  project: Project,
  baseUrl: string,
  action: 'create' | 'update',
) {
  return {
    attachment: null,
    author_id: note.author_id,
    change_position: null,
    commit_id: null,
    created_at: hookTime(note.created_at),
    discussion_id: noteDiscussionId(note),
    id: note.id,
    internal: false,
    line_code: null,
    note: note.body,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    original_position: null,
    position: null,
    project_id: note.project_id,
    resolved_at: note.resolved_at ? hookTime(note.resolved_at) : null,
    resolved_by_id: note.resolved_by_id ?? null,
    resolved_by_push: null,
    st_diff: null,
    system: note.system,
    type: note.type ?? null,
    updated_at: hookTime(note.updated_at),
    updated_by_id: note.updated_by_id ?? null,
    description: absoluteImageUrls(note.body, project, baseUrl),
    action,
    url: noteUrl(note, parent),
  };
}

// Changes ---------------------------------------------------------------------------------------------

/** GitLab's `changes`: each changed attribute with its value before and after. */
export type HookChanges = Record<string, { previous: unknown; current: unknown }>;

/** The columns GitLab reports in an issue's `changes` (IssueBuilder.safe_hook_attributes, EE's too). */
const ISSUE_CHANGE_KEYS = [
  'author_id',
  'closed_at',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'id',
  'iid',
  'last_edited_at',
  'last_edited_by_id',
  'milestone_id',
  'moved_to_id',
  'duplicated_to_id',
  'project_id',
  'relative_position',
  'state_id',
  'time_estimate',
  'title',
  'updated_at',
  'updated_by_id',
  'weight',
  'health_status',
] as const satisfies readonly (keyof IssueHookAttrs)[];

/** The columns GitLab reports in a merge request's `changes` (computed attributes are not columns). */
const MERGE_REQUEST_CHANGE_KEYS = [
  'author_id',
  'created_at',
  'description',
  'draft',
  'head_pipeline_id',
  'id',
  'iid',
  'last_edited_at',
  'last_edited_by_id',
  'merge_commit_sha',
  'merge_error',
  'merge_params',
  'merge_status',
  'merge_user_id',
  'merge_when_pipeline_succeeds',
  'milestone_id',
  'source_branch',
  'source_project_id',
  'state_id',
  'target_branch',
  'target_project_id',
  'time_estimate',
  'title',
  'updated_at',
  'updated_by_id',
  'prepared_at',
] as const satisfies readonly (keyof MergeRequestHookAttrs)[];

/**
 * The values a new record's columns have before its first save (Rails reports a creation as the
 * change from these): null, but for the columns whose default is a value.
 */
const BLANK_ISSUE: Partial<Record<(typeof ISSUE_CHANGE_KEYS)[number], unknown>> = {
  confidential: false,
  state_id: STATE_IDS.opened,
  time_estimate: 0,
};
const BLANK_MERGE_REQUEST: Partial<Record<(typeof MERGE_REQUEST_CHANGE_KEYS)[number], unknown>> = {
  draft: false,
  merge_params: {},
  merge_status: 'can_be_merged',
  merge_when_pipeline_succeeds: false,
  state_id: STATE_IDS.opened,
  time_estimate: 0,
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sameSet = <T>(a: readonly T[], b: readonly T[]) => same([...new Set(a)].sort(), [...new Set(b)].sort());

/** What `changesOf` needs beyond the two versions: the users their assignees name. */
export interface ChangeContext {
  project: Project;
  users: ReadonlyMap<number, HookUser>;
  baseUrl: string;
}

function columnChanges(
  keys: readonly string[],
  previous: Record<string, unknown> | undefined,
  current: Record<string, unknown>,
  blank: Record<string, unknown>,
): HookChanges {
  const changes: HookChanges = {};
  for (const key of keys) {
    const before = previous ? previous[key] : (blank[key] ?? null);
    const after = current[key];
    if (!same(before, after)) changes[key] = { previous: before ?? null, current: after ?? null };
  }
  return changes;
}

/**
 * GitLab's `changes` of an issue or merge request event: the reported columns that differ (for an
 * `open`, previous undefined, those the creation set), then `labels` (label attributes) and
 * `assignees` (user attributes) when they differ. A creation reports no labels or assignees, as in
 * GitLab.
 */
export function changesOf(
  previous: Issue | undefined,
  current: Issue,
  kind: 'issue',
  context: ChangeContext,
): HookChanges;
export function changesOf(
  previous: MergeRequest | undefined,
  current: MergeRequest,
  kind: 'merge_request',
  context: ChangeContext,
): HookChanges;
export function changesOf(
  previous: Issue | MergeRequest | undefined,
  current: Issue | MergeRequest,
  kind: 'issue' | 'merge_request',
  context: ChangeContext,
): HookChanges {
  const { project, users, baseUrl } = context;
  const attrs = (item: Issue | MergeRequest): Record<string, unknown> =>
    kind === 'issue'
      ? issueHookAttrs(item as Issue, project, baseUrl)
      : mergeRequestHookAttrs(item as MergeRequest, project, baseUrl);
  const changes = columnChanges(
    kind === 'issue' ? ISSUE_CHANGE_KEYS : MERGE_REQUEST_CHANGE_KEYS,
    previous ? attrs(previous) : undefined,
    attrs(current),
    kind === 'issue' ? BLANK_ISSUE : BLANK_MERGE_REQUEST,
  );
  if (!previous) return changes;
  if (!sameSet(previous.labels, current.labels)) {
    changes.labels = {
      previous: labelsHookAttrs(previous.labels, previous.project_id),
      current: labelsHookAttrs(current.labels, current.project_id),
    };
  }
  if (!sameSet(previous.assignee_ids, current.assignee_ids)) {
    changes.assignees = {
      previous: previous.assignee_ids.map((id) => userHookAttrsOf(users, id, baseUrl)),
      current: current.assignee_ids.map((id) => userHookAttrsOf(users, id, baseUrl)),
    };
  }
  return changes;
}

// Payloads --------------------------------------------------------------------------------------------

export type IssuableHookAction = 'open' | 'close' | 'reopen' | 'update';
/** Merge requests also `merge` (GitLab's merge service; nothing here merges yet). */
export type MergeRequestHookAction = IssuableHookAction | 'merge';

export interface NotePayloadInput {
  action: 'create' | 'update';
  note: Note;
  parent: NoteHookParent;
  project: Project;
  /** Who wrote (or edited) the note. */
  user: HookUser;
  /** Not needed (a note's payload names no assignee); taken so every builder takes the same context. */
  users?: ReadonlyMap<number, HookUser>;
  baseUrl: string;
}

/** Whether a note's event is confidential: its parent's say (our notes are never internal). */
const confidentialNote = (parent: NoteHookParent) => parent.confidential;

/** Gitlab::DataBuilder::Note: a note created or edited, with the hook attributes of what it hangs on. */
export function notePayload(input: NotePayloadInput) {
  const { note, parent, project, baseUrl } = input;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const base = {
    object_kind: 'note' as const,
    event_type: confidentialNote(parent) ? ('confidential_note' as const) : ('note' as const),
    user: userHookAttrs(input.user, baseUrl),
    project_id: project.id,
    project: projectAttrs,
    object_attributes: noteHookAttrs(note, parent, project, baseUrl, input.action),
    repository: repositoryHookAttrs(projectAttrs),
  };
  return { ...base, [parent.key]: parent.attributes };
}

export interface IssuePayloadInput {
  action: IssuableHookAction;
  issue: Issue;
  /** The issue before the change (absent for `open`): `changes` compares the two. */
  previous?: Issue;
  project: Project;
  /** Who made the change. */
  user: HookUser;
  /** The users the issue's (and the previous version's) assignees name; the missing show as ghosts. */
  users: ReadonlyMap<number, HookUser>;
  baseUrl: string;
}

/**
 * Gitlab::DataBuilder::Issuable for an issue. `assignees` (and the deprecated `assignee`, the
 * first) are there only when someone is assigned, as GitLab does.
 */
export function issuePayload(input: IssuePayloadInput) {
  const { issue, project, users, baseUrl } = input;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const assignees = issue.assignee_ids.map((id) => userHookAttrsOf(users, id, baseUrl));
  return {
    object_kind: 'issue' as const,
    event_type: issue.confidential ? ('confidential_issue' as const) : ('issue' as const),
    user: userHookAttrs(input.user, baseUrl),
    project: projectAttrs,
    object_attributes: { ...issueHookAttrs(issue, project, baseUrl), action: input.action },
    labels: labelsHookAttrs(issue.labels, issue.project_id),
    changes: changesOf(input.previous, issue, 'issue', { project, users, baseUrl }),
    repository: repositoryHookAttrs(projectAttrs),
    ...(assignees.length ? { assignees, assignee: assignees[0] } : {}),
  };
}

export interface MergeRequestPayloadInput {
  action: MergeRequestHookAction;
  mr: MergeRequest;
  /** The merge request before the change (absent for `open`). */
  previous?: MergeRequest;
  project: Project;
  user: HookUser;
  /** The users the merge request's (and the previous version's) assignees name. */
  users: ReadonlyMap<number, HookUser>;
  baseUrl: string;
}

/** Gitlab::DataBuilder::Issuable for a merge request (no reviewers are kept here: none are sent). */
export function mergeRequestPayload(input: MergeRequestPayloadInput) {
  const { mr, project, users, baseUrl } = input;
  const projectAttrs = projectHookAttrs(project, baseUrl);
  const assignees = mr.assignee_ids.map((id) => userHookAttrsOf(users, id, baseUrl));
  return {
    object_kind: 'merge_request' as const,
    event_type: 'merge_request' as const,
    user: userHookAttrs(input.user, baseUrl),
    project: projectAttrs,
    object_attributes: { ...mergeRequestHookAttrs(mr, project, baseUrl), action: input.action },
    labels: labelsHookAttrs(mr.labels, mr.project_id),
    changes: changesOf(input.previous, mr, 'merge_request', { project, users, baseUrl }),
    repository: repositoryHookAttrs(projectAttrs),
    ...(assignees.length ? { assignees, assignee: assignees[0] } : {}),
  };
}

export interface EmojiPayloadInput {
  action: 'award' | 'revoke';
  award: AwardEmoji;
  /** What the award, or the note it is on, hangs on. */
  parent: NoteHookParent;
  /** The note awarded, for an award on a note. */
  note?: Note;
  project: Project;
  /** The award's owner (who awarded or revoked it). */
  user: HookUser;
  baseUrl: string;
}

/**
 * Gitlab::DataBuilder::Emoji: the award's safe attributes with the URL of what it is on, the note
 * awarded (if any) and the item it (or its note) hangs on under that item's class name.
 */
export function emojiPayload(input: EmojiPayloadInput) {
  const { award, parent, note, project, baseUrl } = input;
  const noteAttrs = note ? noteHookAttrs(note, parent, project, baseUrl, 'create') : undefined;
  const { action: _action, ...noteShown } = noteAttrs ?? { action: undefined };
  return {
    object_kind: 'emoji' as const,
    event_type: input.action,
    user: userHookAttrs(input.user, baseUrl),
    project_id: project.id,
    project: projectHookAttrs(project, baseUrl),
    object_attributes: {
      user_id: award.user_id,
      created_at: hookTime(award.created_at),
      id: award.id,
      name: award.name,
      awardable_type: award.awardable_type,
      awardable_id: award.awardable_id,
      updated_at: hookTime(award.updated_at),
      awarded_on_url: note ? noteUrl(note, parent) : parent.url,
    },
    ...(note ? { note: noteShown } : {}),
    // The key is the class's name: a project snippet's is `project_snippet`.
    [parent.key === 'snippet' ? 'project_snippet' : parent.key]: parent.attributes,
  };
}

// Triggers --------------------------------------------------------------------------------------------

/** An issue's events go to the confidential issue hooks while it is confidential. */
export const issueHookTrigger = (issue: Pick<Issue, 'confidential'>): HookTrigger =>
  issue.confidential ? 'confidential_issue_hooks' : 'issue_hooks';

/** A note on a confidential parent (an issue) goes to the confidential note hooks. */
export const noteHookTrigger = (parent: NoteHookParent): HookTrigger =>
  confidentialNote(parent) ? 'confidential_note_hooks' : 'note_hooks';

export const mergeRequestHookTrigger = (): HookTrigger => 'merge_request_hooks';

export const emojiHookTrigger = (): HookTrigger => 'emoji_hooks';

const TRIGGER_OF_KIND: Record<string, HookTrigger> = {
  push: 'push_hooks',
  tag_push: 'tag_push_hooks',
  note: 'note_hooks',
  confidential_note: 'confidential_note_hooks',
  issue: 'issue_hooks',
  confidential_issue: 'confidential_issue_hooks',
  merge_request: 'merge_request_hooks',
  build: 'job_hooks',
  pipeline: 'pipeline_hooks',
  wiki_page: 'wiki_page_hooks',
  emoji: 'emoji_hooks',
};

/** The hooks a built payload goes to, read from its `event_type` (or `object_kind`). */
export function hookTriggerOf(payload: { object_kind: string; event_type?: string }): HookTrigger {
  const trigger =
    TRIGGER_OF_KIND[payload.event_type ?? payload.object_kind] ?? TRIGGER_OF_KIND[payload.object_kind];
  if (!trigger) throw new Error(`no hook trigger for ${payload.object_kind}`);
  return trigger;
}

/** The body a delivery sends. */
export const payloadJson = (payload: unknown): string => JSON.stringify(payload);
