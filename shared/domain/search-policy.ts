/**
 * What the search API shows a reader: decided here from who they are, applied by the store to
 * what it reads. Issues and merge requests follow each project's own list rules, so a search
 * shows a project's matches as its lists do.
 */
import {
  canReadMergeRequests,
  canReadSnippet,
  listsIssues,
  seesConfidentialIssues,
} from './noteable-policy.ts';
import type { Project, ProjectAccess } from './projects.ts';
import { type ReadScope, readScopeOf, readsProject } from './read-scope.ts';
import type { Snippet } from './snippets.ts';
import type { Caller } from './users.ts';

/** Admins also find a user by their exact private email (GitLab's UsersFinder). */
export const matchesPrivateEmails = (scope: ReadScope) => scope.seesAll;

/** How one project's issues are searched. */
export interface IssueSearchIn {
  /** Confidential issues are left out for this user (their own stay); absent: none are left out. */
  hidesConfidentialFrom?: number;
}

/** What an issue or merge request search reads in each project it covers, for one reader. */
export interface IssuableSearchRules {
  /** The reader, for the merge request filters that name them (`created_by_me`, `assigned_to_me`). */
  readonly viewerId: number;
  /** How the project's issues are searched, or undefined when the reader is shown none of them. */
  issuesIn(project: Project, access: ProjectAccess): IssueSearchIn | undefined;
  /** Whether the project's merge requests are searched. */
  mergeRequestsIn(project: Project, access: ProjectAccess): boolean;
  /**
   * Whether the project's milestones are searched above the project: where the reader sees its
   * issues or its merge requests (GitLab's projects with issuables available to them).
   */
  milestonesIn(project: Project, access: ProjectAccess): boolean;
  /** Which of the project's snippets the reader finds, or undefined when none. */
  snippetsIn(project: Project, access: ProjectAccess): ((snippet: Snippet) => boolean) | undefined;
}

export function issuableSearchRulesOf(caller: Caller): IssuableSearchRules {
  const scope = readScopeOf(caller);
  const issuesIn = (project: Project, access: ProjectAccess): IssueSearchIn | undefined => {
    const context = { project, caller, access };
    if (!readsProject(scope, project, access) || !listsIssues(context)) return undefined;
    return { hidesConfidentialFrom: seesConfidentialIssues(context) ? undefined : caller.id };
  };
  const mergeRequestsIn = (project: Project, access: ProjectAccess) =>
    canReadMergeRequests({ project, caller, access });
  return {
    viewerId: caller.id,
    issuesIn,
    mergeRequestsIn,
    milestonesIn: (project, access) =>
      issuesIn(project, access) !== undefined || mergeRequestsIn(project, access),
    snippetsIn: (project, access) => {
      const context = { project, caller, access };
      if (!readsProject(scope, project, access) || !project.snippets_enabled) return undefined;
      return (snippet) => canReadSnippet(context, snippet);
    },
  };
}
