/**
 * Loaders of the routes on issues (and their notes): the project, the issue and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Not found` for an issue the caller may not see (confidential ones too),
 * 403 when they may see it but not act. Anonymous readers (the GET routes that let them in) see
 * the non-confidential issues of public projects.
 */
import { notFound, recordNotFound } from '#domain/errors.ts';
import { participantIds } from '#domain/issue-participants.ts';
import { issueUserIds } from '#domain/issues.ts';
import { canReadIssue, type InProject } from '#domain/noteable-policy.ts';
import type { User } from '#domain/users.ts';
import { issueNoteAuthorIds } from '#store/issuables/issue-participants.ts';
import { readIssue, type StoredIssue } from '#store/issuables/issues.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { allowing } from './note-reads.ts';

type IssueRule = (context: InProject & { issue: StoredIssue }) => boolean;

type IssueParams = { id: string | number; issue_iid: number };

/** The issue as the caller may see it: 404 `Not found` otherwise. */
function visibleIssue(context: InProject, issue: StoredIssue | undefined): StoredIssue {
  if (!issue || !canReadIssue(context, issue)) throw recordNotFound();
  return issue;
}

/** The issue named by `issue_iid`, with the users it shows. */
export const issue = <P extends IssueParams>(allow?: IssueRule) =>
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

/** The issue named by `issue_iid` alone, as the caller may see it (reads about it that find nothing yet). */
export const readableIssue = <P extends IssueParams>() =>
  inProject({
    read: (projectId, params: P) => readIssue(projectId, params.issue_iid),
    decide: ({ found, ...context }) => ({ issue: visibleIssue(context, found) }),
  });

/**
 * The issue named by `issue_iid` with who took part in it (author, assignees, authors of its
 * notes) and those users: the notes' authors are read beside the issue.
 */
export const issueParticipants = <P extends IssueParams>() =>
  inProject({
    read: async (projectId, params: P) => {
      const [found, noteAuthors] = await Promise.all([
        readIssue(projectId, params.issue_iid),
        issueNoteAuthorIds(projectId, params.issue_iid),
      ]);
      const ids = found ? participantIds(found, noteAuthors) : [];
      return { issue: found, ids, users: await getUsers(ids) };
    },
    decide: ({ found, ...context }) => {
      visibleIssue(context, found.issue);
      return { participantIds: found.ids, users: found.users };
    },
  });

/**
 * The client that created the issue named by `issue_iid` (admins only, which the route decides
 * first): 404 `Not found` without the issue, `404 UserAgentDetail Not Found` when none was kept.
 */
export const issueUserAgentDetail = <P extends IssueParams>() =>
  inProject({
    read: (projectId, params: P) => readIssue(projectId, params.issue_iid),
    decide: ({ found, ...context }) => {
      const detail = visibleIssue(context, found).user_agent_detail;
      if (!detail) throw notFound('UserAgentDetail');
      return { detail };
    },
  });
