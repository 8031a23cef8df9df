/**
 * Loaders of the award emoji routes of issues, merge requests and project snippets and of their
 * notes, and `perAwardable`, with which each entry of functions/award-emoji/ serves its route for
 * every kind. The awardable is found as GitLab's API finds it: its parent (404 `Not found` when
 * there is none), then the note (404 `Not found`), then whether the caller may read it (404
 * `Award Emoji Not Found`); a removal asks for no read, only for the award's owner (or an admin).
 */
import { type AwardableType, type AwardEmoji, awardableNotFound, awardUserIds } from '#domain/award-emoji.ts';
import { ApiError, recordNotFound } from '#domain/errors.ts';
import { canReadIssue, canReadMergeRequest, type InProject } from '#domain/noteable-policy.ts';
import type { NoteableType } from '#domain/noteables.ts';
import type { AwardableParam } from '#domain/schemas/award-emoji.ts';
import type { User } from '#domain/users.ts';
import { type AwardPlace, awardPlaceOf, getAward, readAwards } from '#store/issuables/award-emoji.ts';
import { readIssue } from '#store/issuables/issues.ts';
import { readMergeRequest } from '#store/issuables/merge-request-items.ts';
import { getNote, type StoredNote } from '#store/issuables/notes.ts';
import { readSnippet } from '#store/issuables/snippets.ts';
import { getUsers } from '#store/users/users.ts';
import { inProject } from './load.ts';
import { perRouteKind, type RouteFunction } from './per-route-kind.ts';
import { seesSnippet } from './snippet-loaders.ts';

/** What an award route's loader is given: the project's `id`, the awardable's and maybe the note's. */
type AwardParams = { id: string | number; note_id?: number } & Partial<Record<AwardableParam, number>>;

/** An item awards hang on (or on whose notes they hang), as its routes find it. */
interface AwardableKind<T extends { id: number }> {
  param: AwardableParam;
  type: NoteableType & AwardableType;
  read: (projectId: number, id: number) => Promise<T | undefined>;
  /** Whether it is this project's: another's is not found. */
  here: (projectId: number, parent: T) => boolean;
  /** Whether the caller reads it (GitLab's read ability of its kind). */
  visible: (context: InProject, parent: T) => boolean;
  /** What names its item: its iid in the project or its own id. */
  ref: (id: number) => { id?: number; iid?: number };
}

const kind = <T extends { id: number }>(spec: AwardableKind<T>) =>
  spec as unknown as AwardableKind<{ id: number }>;

const AWARDABLES: readonly AwardableKind<{ id: number }>[] = [
  kind({
    param: 'issue_iid',
    type: 'Issue',
    read: readIssue,
    here: () => true,
    visible: canReadIssue,
    ref: (iid) => ({ iid }),
  }),
  kind({
    param: 'merge_request_iid',
    type: 'MergeRequest',
    read: readMergeRequest,
    here: () => true,
    visible: canReadMergeRequest,
    ref: (iid) => ({ iid }),
  }),
  kind({
    param: 'snippet_id',
    type: 'Snippet',
    read: (_projectId, id) => readSnippet(id),
    here: (projectId, snippet) => snippet.project_id === projectId,
    visible: seesSnippet,
    ref: (id) => ({ id }),
  }),
];

/** A note that is not there (the store's 404), as opposed to a read that failed. */
const absent = (error: unknown) => {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
};

/** An awardable as a route of one kind reads it: on the parent itself, or on one of its notes. */
export interface AwardableRoute {
  kind: AwardableKind<{ id: number }>;
  onNote: boolean;
}

const awardableIdOf = (route: AwardableRoute, params: AwardParams) => Number(params[route.kind.param]);

/** Where the awards the parameters name are kept. */
const placeOf = (route: AwardableRoute, projectId: number, params: AwardParams): AwardPlace =>
  awardPlaceOf(
    route.kind.type,
    route.kind.ref(awardableIdOf(route, params)),
    projectId,
    route.onNote ? params.note_id : undefined,
  );

/** The place with the parent's own id, once the parent is found (its route may name it by iid). */
const placed = (place: AwardPlace, found: { parent: { id: number } | undefined }): AwardPlace =>
  found.parent ? { ...place, parentRef: { ...place.parentRef, id: found.parent.id } } : place;

