/**
 * Which committed changes are webhook events, as GitLab sends them: a note created or edited (not a
 * system note, not an award emoji, not on an epic: project hooks only), an issue or merge request
 * opened, closed, reopened or updated. A change that only counts a new note or touches the updated
 * time (a note on the issue does) is no event. Deletions send none, as in GitLab.
 */
import type { Issue } from './issues.ts';
import type { MergeRequest } from './merge-requests.ts';
import { reachesHooks } from './noteables.ts';
import { isAwardEmoji, type Note } from './notes.ts';

export type IssuableAction = 'open' | 'close' | 'reopen' | 'update';

/** The fields whose change is an `update` event of an issue (GitLab's hook `changes` keys). */
const ISSUE_FIELDS = [
  'title',
  'description',
  'labels',
  'assignee_ids',
  'confidential',
  'due_date',
  'discussion_locked',
] as const satisfies readonly (keyof Issue)[];

const MERGE_REQUEST_FIELDS = [
  'title',
  'description',
  'labels',
  'assignee_ids',
  'target_branch',
  'discussion_locked',
  'force_remove_source_branch',
  'squash',
] as const satisfies readonly (keyof MergeRequest)[];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What the issuable-rewrite job changes when a label is renamed or removed or a milestone removed,
 * leaving the updated time (GitLab sends no event for it); every edit moves the updated time.
 */
const FOLLOWED_FIELDS: ReadonlySet<string> = new Set(['labels', 'milestone_id']);

function issuableAction<T extends { state: string; updated_at: string }>(
  previous: T | undefined,
  current: T,
  fields: readonly (keyof T)[],
): IssuableAction | undefined {
  if (!previous) return 'open';
  if (previous.state !== current.state) return current.state === 'closed' ? 'close' : 'reopen';
  const followed = previous.updated_at === current.updated_at;
  const edited = (field: keyof T) =>
    !(followed && FOLLOWED_FIELDS.has(String(field))) && !same(previous[field], current[field]);
  return fields.some(edited) ? 'update' : undefined;
}

export const issueAction = (previous: Issue | undefined, current: Issue) =>
  issuableAction(previous, current, ISSUE_FIELDS);

/** As an issue's, and `merge` when it became merged. */
export const mergeRequestAction = (
  previous: MergeRequest | undefined,
  current: MergeRequest,
): IssuableAction | 'merge' | undefined =>
  previous && previous.state !== current.state && current.state === 'merged'
    ? 'merge'
    : issuableAction(previous, current, MERGE_REQUEST_FIELDS);

/** The actor of an issuable's event: who opened, closed or last changed it. */
export function issuableActor(
  action: IssuableAction | 'merge',
  current: { author_id: number; closed_by_id: number | null; updated_by_id?: number },
): number {
  if (action === 'open') return current.author_id;
  if (action === 'close') return current.closed_by_id ?? current.updated_by_id ?? current.author_id;
  return current.updated_by_id ?? current.author_id;
}

/**
 * A note's event: created, or its body edited (`edited`: the store compares the bodies as stored);
 * none for system notes, award emoji and notes on a parent whose notes reach no hook (an epic's).
 */
export function noteAction(note: Note, created: boolean, edited: boolean): 'create' | 'update' | undefined {
  if (note.system || !reachesHooks(note.noteable_type) || note.project_id === null) return undefined;
  if (isAwardEmoji(note.body)) return undefined;
  if (created) return 'create';
  return edited ? 'update' : undefined;
}

export const noteActor = (action: 'create' | 'update', note: Note) =>
  action === 'create' ? note.author_id : (note.updated_by_id ?? note.author_id);
