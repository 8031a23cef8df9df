/**
 * Who may read and act on issues, merge requests, snippets, epics and their notes (GitLab's
 * IssuePolicy, MergeRequestPolicy, ProjectSnippetPolicy, EpicPolicy and NotePolicy), given what
 * the caller may do in the project or group.
 */
import { ACCESS, type Visibility, visibleWithoutMembership } from './access.ts';
import type { Issue } from './issues.ts';
import type { Note } from './notes.ts';
import { effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/**
 * A reader in a project they can read (the project loader has checked that): a signed-in caller,
 * or none on the GET routes anonymous callers may use (public projects only). Anonymous readers
 * never act: every rule below about acting refuses them.
 */
export interface InProject {
  project: Project;
  caller: Caller | undefined;
  access: ProjectAccess;
}

/** A reader in a group they can read, with their inherited level (0 when anonymous). */
export interface InGroup {
  caller: Caller | undefined;
  access: number;
}

const level = ({ caller, access }: InProject) => (caller?.admin ? ACCESS.owner : effectiveAccess(access));

/** Whether the reader is the given user (never when anonymous). */
const isUser = ({ caller }: { caller: Caller | undefined }, userId: number) =>
  caller !== undefined && caller.id === userId;

/** An archived project is read-only: its issues, merge requests, snippets and notes stay as they are. */
const writable = ({ project }: InProject) => !project.archived;

/** Signed-in readers of a public or internal project act as guests (GitLab's public access). */
const guestOrPublic = (context: InProject) =>
  context.caller !== undefined &&
  (level(context) >= ACCESS.guest || visibleWithoutMembership(context.project.visibility, context.caller));

/** Its author or an assignee (GitLab's IssuablePolicy `assignee_or_author`); never an anonymous reader. */
const authorOrAssignee = (
  context: InProject,
  issuable: { author_id: number; assignee_ids: readonly number[] },
) =>
  isUser(context, issuable.author_id) ||
  issuable.assignee_ids.some((assigneeId) => isUser(context, assigneeId));

// Issues -----------------------------------------------------------------------------------------

/** Confidential issues: reporters and up, the author and the assignees (never anonymous readers). */
export function canReadIssue(context: InProject, issue: Issue): boolean {
  if (!context.project.issues_enabled) return false;
  if (!issue.confidential) return true;
  return level(context) >= ACCESS.reporter || authorOrAssignee(context, issue);
}

/** Whether the caller sees confidential issues in lists without being their author or assignee. */
export const seesConfidentialIssues = (context: InProject) => level(context) >= ACCESS.reporter;

/**
 * Whom a list hides confidential issues from: nobody (undefined) when the reader sees them all,
 * else the reader by id (their own stay listed), or an anonymous reader (hidden all).
 */
export const confidentialIssuesHiddenFrom = (context: InProject): number | 'anonymous' | undefined =>
  seesConfidentialIssues(context) ? undefined : (context.caller?.id ?? 'anonymous');

export const mayCreateIssue = (context: InProject) =>
  writable(context) && context.project.issues_enabled && guestOrPublic(context);

/** Reporters and up, or the issue's author or an assignee. */
export const mayUpdateIssue = (context: InProject & { issue: Issue }) =>
  writable(context) && (level(context) >= ACCESS.reporter || authorOrAssignee(context, context.issue));

/**
 * Whether a merge closes an issue of another project it names: the merger must be able to read
 * and update it there, as GitLab's close service asks.
 */
export const mayCloseIssueByMerge = (context: InProject, issue: Issue) =>
  canReadIssue(context, issue) && mayUpdateIssue({ ...context, issue });

/** Whether issues are listed at all (a project with issues switched off lists none). */
export const listsIssues = (context: InProject) => context.project.issues_enabled;

/**
 * Whether the caller sets an issue's labels, assignees, due date and lock (GitLab's admin_issue,
 * reporters and up); for others those parameters are silently dropped, as GitLab does.
 */
export const setsIssueMetadata = (context: InProject) => level(context) >= ACCESS.reporter;

/** Only owners and admins delete issues. */
export const mayDeleteIssue = (context: InProject) => writable(context) && level(context) >= ACCESS.owner;

/** `created_at` of a new issue or note is honoured for admins and owners only. */
export const mayBackdate = (context: InProject) => level(context) >= ACCESS.owner;

// Merge requests -----------------------------------------------------------------------------------

/** What the merge request rules look at of a merge request. */
interface MergeRequestPeople {
  author_id: number;
  assignee_ids: readonly number[];
  discussion_locked: boolean | null;
}

/** Reporters and up, or anyone a public or internal project lets read without membership. */
export const canReadMergeRequests = (context: InProject) =>
  context.project.merge_requests_enabled &&
  (level(context) >= ACCESS.reporter || visibleWithoutMembership(context.project.visibility, context.caller));

/** One merge request: as the list, and also its author and assignees who are still guests. */
export const canReadMergeRequest = (context: InProject, mr: MergeRequestPeople) =>
  canReadMergeRequests(context) ||
  (context.project.merge_requests_enabled && level(context) >= ACCESS.guest && authorOrAssignee(context, mr));

export const mayCreateMergeRequest = (context: InProject) =>
  writable(context) && canReadMergeRequests(context) && level(context) >= ACCESS.developer;

/**
 * GitLab's create_merge_request_in: the target of a merge request from another project of its fork
 * network takes it from whoever may read its merge requests and code (developers of the source
 * need not be members of the target).
 */
export const mayCreateMergeRequestIn = (context: InProject) =>
  context.caller !== undefined && writable(context) && canReadMergeRequests(context);

/** Developers and up, the author and the assignees (archived projects are read-only). */
export const mayUpdateMergeRequest = (context: InProject & { mergeRequest: MergeRequestPeople }) =>
  writable(context) &&
  canReadMergeRequest(context, context.mergeRequest) &&
  (level(context) >= ACCESS.developer || authorOrAssignee(context, context.mergeRequest));

/**
 * Who merges or rebases a merge request: whoever may push to its target (developers and up, in a
 * project that is not archived, and admins).
 */
export const mayMergeMergeRequest = (context: InProject & { mergeRequest: MergeRequestPeople }) =>
  writable(context) &&
  canReadMergeRequest(context, context.mergeRequest) &&
  (context.caller?.admin === true || level(context) >= ACCESS.developer);

/**
 * Whether the caller sets a merge request's milestone (GitLab's admin_merge_request, developers
 * and up); for an author or assignee below that it is silently dropped, as GitLab does.
 */
export const setsMergeRequestMilestone = (context: InProject) => level(context) >= ACCESS.developer;

export const mayDeleteMergeRequest = (context: InProject) =>
  writable(context) && level(context) >= ACCESS.owner;

/**
 * Notes on an issue or a merge request: as on any noteable, but a locked discussion takes notes
 * from members only (IssuablePolicy: `locked & ~is_project_member` prevents `create_note`, admins
 * included).
 */
const mayCreateIssuableNote = (context: InProject, issuable: { discussion_locked: boolean | null }) =>
  mayCreateNote(context) && !(issuable.discussion_locked && effectiveAccess(context.access) < ACCESS.guest);

export const mayCreateMergeRequestNote = (context: InProject & { mergeRequest: MergeRequestPeople }) =>
  mayCreateIssuableNote(context, context.mergeRequest);

export const mayCreateIssueNote = (context: InProject & { issue: Issue }) =>
  mayCreateIssuableNote(context, context.issue);

// Snippets ---------------------------------------------------------------------------------------

/** A snippet as visible as it says within the project; private ones for members and the author. */
export function canReadSnippet(
  context: InProject,
  snippet: { visibility: Visibility; author_id: number },
): boolean {
  if (!context.project.snippets_enabled) return false;
  if (level(context) >= ACCESS.guest || isUser(context, snippet.author_id)) return true;
  return visibleWithoutMembership(snippet.visibility, context.caller);
}

export const mayCreateSnippet = (context: InProject) =>
  writable(context) && context.project.snippets_enabled && level(context) >= ACCESS.reporter;

/**
 * Authors and admins change and delete snippets; maintainers too, except internal snippets of
 * others (GitLab 10.x–12.x ProjectSnippetPolicy: `internal & ~is_author & ~admin` prevents it).
 */
export const mayAdminSnippet = (context: InProject & { authorId: number; visibility: Visibility }) =>
  writable(context) &&
  context.caller !== undefined &&
  (context.caller.admin ||
    isUser(context, context.authorId) ||
    (level(context) >= ACCESS.maintainer && context.visibility !== 'internal'));

// Epics ------------------------------------------------------------------------------------------

const groupLevel = ({ caller, access }: InGroup) => (caller?.admin ? ACCESS.owner : access);

/**
 * GitLab's GroupPolicy gives `create_epic`, `admin_epic` and `update_epic` to reporters and up and
 * `destroy_epic` to owners; EpicPolicy adds nothing for an epic's author, so an author below
 * reporter may not change their epic (the API's PUT asks for `admin_epic`).
 */
export const mayCreateEpic = (context: InGroup) => groupLevel(context) >= ACCESS.reporter;
export const mayUpdateEpic = (context: InGroup) => groupLevel(context) >= ACCESS.reporter;
export const mayDeleteEpic = (context: InGroup) => groupLevel(context) >= ACCESS.owner;
/** `created_at` of a new epic note is honoured for admins and the group's owners (11.x `owned_by?`). */
export const mayBackdateEpicNote = (context: InGroup) => groupLevel(context) >= ACCESS.owner;

// Notes ------------------------------------------------------------------------------------------

/** Creating a note on a project's issue, merge request or snippet the caller can read. */
export const mayCreateNote = (context: InProject) => writable(context) && guestOrPublic(context);

/** Authors, maintainers (owners in groups) and admins edit and delete notes; system notes are nobody's. */
export const mayChangeProjectNote = (context: InProject & { note: Note }) =>
  writable(context) &&
  !context.note.system &&
  (isUser(context, context.note.author_id) || level(context) >= ACCESS.maintainer);

export const mayChangeEpicNote = (context: InGroup & { note: Note }) =>
  !context.note.system &&
  (isUser(context, context.note.author_id) || groupLevel(context) >= ACCESS.maintainer);
