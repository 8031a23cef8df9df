/**
 * Loaders of the routes on issues (and their notes): the project, the issue and what the route
 * shows of it (a page of notes, one note, the users they name) are read beside authentication,
 * then decided: 404 `Not found` for an issue the caller may not see (confidential ones too),
 * 403 when they may see it but not act.
 */
import { recordNotFound } from '#domain/errors.ts';
import { issueUserIds } from '#domain/issues.ts';
import { canReadIssue, type InProject } from '#domain/noteable-policy.ts';
import type { Note } from '#domain/notes.ts';
import type { User } from '#domain/users.ts';
import { readIssue, type StoredIssue } from '#store/issues.ts';
import { keys } from '#store/keys.ts';
import { getUsers } from '#store/users.ts';
import { inProject } from './load.ts';
import { allowing, type NotesListParams, noteOf, notesPageOf } from './note-reads.ts';

type IssueRule<X = object> = (context: InProject & { issue: StoredIssue } & X) => boolean;

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

/** The issue of a notes list, and the asked page of its notes with their authors. */
export const issueNotesPage = <P extends { id: string | number; issue_iid: number } & NotesListParams>() =>
  inProject({
    read: (projectId, params: P) =>
      Promise.all([
        readIssue(projectId, params.issue_iid),
        notesPageOf(keys.issue(projectId, params.issue_iid).pk, params),
      ]),
    decide: ({ found: [parent, page], ...context }) => ({ issue: visibleIssue(context, parent), ...page }),
  });

/** The issue a note is created on (any reader who may create notes there). */
export const issueForNote = <P extends { id: string | number; issue_iid: number }>(allow: IssueRule) =>
  inProject({
    read: (projectId, params: P) => readIssue(projectId, params.issue_iid),
    decide: ({ found, ...context }) => {
      const shown = visibleIssue(context, found);
      allowing(allow({ ...context, issue: shown }));
      return { issue: shown };
    },
  });

/** One note of an issue with its author; `allow` decides acting on it (edit, delete). */
export const issueNote = <P extends { id: string | number; issue_iid: number; note_id: number }>(
  allow?: IssueRule<{ note: Note }>,
) =>
  inProject({
    read: (projectId, params: P) =>
      Promise.all([
        readIssue(projectId, params.issue_iid),
        noteOf(keys.issue(projectId, params.issue_iid).pk, params.note_id),
      ]),
    decide: ({ found: [parent, { note, users }], ...context }) => {
      const shown = visibleIssue(context, parent);
      if (!note) throw recordNotFound();
      if (allow) allowing(allow({ ...context, issue: shown, note }));
      return { issue: shown, note, users };
    },
  });
