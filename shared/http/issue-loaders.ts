/**
 * Loaders of the routes on issues (and their notes): the project, the issue and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Not found` for an issue the caller may not see (confidential ones too),
 * 403 when they may see it but not act.
 */
import { recordNotFound } from '#domain/errors.ts';
import { issueUserIds } from '#domain/issues.ts';
import { canReadIssue, type InProject } from '#domain/noteable-policy.ts';
import type { User } from '#domain/users.ts';
import { readIssue, type StoredIssue } from '#store/issuables/issues.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { allowing } from './note-reads.ts';

type IssueRule = (context: InProject & { issue: StoredIssue }) => boolean;

/** The issue as the caller may see it: 404 `Not found` otherwise. */
function visibleIssue(context: InProject, issue: StoredIssue | undefined): StoredIssue {
  if (!issue || !canReadIssue(context, issue)) throw recordNotFound();
  return issue;
}

/** The issue named by `issue_iid`, with the users it shows. */
export const issue = <P extends { id: string | number; issue_iid: number }>(allow?: IssueRule) =>
  inProject({
    read: async (projectId, params: P) => {
      const found = await readIssue(projectId, params.issue_iid);
      return { issue: found, users: found ? await getUsers(issueUserIds(found)) : new Map<number, User>() };
    },
    decide: ({ found, ...context }) => {
      const shown = visibleIssue(context, found.issue);
      if (allow) allowing(allow({ ...context, issue: shown }));
      return { issue: shown, users: found.users };
    },
  });
