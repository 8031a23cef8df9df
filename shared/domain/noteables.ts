/**
 * The kinds of item notes hang on (issues, merge requests, snippets, epics), each named once, by
 * its `noteable_type`: its route and the parameter in it that names it and, where its notes reach
 * project hooks, what their payloads show of it. Everything else follows these names: the note
 * routes (functions/notes/routes.ts), the store's row of where each is kept
 * (store/table/noteable-keys.ts) and how its note routes read it (http/noteables.ts).
 */
import type { Epic } from './epics.ts';
import {
  hookUrls,
  issueHookAttrs,
  mergeRequestHookAttrs,
  type NoteHookParent,
  snippetHookAttrs,
} from './hook-payloads.ts';
import type { Issue } from './issues.ts';
import type { MergeRequest } from './merge-requests.ts';
import type { Project } from './projects.ts';
import type { Snippet } from './snippets.ts';

/** Each noteable parent kind by its `noteable_type`, with the parent as the domain knows it. */
export interface NoteableParents {
  Issue: Issue;
  MergeRequest: MergeRequest;
  Snippet: Snippet;
  Epic: Epic;
}

export type NoteableType = keyof NoteableParents;

/** What a note's webhook payload shows of the parent it hangs on. */
interface NoteHookKind<P> {
  /** The payload's key for the parent's attributes. */
  key: string;
  /** The parent's hook attributes, as GitLab's builder of its kind gives them. */
  attributes: (parent: P, project: Project, baseUrl: string) => object;
  /** The parent's web URL (a note's is it with the note's anchor). */
  url: (parent: P, project: Project, baseUrl: string) => string;
  /** Whether its notes' events are confidential (they go to the confidential note hooks); never by default. */
  confidential?: (parent: P) => boolean;
}

interface NoteableKind<P> {
  /** The route parameter naming the parent, as GitLab names it. */
  param: string;
  /** The parent's own route, ending with its parameter; its notes are under it, at `/notes`. */
  path: string;
  /** What its notes' webhook payloads show of it; none: its notes reach no hook (a group's parent). */
  hook?: NoteHookKind<P>;
}

const KINDS = {
  Issue: {
    param: 'issue_iid',
    path: '/api/v4/projects/{id}/issues/{issue_iid}',
    hook: {
      key: 'issue',
      attributes: issueHookAttrs,
      url: (issue, project, baseUrl) => hookUrls.issue(project, issue.iid, baseUrl),
      confidential: (issue) => issue.confidential,
    },
  },
  MergeRequest: {
    param: 'merge_request_iid',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    hook: {
      key: 'merge_request',
      attributes: mergeRequestHookAttrs,
      url: (mr, project, baseUrl) => hookUrls.mergeRequest(project, mr.iid, baseUrl),
    },
  },
  Snippet: {
    param: 'snippet_id',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}',
    hook: {
      key: 'snippet',
      attributes: (snippet, project, baseUrl) => snippetHookAttrs(snippet, project, baseUrl),
      url: (snippet, project, baseUrl) => hookUrls.snippet(project, snippet.id, baseUrl),
    },
  },
  Epic: { param: 'epic_id', path: '/api/v4/groups/{id}/epics/{epic_id}' },
} as const satisfies { [K in NoteableType]: NoteableKind<NoteableParents[K]> };

/** The kinds, each with what it is of its own parent type. */
const NOTEABLES: { readonly [K in NoteableType]: NoteableKind<NoteableParents[K]> } = KINDS;

/** Every `noteable_type`. */
export const NOTEABLE_TYPES = Object.keys(KINDS) as NoteableType[];

/** Where each kind's note routes are: under its own route. */
export const noteableRouteOf = (type: NoteableType): string => NOTEABLES[type].path;

/** The route parameter naming a note's parent. */
export type NoteParentParam = (typeof KINDS)[NoteableType]['param'];

/** The kinds whose notes reach project hooks. */
export type HookedNoteableType = {
  [K in NoteableType]: (typeof KINDS)[K] extends { hook: object } ? K : never;
}[NoteableType];

/** A note's parent with its kind. */
export type NoteableParent<K extends NoteableType = NoteableType> = {
  [T in K]: { type: T; item: NoteableParents[T] };
}[K];

/** Whether notes on a kind of parent reach project hooks. */
export const reachesHooks = (type: NoteableType): type is HookedNoteableType =>
  NOTEABLES[type].hook !== undefined;

function hookPartOf<K extends NoteableType>(
  type: K,
  item: NoteableParents[K],
  project: Project,
  baseUrl: string,
): NoteHookParent | undefined {
  const hook = NOTEABLES[type].hook;
  if (!hook) return undefined;
  return {
    key: hook.key,
    attributes: hook.attributes(item, project, baseUrl),
    url: hook.url(item, project, baseUrl),
    confidential: hook.confidential?.(item) ?? false,
  };
}

/** What a note's payload shows of its parent; undefined for a parent whose notes reach no hook. */
export function noteHookParent(
  parent: NoteableParent<HookedNoteableType>,
  project: Project,
  baseUrl: string,
): NoteHookParent;
export function noteHookParent(
  parent: NoteableParent,
  project: Project,
  baseUrl: string,
): NoteHookParent | undefined;
export function noteHookParent(parent: NoteableParent, project: Project, baseUrl: string) {
  return hookPartOf(parent.type, parent.item, project, baseUrl);
}
