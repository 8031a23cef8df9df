/**
 * Every noteable parent kind as its note routes need it (`NOTEABLES_BY_TYPE`, by `noteable_type`):
 * how it is found under its project or group, who sees it (404 `Not found` otherwise), who writes,
 * edits and backdates notes on it (403), the parent a note records and what it adds to a note's
 * single read; and `perNoteable`, with which each entry of functions/notes/ serves its route for
 * every kind. So a new kind is a row here beside its rows in the domain (domain/noteables.ts), the
 * store (store/table/noteable-keys.ts) and, if its notes reach hooks, store/hooks/hook-changes.ts.
 */
import { mayResolveMergeRequestNotes } from '#domain/discussions.ts';
import {
  canReadIssue,
  canReadMergeRequest,
  mayBackdateEpicNote,
  mayChangeEpicNote,
  mayCreateIssueNote,
  mayCreateMergeRequestNote,
  mayCreateNote,
} from '#domain/noteable-policy.ts';
import type { NoteableType } from '#domain/noteables.ts';
import { snippetNoteFields } from '#domain/snippets.ts';
import { epicAsParent, readEpicForNotes } from '#store/issuables/epics.ts';
import { issueAsParent, readIssue } from '#store/issuables/issues.ts';
import { mergeRequestAsParent, readMergeRequest } from '#store/issuables/merge-request-items.ts';
import { readSnippet, snippetAsParent } from '#store/issuables/snippets.ts';
import { notePartitionOf } from '#store/table/noteable-keys.ts';
import { groupNoteable, type Noteable, projectNoteable } from './note-reads.ts';
import { perRouteKind, type RouteFunction } from './per-route-kind.ts';
import { seesSnippet } from './snippet-loaders.ts';

/**
 * Issues: 404 `Not found` for one the caller may not see; anyone who may read it and create notes
 * in the project notes on it (members only on a locked discussion); authors, maintainers and admins
 * edit and delete notes; only owners and admins backdate.
 */
const issueNoteable = projectNoteable({
  param: 'issue_iid',
  read: (projectId: number, params: { id: string | number; issue_iid: number }) =>
    readIssue(projectId, params.issue_iid),
  partition: (projectId, params) =>
    notePartitionOf('Issue', { project_id: projectId, iid: params.issue_iid }),
  visible: canReadIssue,
  mayCreate: (context, issue) => mayCreateIssueNote({ ...context, issue }),
  asParent: issueAsParent,
});

/**
 * Merge requests: 404 `Not found` unless the caller may read it; anyone who may read it and create
 * notes in the project notes on it (members only on a locked discussion), and a body that is one
 * award emoji is a note like any other; authors, maintainers and admins edit and delete notes;
 * only owners and admins backdate.
 */
const mergeRequestNoteable = projectNoteable({
  param: 'merge_request_iid',
  read: (projectId: number, params: { id: string | number; merge_request_iid: number }) =>
    readMergeRequest(projectId, params.merge_request_iid),
  partition: (projectId, params) =>
    notePartitionOf('MergeRequest', { project_id: projectId, iid: params.merge_request_iid }),
  visible: canReadMergeRequest,
  mayCreate: (context, mergeRequest) => mayCreateMergeRequestNote({ ...context, mergeRequest }),
  mayResolve: mayResolveMergeRequestNotes,
  asParent: mergeRequestAsParent,
});

/**
 * Project snippets: 404 `Not found` when not seen; anyone who may read it and create notes in the
 * project notes on it; authors, maintainers and admins edit and delete notes; only owners and
 * admins backdate. The single read of a note (and the answer to a body of one award emoji) carries
 * the snippet's title, file name and expiry.
 */
const snippetNoteable = projectNoteable({
  param: 'snippet_id',
  read: (_projectId: number, params: { id: string | number; snippet_id: number }) =>
    readSnippet(params.snippet_id),
  partition: (_projectId, params) => notePartitionOf('Snippet', { id: params.snippet_id }),
  visible: seesSnippet,
  mayCreate: mayCreateNote,
  asParent: snippetAsParent,
  shown: snippetNoteFields,
});

/**
 * Epics, named by `epic_id` (see readEpicForNotes): any signed-in reader of the group notes on
 * them; authors, maintainers and up and admins edit and delete notes; only owners and admins
 * backdate. The single read of a note (and the answer to a body of one award emoji) carries the
 * epic's title.
 */
const epicNoteable = groupNoteable({
  param: 'epic_id',
  read: (groupId: number, params: { id: string | number; epic_id: number }) =>
    readEpicForNotes(groupId, params.epic_id),
  guess: (params) => notePartitionOf('Epic', { id: params.epic_id }),
  partition: (epic) => notePartitionOf('Epic', { id: epic.id }),
  mayChange: mayChangeEpicNote,
  mayBackdate: mayBackdateEpicNote,
  asParent: epicAsParent,
  shown: (epic) => ({ title: epic.title, file_name: null, expires_at: null }),
});

/** A parent kind as the note routes take it: whatever the parent is, its notes are counted on it. */
export type AnyNoteable = Noteable<{ notes_count: number }>;

/** A descriptor with its parent's own type forgotten (it reads and takes back only its own parents). */
const anyNoteable = <T extends { notes_count: number }>(noteable: Noteable<T>) =>
  noteable as unknown as AnyNoteable;

/**
 * Every kind's descriptor; the type asks for one per domain row. (Each is of its stored parent type,
 * which the domain's parent types do not name: they carry no notes count.)
 */
const NOTEABLES_BY_TYPE: { readonly [K in NoteableType]: AnyNoteable } = {
  Issue: anyNoteable(issueNoteable),
  MergeRequest: anyNoteable(mergeRequestNoteable),
  Snippet: anyNoteable(snippetNoteable),
  Epic: anyNoteable(epicNoteable),
};

/** The descriptors by the route parameter that names their parent (`issue_iid`, `epic_id`, …). */
export const NOTEABLES_BY_PARAM: ReadonlyMap<string, AnyNoteable> = new Map(
  Object.values(NOTEABLES_BY_TYPE).map((noteable) => [noteable.param, noteable]),
);

/**
 * One handler for the same note route (list, get, …) of every parent kind, found by the parameter
 * its path names (`issue_iid`, `epic_id`, …).
 */
export function perNoteable(build: (noteable: AnyNoteable) => RouteFunction) {
  const params = [...NOTEABLES_BY_PARAM.keys()];
  return perRouteKind({
    ofEvent: (event) => params.find((name) => event.pathParameters?.[name] !== undefined),
    ofPath: (path) => params.find((name) => path.includes(`{${name}}`)),
    build: (param) => build(NOTEABLES_BY_PARAM.get(param) as AnyNoteable),
  });
}
