/**
 * What the search API shows a reader: decided here from who they are, applied by the store to
 * what it reads. Issues and merge requests follow each project's own list rules, so a search
 * shows a project's matches as its lists do.
 */
import { canReadMergeRequests, listsIssues, seesConfidentialIssues } from './noteable-policy.ts';
import type { Project, ProjectAccess } from './projects.ts';
import { type ReadScope, readScopeOf, readsProject } from './read-scope.ts';
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
}

export function issuableSearchRulesOf(caller: Caller): IssuableSearchRules {
  const scope = readScopeOf(caller);
  return {
    viewerId: caller.id,
    issuesIn: (project, access) => {
      const context = { project, caller, access };
      if (!readsProject(scope, project, access) || !listsIssues(context)) return undefined;
      return { hidesConfidentialFrom: seesConfidentialIssues(context) ? undefined : caller.id };
    },
    mergeRequestsIn: (project, access) => canReadMergeRequests({ project, caller, access }),
  };
}
