/**
 * Discussions: a parent's notes grouped by discussion id. A note created through the notes API is
 * a discussion of its own (`individual_note`); a thread starts with a note of type
 * `DiscussionNote`, and its replies join it. Merge request threads are resolvable.
 */
import { randomBytes } from 'node:crypto';
import { ACCESS } from './access.ts';
import { badRequest, invalidParams } from './errors.ts';
import type { InProject } from './noteable-policy.ts';
import { discussionIdOf, isResolvable, type Note, noteEntity } from './notes.ts';
import { effectiveAccess } from './projects.ts';
import type { User } from './users.ts';

export interface Discussion<N extends Note = Note> {
  id: string;
  individual_note: boolean;
  /** Oldest first. */
  notes: N[];
}

/** A new thread's id: 40 hex digits, like GitLab's SHA-1 ones. */
export const newThreadId = () => randomBytes(20).toString('hex');

/**
 * The discussion of a parent's notes read under one id: a thread's (its notes oldest first), or
 * the note that is its own discussion.
 */
export function discussionOf<N extends Note>(
  discussionId: string,
  notes: readonly N[],
): Discussion<N> | undefined {
  const found = notes.filter((note) => discussionIdOf(note) === discussionId);
  const [first] = found;
  if (!first) return undefined;
  return { id: discussionId, individual_note: first.type !== 'DiscussionNote', notes: found };
}

/**
 * GitLab replies to a thread, or to a note of its own (which becomes a thread) unless it is a
 * system note: 400 `Discussion can not be replied to.` otherwise.
 */
export function checkedRepliable(discussion: Discussion): Discussion {
  const [first] = discussion.notes;
  if (!first || (discussion.individual_note && first.system))
    throw badRequest('Discussion can not be replied to.');
  return discussion;
}

/** A discussion resolves when it has a resolvable note (a merge request thread's). */
export const isResolvableDiscussion = (discussion: Discussion) => discussion.notes.some(isResolvable);

/** 400 `Note is not resolvable` for a note GitLab does not resolve. */
export function checkedResolvable<N extends Note>(note: N): N {
  if (!isResolvable(note)) throw badRequest('Note is not resolvable');
  return note;
}

/**
 * Who resolves a merge request's threads (GitLab's `resolve_note`): its author, developers and up,
 * admins; nobody in an archived project.
 */
export const mayResolveMergeRequestNotes = (context: InProject, mergeRequest: { author_id: number }) =>
  !context.project.archived &&
  context.caller !== undefined &&
  (context.caller.admin ||
    context.caller.id === mergeRequest.author_id ||
    effectiveAccess(context.access) >= ACCESS.developer);

export function discussionEntity(discussion: Discussion, users: ReadonlyMap<number, User>, baseUrl: string) {
  return {
    id: discussion.id,
    individual_note: discussion.individual_note,
    notes: discussion.notes.map((note) => noteEntity(note, users, baseUrl)),
  };
}

/** The ids of the users a page of discussions shows. */
export const discussionUserIds = (discussions: readonly Discussion[]) => [
  ...new Set(
    discussions.flatMap((discussion) =>
      discussion.notes.flatMap((note) =>
        note.resolved_by_id ? [note.author_id, note.resolved_by_id] : [note.author_id],
      ),
    ),
  ),
];

/** A discussion note's change: its body or its resolution, exactly one of them (Grape's `exactly_one_of`). */
export function noteChangeOf(input: {
  body?: string | undefined;
  resolved?: boolean | undefined;
}): { body: string } | { resolved: boolean } {
  if (input.body !== undefined && input.resolved !== undefined)
    throw invalidParams('body, resolved are mutually exclusive');
  if (input.body !== undefined) return { body: input.body };
  if (input.resolved !== undefined) return { resolved: input.resolved };
  throw invalidParams('body, resolved are missing, exactly one parameter must be provided');
}