/** The parent and, on a note's route, the note, read side by side. */
async function readAwardable(route: AwardableRoute, projectId: number, params: AwardParams) {
  const [parent, note] = await Promise.all([
    route.kind.read(projectId, awardableIdOf(route, params)),
    route.onNote && params.note_id !== undefined
      ? getNote(placeOf(route, projectId, params).parent.pk, params.note_id).catch(absent)
      : undefined,
  ]);
  return { parent: parent && route.kind.here(projectId, parent) ? parent : undefined, note };
}

/** What the awards are on, as the entity names it; 404s in GitLab's order (parent, note, read). */
function decideAwardable(
  route: AwardableRoute,
  context: InProject,
  found: { parent: { id: number } | undefined; note: StoredNote | undefined },
  read: boolean,
): { awardable_id: number; awardable_type: AwardableType; note?: StoredNote } {
  if (!found.parent) throw recordNotFound();
  if (route.onNote && !found.note) throw recordNotFound();
  if (read && !route.kind.visible(context, found.parent)) throw awardableNotFound();
  return found.note
    ? { awardable_id: found.note.id, awardable_type: 'Note', note: found.note }
    : { awardable_id: found.parent.id, awardable_type: route.kind.type };
}

/** The awards of an awardable the caller may read, with their users. */
export const awardsOf = (route: AwardableRoute) =>
  inProject({
    read: async (projectId, params: AwardParams) => {
      const [awardable, awards] = await Promise.all([
        readAwardable(route, projectId, params),
        readAwards(placeOf(route, projectId, params)),
      ]);
      return { awardable, awards, users: await getUsers(awardUserIds(awards)) };
    },
    decide: ({ found, ...context }) => {
      decideAwardable(route, context, found.awardable, true);
      return { awards: found.awards, users: found.users };
    },
  });

/**
 * One award of an awardable with its user; `read`: the caller must read the awardable (a removal
 * asks only that it is there: the owner's rule is the domain's).
 */
export const awardOf = (route: AwardableRoute, read: boolean) =>
  inProject({
    read: async (projectId, params: AwardParams & { award_id: number }) => {
      const place = placeOf(route, projectId, params);
      const [awardable, award] = await Promise.all([
        readAwardable(route, projectId, params),
        getAward(place, params.award_id).catch(absent),
      ]);
      const users = award ? await getUsers([award.user_id]) : new Map<number, User>();
      return { awardable, award, users, place };
    },
    decide: ({ found, ...context }) => {
      decideAwardable(route, context, found.awardable, read);
      if (!found.award) throw recordNotFound();
      return {
        award: found.award as AwardEmoji,
        users: found.users,
        place: placed(found.place, found.awardable),
      };
    },
  });

/** The awardable a new award goes on, once the caller may read it; a system note takes none. */
export const toAward = (route: AwardableRoute) =>
  inProject({
    read: async (projectId, params: AwardParams) => ({
      awardable: await readAwardable(route, projectId, params),
      place: placeOf(route, projectId, params),
    }),
    decide: ({ found, ...context }) => {
      const { note, ...awardable } = decideAwardable(route, context, found.awardable, true);
      if (note?.system) throw awardableNotFound();
      return { awardable, place: placed(found.place, found.awardable) };
    },
  });

/**
 * One handler for the same award route (list, get, …) of every awardable kind, on the item or on
 * one of its notes: the kind is the one whose parameter the path names, and a `note_id` names a
 * note's.
 */
export function perAwardable(build: (route: AwardableRoute) => RouteFunction) {
  const nameOf = (kind: AwardableKind<{ id: number }> | undefined, onNote: boolean) =>
    kind === undefined ? undefined : `${kind.param}${onNote ? '/note' : ''}`;
  return perRouteKind({
    ofEvent: (event) =>
      nameOf(
        AWARDABLES.find((candidate) => event.pathParameters?.[candidate.param] !== undefined),
        event.pathParameters?.note_id !== undefined,
      ),
    ofPath: (path) =>
      nameOf(
        AWARDABLES.find((candidate) => path.includes(`{${candidate.param}}`)),
        path.includes('{note_id}'),
      ),
    build: (name) => {
      const [param, onNote] = name.split('/');
      const kind = AWARDABLES.find((candidate) => candidate.param === param) as AwardableKind<{ id: number }>;
      return build({ kind, onNote: onNote !== undefined });
    },
  });
}
