/**
 * Loaders of the routes on issues (and their notes): the project, the issue and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Not found` for an issue the caller may not see (confidential ones too),
 * 403 when they may see it but not act.
 */
import { recordNotFound } from '#domain/errors.ts';
import { issueUserIds } from '#domain/issues.ts';
import { canReadIssue, type InProject, mayCreateIssueNote } from '#domain/noteable-policy.ts';
import type { User } from '#domain/users.ts';
import { issueAsParent, readIssue, type StoredIssue } from '#store/issuables/issues.ts';
import { notePartitionOf } from '#store/table/noteable-keys.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { allowing, projectNoteable } from './note-reads.ts';

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

/**
 * Issues as noteable parents: 404 `Not found` for one the caller may not see; anyone who may read
 * it and create notes in the project notes on it (members only on a locked discussion); authors,
 * maintainers and admins edit and delete notes; only owners and admins backdate.
 */
export const issueNoteable = projectNoteable({
  param: 'issue_iid',
  read: (projectId: number, params: { id: string | number; issue_iid: number }) =>
    readIssue(projectId, params.issue_iid),
  partition: (projectId, params) =>
    notePartitionOf('Issue', { project_id: projectId, iid: params.issue_iid }),
  visible: canReadIssue,
  mayCreate: (context, issue) => mayCreateIssueNote({ ...context, issue }),
  asParent: issueAsParent,
});
